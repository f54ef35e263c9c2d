import { Group, Text } from '@mantine/core';
import type { ReportMeasure, ReportMeasures } from '@sundial/core';
import type { reportFormat } from '../../../components/report-format';
import { t } from '../texts';

/**
 * The Detailed report's totals line: tracked and billable time, the billable amount (unless hidden)
 * and a cost total where one is given (a public link that includes costs), and the entry count.
 */
export function DetailedTotalsLine({
  totals,
  moneyHidden,
  fetching = false,
  format,
}: {
  totals: ReportMeasures;
  moneyHidden: boolean;
  fetching?: boolean;
  format: Pick<ReturnType<typeof reportFormat>, 'measure'>;
}) {
  const figures: [ReportMeasure, string][] = [
    ['trackedSeconds', t.detailed.total],
    ['billableSeconds', t.detailed.billableTotal],
    ...(moneyHidden ? [] : ([['billableAmount', t.detailed.amountTotal]] as [ReportMeasure, string][])),
    ...(totals.costAmount !== undefined ? ([['costAmount', t.detailed.costTotal]] as [ReportMeasure, string][]) : []),
  ];
  return (
    <Group
      gap="lg"
      aria-label={t.detailed.totals}
      role="group"
      data-testid="detailed-totals"
      style={{ opacity: fetching ? 0.6 : 1, transition: 'opacity 150ms' }}
    >
      {figures.map(([measure, label]) => (
        <Text key={measure} size="sm">
          <Text span c="dimmed" size="sm">
            {label}{' '}
          </Text>
          <Text span fw={600} size="sm" ff="monospace" data-testid={`detailed-total-${measure}`}>
            {format.measure(measure, totals[measure])}
          </Text>
        </Text>
      ))}
      <Text size="sm" c="dimmed">
        {t.detailed.entries(totals.entryCount ?? 0)}
      </Text>
    </Group>
  );
}
