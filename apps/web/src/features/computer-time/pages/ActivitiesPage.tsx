import { Center, Loader, MultiSelect, Paper, Stack, Table, Text } from '@mantine/core';
import { createCategoriser, formatDayLabel, formatDuration } from '@sundial/core';
import { type ReactNode, useMemo, useState } from 'react';
import { parseApiError } from '../../../api/client';
import { useMembers } from '../../../api/people';
import { useDurationFormat, useWorkspace } from '../../../api/session';
import { ErrorPanel } from '../../../components/ErrorPanel';
import { daysOf } from '../../../components/report-format';
import { SortHeader } from '../../../components/SortHeader';
import { type AppSort, appRows } from '../activities';
import { useActivities, useComputerTimeSettings } from '../api';
import { useCategories } from '../categories-api';
import css from '../components/Activities.module.css';
import { ActivityEmpty } from '../components/ActivityEmpty';
import { RangeFilters, useRangeParams } from '../components/RangeFilters';
import { t } from '../texts';

/** Past this many days the table shows the totals only. */
const MAX_DAY_COLUMNS = 31;

/**
 * Activities (issue 35): the time each application had the focus, per day of a range and in all,
 * of the viewer or of the people they may see (when the workspace lets managers see activity);
 * categories are the starter set (see activities.ts). The range and people are in the URL.
 */
export function ActivitiesPage() {
  const { me, workspaceId, can } = useWorkspace();
  const durations = useDurationFormat();
  const { params, preset, range, setParam } = useRangeParams();
  const settings = useComputerTimeSettings(workspaceId);
  const seesOthers = Boolean(settings.data?.managersSeeActivity) && can('time:view_others');
  const members = useMembers(workspaceId, seesOthers);
  const users = seesOthers ? (params.get('users') ?? '').split(',').filter(Boolean) : [];
  const activities = useActivities(workspaceId, range.from, range.to, users);
  const [sort, setSort] = useState<{ field: AppSort; order: 'asc' | 'desc' }>({ field: 'total', order: 'desc' });
  const items = activities.data?.items;
  const categories = useCategories(workspaceId);
  const categorise = useMemo(() => createCategoriser(categories.data?.items ?? []), [categories.data]);
  const rows = useMemo(() => appRows(items ?? [], sort.field, sort.order, categorise), [items, sort, categorise]);
  const days = daysOf(range.from, range.to, MAX_DAY_COLUMNS);
  const a = t.activities;

  const handleSort = (field: AppSort, order: 'asc' | 'desc') => setSort({ field, order });
  const dayTotal = (day: string) => rows.reduce((sum, row) => sum + (row.days.get(day) ?? 0), 0);
  const total = rows.reduce((sum, row) => sum + row.total, 0);

  let body: ReactNode;
  if (activities.error) {
    body = <ErrorPanel message={parseApiError(activities.error).message} onRetry={() => activities.refetch()} />;
  } else if (!items) {
    body = (
      <Center py="xl">
        <Loader aria-label={t.loading} />
      </Center>
    );
  } else if (rows.length === 0) {
    body = <ActivityEmpty />;
  } else {
    body = (
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={480}>
          <Table striped highlightOnHover aria-label={a.table}>
            <Table.Thead>
              <Table.Tr>
                <SortHeader label={a.app} field="app" sort={sort.field} order={sort.order} onSort={handleSort} />
                <SortHeader
                  label={a.category}
                  field="category"
                  sort={sort.field}
                  order={sort.order}
                  onSort={handleSort}
                />
                {days?.map((day) => (
                  <Table.Th key={day} ta="right" scope="col" style={{ whiteSpace: 'nowrap' }}>
                    {formatDayLabel(day, me.user, { month: days.length <= 7 })}
                  </Table.Th>
                ))}
                <SortHeader
                  label={a.total}
                  field="total"
                  sort={sort.field}
                  order={sort.order}
                  onSort={handleSort}
                  align="right"
                />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.key}>
                  <Table.Th scope="row" fw={500}>
                    {row.name}
                    {row.site !== null && <span className={css.app}> {a.inApp(row.app)}</span>}
                  </Table.Th>
                  <td className={css.category}>{row.category}</td>
                  {days?.map((day) => {
                    const seconds = row.days.get(day);
                    return (
                      <td key={day} className={css.cell}>
                        {seconds ? formatDuration(seconds, durations) : ''}
                      </td>
                    );
                  })}
                  <td className={css.total}>{formatDuration(row.total, durations)}</td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th scope="row" colSpan={2}>
                  {a.total}
                </Table.Th>
                {days?.map((day) => (
                  <Table.Td key={day} ta="right" fw={600}>
                    {formatDuration(dayTotal(day), durations)}
                  </Table.Td>
                ))}
                <Table.Td ta="right" fw={700} data-testid="activities-total">
                  {formatDuration(total, durations)}
                </Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    );
  }

  return (
    <Stack gap="md">
      <RangeFilters preset={preset} range={range} setParam={setParam}>
        {seesOthers && (
          <MultiSelect
            label={a.people}
            placeholder={users.length === 0 ? 'Everyone' : undefined}
            data={(members.data?.items ?? []).map((p) => ({ value: p.userId, label: p.name }))}
            value={users}
            onChange={(value) => setParam({ users: value.join(',') || null })}
            searchable
            clearable
            style={{ flex: 1, minWidth: 220 }}
          />
        )}
        {activities.isFetching && items && <Loader size="xs" aria-label={t.loading} />}
      </RangeFilters>
      <Text size="xs" c="dimmed">
        {a.categoriesNote}
      </Text>
      {body}
    </Stack>
  );
}
