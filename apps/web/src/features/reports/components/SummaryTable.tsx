import { Table, Text } from '@mantine/core';
import type { ReportDimension, ReportGroup, ReportMeasure, ReportMeasures } from '@sundial/core';
import { useMemo, useState } from 'react';
import { type DateOrder, keyLabel, type MeasureFormatter } from '../../../components/report-format';
import { Swatch } from '../../../components/Swatch';
import { measureLabel } from '../measures';
import { t } from '../texts';
import { ExpandToggle } from './ExpandToggle';
import { countGroups, FOLD_ABOVE, summaryRows } from './summaryRows';

/** A column computed from a row's figures (margin %, say), after the measures. */
export interface ExtraColumn {
  label: string;
  value: (measures: ReportMeasures) => string;
}

const NONE_OPEN: ReadonlySet<string> = new Set();

/** The Summary's grouped table: each group with its subtotal, its subgroups indented beneath, the totals last. */
export function SummaryTable({
  groupBy,
  groups,
  totals,
  measures,
  extra = [],
  format,
  label = 'Summary',
  dates,
}: {
  groupBy: ReportDimension[];
  groups: ReportGroup[];
  totals: ReportMeasures;
  measures: ReportMeasure[];
  extra?: ExtraColumn[];
  format: MeasureFormatter;
  /** The table's accessible name (the report's). */
  label?: string;
  /** How the reader orders day and month (the public page has no reader: ISO order). */
  dates: DateOrder;
}) {
  const heading = groupBy.map((d) => t.dimensions[d]).join(' / ') || t.total;
  // A large Summary (a big team by project and person) opens folded: a row per first-level group, each opened on demand.
  const total = useMemo(() => countGroups(groups), [groups]);
  const folds = total > FOLD_ABOVE;
  // The groups opened, for the report they were opened in: a new answer (other filters) opens folded again.
  const [opened, setOpened] = useState<{ of: ReportGroup[]; ids: ReadonlySet<string> }>({ of: groups, ids: new Set() });
  const open = opened.of === groups ? opened.ids : NONE_OPEN;
  const rows = useMemo(() => summaryRows(groups, folds ? open : 'all'), [groups, folds, open]);
  const toggle = (id: string) => {
    const ids = new Set(open);
    if (!ids.delete(id)) ids.add(id);
    setOpened({ of: groups, ids });
  };
  return (
    <Table.ScrollContainer minWidth={560}>
      {folds && (
        <Text size="sm" c="dimmed" mb="xs" data-testid="summary-folded">
          {t.summaryFolded(total)}
        </Text>
      )}
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
          {rows.map(({ group: g, depth, id, below, open: isOpen }) => {
            const weight = below > 0 ? 600 : 400;
            const name = keyLabel(g.dimension, g.key, dates);
            return (
              <Table.Tr
                key={id}
                data-level={depth}
                style={depth === 0 && below > 0 ? { background: 'var(--mantine-color-default-hover)' } : undefined}
              >
                <Table.Th scope="row" fw={weight} style={{ paddingLeft: 12 + depth * 24 }}>
                  {folds && below > 0 && <ExpandToggle open={isOpen} name={name} onToggle={() => toggle(id)} />}
                  <Swatch color={g.key.color} />
                  {name}
                </Table.Th>
                {measures.map((m) => (
                  <Table.Td key={m} ta="right" fw={weight} style={{ whiteSpace: 'nowrap' }}>
                    {format(m, g.measures[m])}
                  </Table.Td>
                ))}
                {extra.map((x) => (
                  <Table.Td key={x.label} ta="right" fw={weight} style={{ whiteSpace: 'nowrap' }}>
                    {x.value(g.measures)}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
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
