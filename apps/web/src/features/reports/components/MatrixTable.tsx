import { Loader, Table } from '@mantine/core';
import type { MatrixReportView, ReportDimension, ReportMeasure } from '@sundial/core';
import { Fragment, useState } from 'react';
import type { ParamPatch } from '../../../api/reports';
import { useWorkspace } from '../../../api/session';
import { type DateOrder, keyLabel, type MeasureFormatter, periodLabel } from '../../../components/report-format';
import { useMatrix } from '../api';
import { t } from '../texts';
import { ExpandToggle } from './ExpandToggle';

export interface MatrixColumn {
  key: string;
  label: string;
}

/** The columns of a matrix: every day of a short range when the columns are days, else those the API answered. */
export function matrixColumns(
  view: MatrixReportView,
  dimension: ReportDimension,
  days: string[] | null,
  dates: DateOrder,
): MatrixColumn[] {
  if (dimension === 'day' && days) return days.map((d) => ({ key: d, label: periodLabel('day', d, dates, true) }));
  return view.columns.map((c) => ({ key: c.key.key ?? '', label: keyLabel(dimension, c.key, dates) }));
}

const cell = { whiteSpace: 'nowrap' } as const;
const sticky = {
  position: 'sticky',
  left: 0,
  background: 'var(--mantine-color-body)',
  zIndex: 1,
  minWidth: 150,
  maxWidth: 260,
} as const;

/** The breakdown of one row (a person's tasks, say): the same matrix with that row's key as a filter. */
function Breakdown({
  query,
  rowDimension,
  rowKey,
  expand,
  columns,
  measure,
  format,
}: {
  query: ParamPatch;
  rowDimension: ReportDimension;
  rowKey: string;
  expand: ReportDimension;
  columns: MatrixColumn[];
  measure: ReportMeasure;
  format: MeasureFormatter;
}) {
  const { workspaceId, me } = useWorkspace();
  const filterKey = `${rowDimension}s`;
  const sub = useMatrix(workspaceId, { ...query, [filterKey]: [rowKey], rows: expand }, [measure]);
  if (!sub.data)
    return (
      <Table.Tr>
        <Table.Td colSpan={columns.length + 2} style={{ paddingLeft: 48 }}>
          <Loader size="xs" aria-label={t.matrix.loadingRow} />
        </Table.Td>
      </Table.Tr>
    );
  return (
    <>
      {sub.data.rows.map((row) => (
        <Table.Tr key={row.key.key ?? '∅'} data-level={1}>
          <Table.Th scope="row" fw={400} c="dimmed" style={{ ...sticky, paddingLeft: 40 }}>
            {keyLabel(expand, row.key, me.user)}
          </Table.Th>
          {columns.map((c) => (
            <Table.Td key={c.key} ta="right" c="dimmed" style={cell}>
              {row.cells[c.key]?.[measure] ? format(measure, row.cells[c.key]?.[measure]) : ''}
            </Table.Td>
          ))}
          <Table.Td ta="right" c="dimmed" style={cell}>
            {format(measure, row.totals[measure])}
          </Table.Td>
        </Table.Tr>
      ))}
    </>
  );
}

/**
 * A rows x columns matrix of one measure with row, column and grand totals. Rows of a dimension
 * that nests (a person's tasks, a project's tasks) open to show their breakdown when `expand` names it.
 */
export function MatrixTable({
  view,
  rowDimension,
  columns,
  measure,
  format,
  expand,
  query,
  label,
  dates,
}: {
  view: MatrixReportView;
  rowDimension: ReportDimension;
  columns: MatrixColumn[];
  measure: ReportMeasure;
  format: MeasureFormatter;
  expand?: ReportDimension;
  query: ParamPatch;
  label: string;
  /** How the reader orders day and month (the public page has no reader: ISO order). */
  dates: DateOrder;
}) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const columnTotals = new Map(view.columns.map((c) => [c.key.key ?? '', c.totals]));
  return (
    <Table.ScrollContainer minWidth={Math.max(480, 170 + (columns.length + 1) * 76)}>
      <Table aria-label={label} highlightOnHover verticalSpacing="xs" withColumnBorders data-testid="matrix-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" style={sticky}>
              {t.dimensions[rowDimension]}
            </Table.Th>
            {columns.map((c) => (
              <Table.Th key={c.key} scope="col" ta="right" style={cell}>
                {c.label}
              </Table.Th>
            ))}
            <Table.Th scope="col" ta="right">
              {t.total}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {view.rows.map((row) => {
            const key = row.key.key ?? '';
            const name = keyLabel(rowDimension, row.key, dates);
            const canOpen = expand !== undefined && row.key.key !== null;
            const isOpen = open.has(key);
            return (
              <Fragment key={key || '∅'}>
                <Table.Tr>
                  <Table.Th scope="row" style={sticky} fw={500}>
                    {canOpen && <ExpandToggle open={isOpen} name={name} onToggle={() => toggle(key)} />}
                    {name}
                  </Table.Th>
                  {columns.map((c) => (
                    <Table.Td key={c.key} ta="right" style={cell}>
                      {row.cells[c.key]?.[measure] ? format(measure, row.cells[c.key]?.[measure]) : ''}
                    </Table.Td>
                  ))}
                  <Table.Td ta="right" fw={600} style={cell}>
                    {format(measure, row.totals[measure])}
                  </Table.Td>
                </Table.Tr>
                {canOpen && isOpen && expand && (
                  <Breakdown
                    query={query}
                    rowDimension={rowDimension}
                    rowKey={key}
                    expand={expand}
                    columns={columns}
                    measure={measure}
                    format={format}
                  />
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr data-testid="matrix-total">
            <Table.Th scope="row" style={sticky}>
              {t.total}
            </Table.Th>
            {columns.map((c) => (
              <Table.Td key={c.key} ta="right" fw={600} style={cell}>
                {columnTotals.get(c.key)?.[measure] ? format(measure, columnTotals.get(c.key)?.[measure]) : ''}
              </Table.Td>
            ))}
            <Table.Td ta="right" fw={700} style={cell}>
              {format(measure, view.totals[measure])}
            </Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
