import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Paper, Text } from '@mantine/core';
import { measureKind, type ReportMeasure, type ReportMeasures } from '@sundial/core';
import type { MeasureFormatter } from '../../../components/report-format';
import { measureLabel } from '../measures';

export interface MeasureBar {
  label: string;
  measures: ReportMeasures;
}

const COLORS = ['blue.6', 'gray.5', 'teal.6', 'orange.6', 'grape.6'];

/**
 * Bars of one or more measures per group (projects, people, months...), code-split with the other
 * charts. Durations plot in hours and money in whole currency units; the tooltip and axis read in
 * the report's own format. All series of one chart are of one kind (time or money).
 */
export default function MeasureBars({
  title,
  bars,
  series,
  format,
  stacked = false,
  colors = COLORS,
}: {
  title: string;
  bars: MeasureBar[];
  series: ReportMeasure[];
  format: MeasureFormatter;
  stacked?: boolean;
  colors?: string[];
}) {
  const first = series[0] ?? 'trackedSeconds';
  // Bars of one kind: money in currency units, durations in hours, counts as they are.
  const kind = measureKind(first);
  const scale = { money: 100, duration: 3600, count: 1 }[kind];
  const data = bars.map((b) => ({
    group: b.label,
    ...Object.fromEntries(series.map((m) => [m, (b.measures[m] ?? 0) / scale])),
  }));
  const read = (value: number) => format(first, Math.round(value * scale));
  return (
    <Paper withBorder radius="md" p="md" component="figure" m={0} aria-label={title}>
      <Text component="figcaption" fw={600} mb="sm">
        {title}
      </Text>
      <BarChart
        h={260}
        data={data}
        dataKey="group"
        type={stacked ? 'stacked' : 'default'}
        maxBarWidth={72}
        series={series.map((m, i) => ({
          name: m,
          label: measureLabel(m),
          color: colors[i % colors.length] ?? 'blue.6',
        }))}
        valueFormatter={read}
        withLegend={series.length > 1}
        tickLine="y"
        gridAxis="y"
        yAxisProps={{
          width: kind === 'money' ? 72 : 60,
          tickFormatter: (v: number) => (kind === 'duration' ? `${v} h` : read(v)),
        }}
        xAxisProps={{ interval: 'preserveStartEnd' }}
      />
    </Paper>
  );
}
