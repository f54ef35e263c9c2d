import type { ReportDimension, ReportKey } from '@sundial/core';
import { type DateOrder, daysOf, keyLabel, periodLabel } from '../../../components/report-format';
import type { ChartPoint, DonutSlice } from '../../../components/SummaryCharts';
import { t } from '../texts';

/** The Summary's bars: tracked seconds per period key, every day of a short range shown (days without time too). */
export function barPoints(
  points: { key: string; seconds: number }[],
  interval: 'day' | 'week' | 'month',
  range: { from: string; to: string },
  dates: DateOrder,
): ChartPoint[] {
  const seconds = new Map(points.map((p) => [p.key, p.seconds]));
  const keys = (interval === 'day' ? daysOf(range.from, range.to) : null) ?? points.map((p) => p.key);
  return keys.map((key) => ({
    label: periodLabel(interval, key, dates, interval === 'day'),
    seconds: seconds.get(key) ?? 0,
  }));
}

/** The Summary's donut: tracked seconds by its first grouping's groups. */
export function donutSlices(
  first: ReportDimension | undefined,
  groups: { key: ReportKey; measures: { trackedSeconds?: number } }[],
  dates: DateOrder,
): DonutSlice[] {
  return groups.map((g) => ({
    label: first ? keyLabel(first, g.key, dates) : t.total,
    seconds: g.measures.trackedSeconds ?? 0,
    color: g.key.color,
  }));
}
