import { Badge, Button, Center, Checkbox, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { DetailedEntryView, DetailedSort } from '@sundial/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTagLists } from '../../../api/catalog';
import { useWorkspace } from '../../../api/session';
import { failed } from '../../../components/notify';
import { useDetailed, useMarkInvoiced } from '../api';
import { ReportBody, ReportFrame, useReportUrl } from '../components/ReportFrame';
import { Swatch } from '../components/Swatch';
import { useReportFormat } from '../format';
import { t } from '../texts';
import { readSort } from '../url';

const PAGE = 100;
const nowrap = { whiteSpace: 'nowrap' } as const;

function SortHeader({
  label,
  field,
  sort,
  order,
  onSort,
  align,
}: {
  label: string;
  field: DetailedSort;
  sort: DetailedSort;
  order: 'asc' | 'desc';
  onSort: (field: DetailedSort, order: 'asc' | 'desc') => void;
  align?: 'right';
}) {
  const active = sort === field;
  const Icon = active ? (order === 'asc' ? IconArrowUp : IconArrowDown) : IconSelector;
  return (
    <Table.Th
      scope="col"
      ta={align}
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
      style={nowrap}
    >
      <UnstyledButton
        onClick={() => onSort(field, active && order === 'desc' ? 'asc' : 'desc')}
        fw={600}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {label}
        <Icon size={14} aria-hidden="true" />
      </UnstyledButton>
    </Table.Th>
  );
}

/** "Mon, 23 Nov" and "09:00–10:30" of an entry in the viewer's zone and time format. */
function useEntryTimes() {
  const { me } = useWorkspace();
  return useMemo(() => {
    const loc = navigator.language || 'en-US';
    const zone = me.user.timeZone;
    const date = new Intl.DateTimeFormat(loc, { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short' });
    const time = new Intl.DateTimeFormat(loc, {
      timeZone: zone,
      hour: 'numeric',
      minute: '2-digit',
      hour12: me.user.timeFormat === '12h',
    });
    return (e: DetailedEntryView) => ({
      date: date.format(new Date(e.start)),
      span: `${time.format(new Date(e.start))}–${e.end ? time.format(new Date(e.end)) : t.detailed.running}`,
    });
  }, [me.user.timeZone, me.user.timeFormat]);
}

/**
 * Detailed: every entry of the range, a page at a time (keyset cursor), sorted by start, duration
 * or description, with amounts where the API gives them and bulk "mark as invoiced" for those who
 * may edit the entries. Entries are edited on the timesheet (inline editing here comes later).
 */
export function DetailedPage() {
  const { workspaceId, me, can } = useWorkspace();
  const url = useReportUrl();
  const { params, filters, update } = url;
  const { sort, order } = readSort(params);
  const format = useReportFormat();
  const times = useEntryTimes();
  const detailed = useDetailed(workspaceId, { ...filters, sort, order, limit: PAGE });
  const tagLists = useTagLists(workspaceId, false);
  const tagNames = useMemo(
    () => new Map((tagLists.data?.items ?? []).flatMap((l) => l.tags).map((tag) => [tag.id, tag.name])),
    [tagLists.data],
  );
  const mark = useMarkInvoiced(workspaceId);
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const items = useMemo(() => detailed.data?.pages.flatMap((p) => p.items) ?? [], [detailed.data]);
  const range = detailed.data?.pages[0]?.range;
  const mayEdit = (e: DetailedEntryView) => e.userId === me.user.id || can('time:edit_others');
  const editable = items.filter(mayEdit);
  const showAmounts = items.some((e) => e.billableAmount !== null && e.billableAmount !== undefined);
  const showUser = can('time:view_others');
  const chosen = editable.filter((e) => selected.has(e.id));
  const allChosen = editable.length > 0 && chosen.length === editable.length;

  const handleSort = (field: DetailedSort, next: 'asc' | 'desc') =>
    update({ sort: field === 'start' ? undefined : field, order: next === 'desc' ? undefined : next });
  const handleMark = (invoiced: boolean) =>
    mark.mutate(
      { ids: chosen.map((e) => e.id), invoiced },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t.detailed.marked(chosen.length, invoiced) });
          setSelected(new Set());
        },
        onError: failed,
      },
    );
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const controls =
    chosen.length > 0 ? (
      <Group gap="xs" role="group" aria-label="Selected entries">
        <Text size="sm" fw={500}>
          {t.detailed.selected(chosen.length)}
        </Text>
        <Button size="xs" onClick={() => handleMark(true)} loading={mark.isPending}>
          {t.detailed.markInvoiced}
        </Button>
        <Button size="xs" variant="default" onClick={() => handleMark(false)} loading={mark.isPending}>
          {t.detailed.markNotInvoiced}
        </Button>
      </Group>
    ) : (
      <Text size="sm" c="dimmed">
        {t.detailed.inlineLater}
      </Text>
    );

  return (
    <ReportFrame url={url} range={range} controls={controls}>
      <ReportBody
        query={detailed}
        isEmpty={!!detailed.data && items.length === 0}
        dimWhileFetching={!detailed.isFetchingNextPage}
      >
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="Detailed" highlightOnHover verticalSpacing="xs" data-testid="detailed-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={36}>
                  <Checkbox
                    aria-label={t.detailed.selectAll}
                    checked={allChosen}
                    indeterminate={chosen.length > 0 && !allChosen}
                    disabled={editable.length === 0}
                    onChange={() => setSelected(allChosen ? new Set() : new Set(editable.map((e) => e.id)))}
                  />
                </Table.Th>
                <SortHeader label={t.detailed.date} field="start" sort={sort} order={order} onSort={handleSort} />
                <SortHeader
                  label={t.detailed.descriptionCol}
                  field="description"
                  sort={sort}
                  order={order}
                  onSort={handleSort}
                />
                <Table.Th scope="col">{t.detailed.projectTask}</Table.Th>
                {showUser && <Table.Th scope="col">{t.detailed.user}</Table.Th>}
                <SortHeader
                  label={t.detailed.duration}
                  field="duration"
                  sort={sort}
                  order={order}
                  onSort={handleSort}
                  align="right"
                />
                {showAmounts && (
                  <Table.Th scope="col" ta="right">
                    {t.detailed.amount}
                  </Table.Th>
                )}
                <Table.Th scope="col">{t.detailed.status}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => {
                const when = times(e);
                const what = e.note || t.detailed.noDescription;
                return (
                  <Table.Tr key={e.id} data-testid="detailed-row">
                    <Table.Td>
                      {mayEdit(e) && (
                        <Checkbox
                          aria-label={t.detailed.select(`${what}, ${when.date}`)}
                          checked={selected.has(e.id)}
                          onChange={() => toggle(e.id)}
                        />
                      )}
                    </Table.Td>
                    <Table.Td style={nowrap}>
                      <Text size="sm">{when.date}</Text>
                      <Text size="xs" c="dimmed">
                        {when.span}
                      </Text>
                    </Table.Td>
                    <Table.Td maw={280}>
                      <Text size="sm" lineClamp={2} c={e.note ? undefined : 'dimmed'}>
                        {what}
                      </Text>
                      {e.tagIds.length > 0 && (
                        <Group gap={4} mt={2} aria-label={t.detailed.tagsCol}>
                          {e.tagIds.map((id) => (
                            <Badge key={id} size="xs" variant="light" color="gray" tt="none" maw="100%">
                              {tagNames.get(id) ?? 'tag'}
                            </Badge>
                          ))}
                        </Group>
                      )}
                    </Table.Td>
                    <Table.Td maw={220}>
                      {e.projectName ? (
                        <Text size="sm" lineClamp={2}>
                          <Swatch color={e.projectColor ?? 'gray.5'} size={8} />
                          {e.projectName}
                          {e.taskName ? ` / ${e.taskName}` : ''}
                          {e.clientName ? (
                            <Text span size="xs" c="dimmed">
                              {` · ${e.clientName}`}
                            </Text>
                          ) : null}
                        </Text>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {t.detailed.noProject}
                        </Text>
                      )}
                    </Table.Td>
                    {showUser && (
                      <Table.Td>
                        <Text size="sm">{e.userName}</Text>
                      </Table.Td>
                    )}
                    <Table.Td ta="right" style={nowrap} fw={500}>
                      {format.duration(e.seconds)}
                    </Table.Td>
                    {showAmounts && (
                      <Table.Td ta="right" style={nowrap}>
                        {e.billable ? format.measure('billableAmount', e.billableAmount) : '—'}
                      </Table.Td>
                    )}
                    <Table.Td>
                      <Text size="sm" c={e.invoiced ? 'teal.9' : 'dimmed'} fw={e.invoiced ? 600 : 400}>
                        {e.invoiced ? t.detailed.invoiced : t.detailed.notInvoiced}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Center mt="md">
          <Group gap="md">
            <Text size="sm" c="dimmed" aria-live="polite">
              {t.detailed.shown(items.length, detailed.hasNextPage)}
            </Text>
            {detailed.hasNextPage && (
              <Button variant="default" onClick={() => detailed.fetchNextPage()} loading={detailed.isFetchingNextPage}>
                {t.detailed.loadMore}
              </Button>
            )}
          </Group>
        </Center>
      </ReportBody>
    </ReportFrame>
  );
}
