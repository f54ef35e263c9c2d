import { Table, Text } from '@mantine/core';
import type { ReportDimension, ReportGroup, ReportMeasure, ReportMeasures } from '@sundial/core';
import { Fragment } from 'react';
import { keyLabel, type MeasureFormatter, measureLabel } from '../format';
import { t } from '../texts';
import { Swatch } from './Swatch';

/** A column computed from a row's figures (margin %, say), after the measures. */
export interface ExtraColumn {
  label: string;
  value: (measures: ReportMeasures) => string;
}

function Rows({
  groups,
  depth,
  measures,
  extra,
  format,
  path,
}: {
  groups: ReportGroup[];
  depth: number;
  measures: ReportMeasure[];
  extra: ExtraColumn[];
  format: MeasureFormatter;
  path: string;
}) {
  return (
    <>
      {groups.map((g, i) => {
        const id = `${path}/${g.key.key ?? '∅'}-${i}`;
        const hasChildren = (g.children?.length ?? 0) > 0;
        return (
          <Fragment key={id}>
            <Table.Tr
              data-level={depth}
              style={depth === 0 && hasChildren ? { background: 'var(--mantine-color-default-hover)' } : undefined}
            >
              <Table.Th scope="row" fw={hasChildren ? 600 : 400} style={{ paddingLeft: 12 + depth * 24 }}>
                <Swatch color={g.key.color} />
                {keyLabel(g.dimension, g.key)}
              </Table.Th>
              {measures.map((m) => (
                <Table.Td key={m} ta="right" fw={hasChildren ? 600 : 400} style={{ whiteSpace: 'nowrap' }}>
                  {format(m, g.measures[m])}
                </Table.Td>
              ))}
              {extra.map((x) => (
                <Table.Td key={x.label} ta="right" fw={hasChildren ? 600 : 400} style={{ whiteSpace: 'nowrap' }}>
                  {x.value(g.measures)}
                </Table.Td>
              ))}
            </Table.Tr>
            {hasChildren && (
              <Rows
                groups={g.children ?? []}
                depth={depth + 1}
                measures={measures}
                extra={extra}
                format={format}
                path={id}
              />
            )}
          </Fragment>
        );
      })}
    </>
  );
}

/** The Summary's grouped table: each group with its subtotal, its subgroups indented beneath, the totals last. */
export function SummaryTable({
  groupBy,
  groups,
  totals,
  measures,
  extra = [],
  format,
  label = 'Summary',
}: {
  groupBy: ReportDimension[];
  groups: ReportGroup[];
  totals: ReportMeasures;
  measures: ReportMeasure[];
  extra?: ExtraColumn[];
  format: MeasureFormatter;
  /** The table's accessible name (the report's). */
  label?: string;
}) {
  const heading = groupBy.map((d) => t.dimensions[d]).join(' / ') || t.total;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={label} striped={false} highlightOnHover verticalSpacing="xs" data-testid="summary-table">
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
        <Table.Tbody>
          <Rows groups={groups} depth={0} measures={measures} extra={extra} format={format} path="" />
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr data-testid="summary-total">
            <Table.Th scope="row">
              <Text fw={700}>{t.total}</Text>
            </Table.Th>
            {measures.map((m) => (
              <Table.Td key={m} ta="right" fw={700} style={{ whiteSpace: 'nowrap' }}>
                {format(m, totals[m])}
              </Table.Td>
            ))}
            {extra.map((x) => (
              <Table.Td key={x.label} ta="right" fw={700} style={{ whiteSpace: 'nowrap' }}>
                {x.value(totals)}
              </Table.Td>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
