import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { Swatch } from './Swatch';

export interface ChartPoint {
  label: string;
  seconds: number;
}
export interface DonutSlice extends ChartPoint {
  color?: string | null;
}

const PALETTE = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'cyan.6', 'lime.7', 'pink.6', 'indigo.6', 'yellow.7'];
const hours = (seconds: number) => Math.round((seconds / 3600) * 100) / 100;

/**
 * The Summary's charts (code-split: only report pages load recharts): tracked time per day, week or
 * month as bars, and a donut by the first grouping (its eight largest parts and the rest as "Other").
 */
export default function SummaryCharts({
  bars,
  barsTitle,
  donut,
  donutTitle,
  show,
  formatSeconds,
}: {
  bars: ChartPoint[];
  barsTitle: string;
  donut: DonutSlice[];
  donutTitle: string;
  show: { bars: boolean; donut: boolean };
  formatSeconds: (seconds: number) => string;
}) {
  const sorted = [...donut].sort((a, b) => b.seconds - a.seconds);
  const top = sorted.slice(0, 8);
  const rest = sorted.slice(8).reduce((sum, s) => sum + s.seconds, 0);
  const slices = [...top, ...(rest > 0 ? [{ label: 'Other', seconds: rest, color: 'gray.5' }] : [])]
    .filter((s) => s.seconds > 0)
    .map((s, i, all) => ({
      name: s.label,
      value: hours(s.seconds),
      seconds: s.seconds,
      // Projects keep their colour unless an earlier slice has it already (many keep the default).
      color:
        s.color && !all.slice(0, i).some((o) => o.color === s.color)
          ? s.color
          : (PALETTE[i % PALETTE.length] ?? 'blue.6'),
    }));
  const fromHours = (value: number) => formatSeconds(Math.round(value * 3600));
  return (
    <SimpleGrid cols={{ base: 1, md: show.bars && show.donut ? 2 : 1 }} spacing="md">
      {show.bars && (
        <Paper withBorder radius="md" p="md" component="figure" m={0} aria-label={barsTitle}>
          <Text component="figcaption" fw={600} mb="sm">
            {barsTitle}
          </Text>
          <BarChart
            h={240}
            data={bars.map((b) => ({ period: b.label, tracked: hours(b.seconds) }))}
            dataKey="period"
            series={[{ name: 'tracked', label: 'Tracked', color: 'blue.6' }]}
            valueFormatter={fromHours}
            tickLine="y"
            gridAxis="y"
            yAxisProps={{ width: 56, tickFormatter: (v: number) => `${v} h` }}
          />
        </Paper>
      )}
      {show.donut && (
        <Paper withBorder radius="md" p="md" component="figure" m={0} aria-label={donutTitle}>
          <Text component="figcaption" fw={600} mb="sm">
            {donutTitle}
          </Text>
          <DonutChart
            data={slices}
            valueFormatter={fromHours}
            withLabels={false}
            withTooltip
            size={200}
            thickness={28}
            paddingAngle={slices.length > 1 ? 1 : 0}
            mx="auto"
          />
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing={4} mt="sm">
            {slices.map((s) => (
              <Text key={s.name} size="sm">
                <Swatch color={s.color} round={false} />
                {s.name}: {formatSeconds(s.seconds)}
              </Text>
            ))}
          </SimpleGrid>
        </Paper>
      )}
    </SimpleGrid>
  );
}
