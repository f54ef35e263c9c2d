import { Button, Checkbox, Group, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { DetailedEntryView, DetailedSort, ReportMeasure } from '@sundial/core';
import { useMemo, useRef, useState } from 'react';
import { usePickers, useTagLists } from '../../../api/catalog';
import { useWorkspace } from '../../../api/session';
import { failed, notSaved } from '../../../components/notify';
import { useReportFormat } from '../../../components/report-format';
import { SortHeader } from '../../../components/SortHeader';
import { useDetailed, useEditDetailedEntry, useMarkInvoiced, useSummary } from '../api';
import { DetailedRow, type DetailedRowActions, type EntryClock, entryClock } from '../components/DetailedRow';
import { DetailedTotalsLine } from '../components/DetailedTotals';
import { LoadMoreFooter } from '../components/LoadMoreFooter';
import { ReportBody, ReportFrame, useReportUrl } from '../components/ReportFrame';
import { t } from '../texts';
import { readSort } from '../url';

const PAGE = 100;
const _nowrap = { whiteSpace: 'nowrap' } as const;

/** How rows show an entry's day and times, and read times typed for it, in the viewer's zone and time format. */
function useEntryClock(): EntryClock {
  const { me } = useWorkspace();
  const { timeZone, dateFormat, timeFormat } = me.user;
  return useMemo(() => entryClock(timeZone, { dateFormat, timeFormat }), [timeZone, dateFormat, timeFormat]);
}

const TOTAL_MEASURES: ReportMeasure[] = ['trackedSeconds', 'billableSeconds', 'billableAmount', 'entryCount'];

/** The report's totals from the engine's Summary of the same filters (amounts only where the viewer sees them all). */
function DetailedTotals({ filters }: { filters: ReturnType<typeof useReportUrl>['filters'] }) {
  const { workspaceId } = useWorkspace();
  const format = useReportFormat();
  const summary = useSummary(workspaceId, filters, TOTAL_MEASURES);
  const totals = summary.data?.totals;
  if (!totals) return null;
  return (
    <DetailedTotalsLine
      totals={totals}
      moneyHidden={!!summary.data?.moneyHidden}
      fetching={summary.isFetching}
      format={format}
    />
  );
}

/**
 * Detailed: every entry of the range, a page at a time (keyset cursor), sorted by start, duration
 * or description, with the report's totals, amounts where the API gives them, and, for those who
 * may edit an entry, inline editing (through the timesheet's write, shown at once and undone with
 * the reason when refused) and bulk "mark as invoiced".
 */
export function DetailedPage() {
  const { workspaceId, me, can } = useWorkspace();
  const url = useReportUrl();
  const { params, filters, update } = url;
  const { sort, order } = readSort(params);
  const format = useReportFormat();
  const clock = useEntryClock();
  const detailed = useDetailed(workspaceId, { ...filters, sort, order, limit: PAGE });
  // The entry count of the totals line (the same query, shared): a listing past the direct
  // download's size exports in the background without asking first.
  const listed = useSummary(workspaceId, filters, TOTAL_MEASURES).data?.totals.entryCount;
  const tagLists = useTagLists(workspaceId, false);
  const tagNames = useMemo(
    () => new Map((tagLists.data?.items ?? []).flatMap((l) => l.tags).map((tag) => [tag.id, tag.name])),
    [tagLists.data],
  );
  const mark = useMarkInvoiced(workspaceId);
  const edit = useEditDetailedEntry(workspaceId);
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const items = useMemo(() => detailed.data?.pages.flatMap((p) => p.items) ?? [], [detailed.data]);
  const range = detailed.data?.pages[0]?.range;
  // The report lists only time the viewer reaches; editing others' needs time:edit_others (the API checks each).
  const mayEdit = (e: DetailedEntryView) => e.userId === me.user.id || can('time:edit_others');
  const editable = items.filter(mayEdit);
  const pickers = usePickers(workspaceId, editable.length > 0 ? editable.map((e) => e.projectId) : []).data;
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

  // Rows get one stable object of handlers reading the newest render, so memoised rows stay put.
  const latest = useRef({ edit });
  latest.current = { edit };
  const actions = useMemo<DetailedRowActions>(
    () => ({
      onToggle: (id) =>
        setSelected((current) => {
          const next = new Set(current);
          if (next.has(id)) next.delete(id);
          else next.add(id);
          return next;
        }),
      onEdit: (row, body, names) => latest.current.edit.mutate({ id: row.id, body, names }, { onError: notSaved }),
    }),
    [],
  );

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
    ) : items.length > 0 ? (
      <Text size="sm" c="dimmed">
        {editable.length > 0 ? t.detailed.editable : t.detailed.readOnly}
      </Text>
    ) : null;

  return (
    <ReportFrame
      url={url}
      range={range}
      controls={controls}
      exportAs={{ kind: 'detailed', query: { ...filters, sort, order }, title: 'Detailed', rows: listed }}
    >
      {items.length > 0 && <DetailedTotals filters={filters} />}
      <ReportBody
        query={detailed}
        isEmpty={!!detailed.data && items.length === 0}
        dimWhileFetching={!detailed.isFetchingNextPage && !edit.isPending}
      >
        <Table.ScrollContainer minWidth={760}>
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
                <Table.Th scope="col">{t.detailed.billable}</Table.Th>
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
              {items.map((e) => (
                <DetailedRow
                  key={e.id}
                  entry={e}
                  editable={mayEdit(e)}
                  picked={selected.has(e.id)}
                  showUser={showUser}
                  showAmounts={showAmounts}
                  pickers={pickers}
                  tagNames={tagNames}
                  clock={clock}
                  format={format}
                  actions={actions}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <LoadMoreFooter shown={items.length} pages={detailed} />
      </ReportBody>
    </ReportFrame>
  );
}
