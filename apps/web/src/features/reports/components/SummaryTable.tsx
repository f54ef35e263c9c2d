import { Button, Group, Loader, Table, Text } from '@mantine/core';
import {
  type ReportDimension,
  type ReportGroup,
  type ReportMeasure,
  type ReportMeasures,
  type ReportRest,
  SUMMARY_FOLD_ABOVE,
} from '@sundial/core';
import { useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { type DateOrder, keyLabel, type MeasureFormatter } from '../../../components/report-format';
import { Swatch } from '../../../components/Swatch';
import { useWindowList } from '../../../components/window-list';
import { measureLabel } from '../measures';
import { t } from '../texts';
import { ExpandToggle } from './ExpandToggle';
import { countGroups, type LoadedChildren, type SummaryRow, summaryRows } from './summaryRows';

/** A column computed from a row's figures (margin %, say), after the measures. */
export interface ExtraColumn {
  label: string;
  value: (measures: ReportMeasures) => string;
}

const NONE_OPEN: ReadonlyMap<string, (string | null)[]> = new Map();
/** Above this many rows, only those near the viewport are in the page (40,000 opened rows scroll without a long task). */
const VIRTUAL_ABOVE = 150;
const ROW_HEIGHT = 37;

/** Where a folded Summary's subgroups come from: the server, asked with the group's keys. */
export interface SubgroupSource {
  /** Groups in the whole Summary (sent or not), for the folded notice. */
  groupCount: number;
  /** The query key of a group's subgroups (cached with the reports). */
  key: (path: (string | null)[]) => readonly unknown[];
  fetch: (path: (string | null)[]) => Promise<{ groups: ReportGroup[]; rest?: ReportRest | undefined }>;
}

/** The Summary's grouped table: each group with its subtotal, its subgroups indented beneath, the totals last. */
export function SummaryTable({
  groupBy,
  groups,
  rest,
  totals,
  measures,
  extra = [],
  format,
  label = 'Summary',
  dates,
  subgroups,
}: {
  groupBy: ReportDimension[];
  groups: ReportGroup[];
  /** The first-level groups left out (the smaller ones), summed. */
  rest?: ReportRest | undefined;
  totals: ReportMeasures;
  measures: ReportMeasure[];
  extra?: ExtraColumn[];
  format: MeasureFormatter;
  /** The table's accessible name (the report's). */
  label?: string;
  /** How the reader orders day and month (the public page has no reader: ISO order). */
  dates: DateOrder;
  /** When the server sent the Summary folded: where the subgroups of an opened group come from. */
  subgroups?: SubgroupSource | undefined;
}) {
  const heading = groupBy.map((d) => t.dimensions[d]).join(' / ') || t.total;
  // A large Summary (a big team by project and person) opens folded: a row per first-level group,
  // each opened on demand. The server folds it (subgroups asked for when opened), or, sent whole,
  // the table does.
  const total = useMemo(() => subgroups?.groupCount ?? countGroups(groups), [groups, subgroups]);
  const serverFolded = groups.some((g) => g.childCount !== undefined && !g.children);
  const folds = serverFolded || total > SUMMARY_FOLD_ABOVE;
  // The groups opened (with their keys), for the report they were opened in: a new answer (other filters) opens folded again.
  const [opened, setOpened] = useState<{ of: ReportGroup[]; ids: ReadonlyMap<string, (string | null)[]> }>({
    of: groups,
    ids: new Map(),
  });
  const open = opened.of === groups ? opened.ids : NONE_OPEN;
  const asked = useMemo(() => [...open].filter(([id]) => !!id), [open]);
  const answers = useQueries({
    queries: asked.map(([, path]) => ({
      queryKey: subgroups?.key(path) ?? ['none'],
      queryFn: () => (subgroups as SubgroupSource).fetch(path),
      enabled: !!subgroups,
      staleTime: 60_000,
    })),
  });
  const loaded = useMemo(() => {
    const byId = new Map<string, LoadedChildren>();
    asked.forEach(([id], i) => {
      const answer = answers[i];
      if (!answer) return;
      if (answer.data) byId.set(id, { status: 'success', groups: answer.data.groups, rest: answer.data.rest });
      else byId.set(id, { status: answer.isError ? 'error' : 'pending' });
    });
    return byId;
  }, [asked, answers]);
  const openIds = useMemo(() => new Set(open.keys()), [open]);
  const rows = useMemo(
    () => summaryRows(groups, folds ? openIds : 'all', { rest, loaded: (id) => loaded.get(id) }),
    [groups, folds, openIds, rest, loaded],
  );
  const toggle = (id: string, path: (string | null)[]) => {
    const ids = new Map(open);
    if (!ids.delete(id)) ids.set(id, path);
    setOpened({ of: groups, ids });
  };
  const retry = (id: string) => {
    const i = asked.findIndex(([at]) => at === id);
    void answers[i]?.refetch();
  };

  const virtual = rows.length > VIRTUAL_ABOVE;
  const { listRef, scrollMargin, virtualizer } = useWindowList<HTMLTableSectionElement>({
    count: virtual ? rows.length : 0,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (i) => rows[i]?.id ?? i,
    overscan: 12,
  });
  const items = virtual
    ? virtualizer.getVirtualItems().map((v) => ({ row: rows[v.index] as SummaryRow, index: v.index }))
    : rows.map((row, index) => ({ row, index }));
  const first = virtual ? virtualizer.getVirtualItems()[0] : undefined;
  const last = virtual ? virtualizer.getVirtualItems().at(-1) : undefined;
  const before = first ? first.start - scrollMargin : 0;
  const after = last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0;
  const measureRef = virtual ? virtualizer.measureElement : undefined;
  const columns = 1 + measures.length + extra.length;

  const figures = (values: ReportMeasures, weight: number) => (
    <>
      {measures.map((m) => (
        <Table.Td key={m} ta="right" fw={weight} style={{ whiteSpace: 'nowrap' }}>
          {format(m, values[m])}
        </Table.Td>
      ))}
      {extra.map((x) => (
        <Table.Td key={x.label} ta="right" fw={weight} style={{ whiteSpace: 'nowrap' }}>
          {x.value(values)}
        </Table.Td>
      ))}
    </>
  );
  const indent = (depth: number) => 12 + depth * 24;

  return (
    <Table.ScrollContainer minWidth={560}>
      {folds && (
        <Text size="sm" c="dimmed" mb="xs" data-testid="summary-folded">
          {t.summaryFolded(total)}
        </Text>
      )}
      <Table
        aria-label={label}
        aria-rowcount={virtual ? rows.length + 2 : undefined}
        striped={false}
        highlightOnHover
        verticalSpacing="xs"
        data-testid="summary-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{heading}</Table.Th>
            {measures.map((m) => (
              <Table.Th key={m} scope="col" ta="right">
                {measureLabel(m)}
              </Table.Th>
            ))}
            {extra.map((x) => (
              <Table.Th key={x.label} scope="col" ta="right">
                {x.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody ref={listRef}>
          {before > 0 && <Table.Tr aria-hidden="true" style={{ height: before }} />}
          {items.map(({ row, index }) => {
            const common = {
              'data-index': index,
              ref: measureRef,
              'aria-rowindex': virtual ? index + 2 : undefined,
            };
            if (row.kind === 'rest')
              return (
                <Table.Tr key={row.id} {...common} data-level={row.depth} data-testid="summary-rest">
                  <Table.Th scope="row" fw={400} c="dimmed" style={{ paddingLeft: indent(row.depth) }}>
                    {t.moreGroups(row.rest.count)}
                  </Table.Th>
                  {figures(row.rest.measures, 400)}
                </Table.Tr>
              );
            if (row.kind === 'status')
              return (
                <Table.Tr key={row.id} {...common} data-level={row.depth}>
                  <Table.Td colSpan={columns} style={{ paddingLeft: indent(row.depth) }}>
                    {row.status === 'pending' ? (
                      <Group gap="xs">
                        <Loader size="xs" />
                        <Text size="sm" c="dimmed">
                          {t.subgroupsLoading}
                        </Text>
                      </Group>
                    ) : (
                      <Group gap="xs">
                        <Text size="sm" c="red" role="alert">
                          {t.subgroupsFailed}
                        </Text>
                        <Button size="compact-xs" variant="light" onClick={() => retry(row.parentId)}>
                          {t.retry}
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            const { group: g, depth, id, below, open: isOpen } = row;
            const weight = below > 0 ? 600 : 400;
            const name = keyLabel(g.dimension, g.key, dates);
            return (
              <Table.Tr
                key={row.id}
                {...common}
                data-level={depth}
                style={depth === 0 && below > 0 ? { background: 'var(--mantine-color-default-hover)' } : undefined}
              >
                <Table.Th scope="row" fw={weight} style={{ paddingLeft: indent(depth) }}>
                  {folds && below > 0 && (
                    <ExpandToggle open={isOpen} name={name} onToggle={() => toggle(id, row.path)} />
                  )}
                  <Swatch color={g.key.color} />
                  {name}
                </Table.Th>
                {figures(g.measures, weight)}
              </Table.Tr>
            );
          })}
          {after > 0 && <Table.Tr aria-hidden="true" style={{ height: after }} />}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr data-testid="summary-total">
            <Table.Th scope="row">
              <Text fw={700}>{t.total}</Text>
            </Table.Th>
            {figures(totals, 700)}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
