import { Center, Loader, MultiSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import {
  REPORT_MEASURES,
  type ReportDimension,
  type ReportMeasure,
  resolvePreset,
  SUMMARY_FOLD_ABOVE,
  SUMMARY_LIMIT_GROUPS,
} from '@sundial/core';
import { lazy, Suspense, useMemo } from 'react';
import { useWorkspace } from '../../../api/session';
import { type DateOrder, useReportFormat } from '../../../components/report-format';
import { summarySubgroups, useSummary } from '../api';
import { barPoints, donutSlices } from '../components/chartPoints';
import { GroupByPicker } from '../components/GroupByPicker';
import { MoneyHiddenNotice, ReportBody, ReportFrame, useReportUrl, useViewerDays } from '../components/ReportFrame';
import { SummaryTable } from '../components/SummaryTable';
import { t } from '../texts';
import { barInterval, CHART_TYPES, type ChartType, readChart, readGroupBy, readMeasures } from '../url';

const SummaryCharts = lazy(() => import('../../../components/SummaryCharts'));

const SUMMARY_MEASURES: ReportMeasure[] = ['trackedSeconds', 'billableSeconds', 'billableAmount'];
const DEFAULT_GROUP_BY: ReportDimension[] = ['project', 'user'];

/** The bars: tracked time per day (every day of the range, empty ones too), week or month. */
function useBars(
  workspaceId: string,
  filters: object,
  interval: 'day' | 'week' | 'month',
  range: { from: string; to: string },
  enabled: boolean,
  dates: DateOrder,
) {
  const bars = useSummary(workspaceId, { ...filters, groupBy: [interval] }, ['trackedSeconds'], enabled);
  return useMemo(
    () =>
      barPoints(
        (bars.data?.groups ?? []).map((g) => ({ key: g.key.key ?? '', seconds: g.measures.trackedSeconds ?? 0 })),
        interval,
        range,
        dates,
      ),
    [bars.data, interval, range, dates],
  );
}

/**
 * Summary (and Custom, which lets the viewer pick the figures and the chart): tracked time grouped
 * by up to three dimensions with subtotals and totals, bars over time and a donut by the first
 * grouping.
 */
export function SummaryReport({ custom = false }: { custom?: boolean }) {
  const { workspaceId, me } = useWorkspace();
  const url = useReportUrl();
  const { params, filters, update } = url;
  const { today, weekStart } = useViewerDays();
  const format = useReportFormat();
  const groupBy = readGroupBy(params, DEFAULT_GROUP_BY);
  const measures = custom ? readMeasures(params, SUMMARY_MEASURES) : SUMMARY_MEASURES;
  const chart: ChartType = custom ? readChart(params, 'bar') : 'bar';
  const range = useMemo(() => resolvePreset(filters.preset, today, weekStart, filters), [filters, today, weekStart]);
  const interval = barInterval(range.from, range.to);

  // The donut and the empty state read tracked time, asked for even when Custom does not show it.
  const asked = measures.includes('trackedSeconds') ? measures : [...measures, 'trackedSeconds' as const];
  // A large Summary comes folded (its first level, each group's subgroups asked for when opened)
  // and at most SUMMARY_LIMIT_GROUPS groups under each parent, the smaller ones summed in a "more" row.
  const shaped = { ...filters, groupBy, fold: SUMMARY_FOLD_ABOVE, limit: SUMMARY_LIMIT_GROUPS };
  const summary = useSummary(workspaceId, shaped, asked);
  const showBars = custom ? chart === 'bar' : true;
  const showDonut = custom ? chart === 'donut' : true;
  const bars = useBars(workspaceId, filters, interval, range, showBars, me.user);
  const data = summary.data;
  const shown = data ? measures.filter((m) => data.measures.includes(m)) : measures;
  const first = groupBy[0];

  const controls = (
    <>
      <GroupByPicker value={groupBy} onChange={(next) => update({ groupBy: next })} />
      {custom && (
        <>
          <MultiSelect
            label={t.measuresLabel}
            data={REPORT_MEASURES.map((m) => ({ value: m, label: t.measures[m] }))}
            value={measures}
            onChange={(next) => update({ measures: next })}
            w={280}
          />
          <Stack gap={2}>
            <Text size="sm" fw={500} id="chart-type-label">
              {t.chart}
            </Text>
            <SegmentedControl
              aria-labelledby="chart-type-label"
              data={CHART_TYPES.map((c) => ({ value: c, label: t.charts[c] }))}
              value={chart}
              onChange={(next) => update({ chart: next === 'bar' ? undefined : next })}
            />
          </Stack>
        </>
      )}
    </>
  );

  return (
    <ReportFrame
      url={url}
      range={data?.range ?? range}
      controls={controls}
      exportAs={{
        kind: 'summary',
        query: { ...filters, groupBy, measures: shown },
        title: custom ? 'Custom report' : 'Summary',
      }}
      notice={
        <>
          {custom && (
            <Text size="sm" c="dimmed">
              {t.customHint}
            </Text>
          )}
          <MoneyHiddenNotice hidden={data?.moneyHidden} />
        </>
      }
    >
      <ReportBody
        query={summary}
        isEmpty={!!data && data.groups.length === 0 && (data.totals.trackedSeconds ?? 0) === 0}
      >
        {data && (
          <Stack gap="md">
            {(showBars || showDonut) && (
              <Suspense
                fallback={
                  <Center h={280}>
                    <Loader size="sm" aria-label={t.chartLoading} />
                  </Center>
                }
              >
                <SummaryCharts
                  bars={bars}
                  barsTitle={t.barsBy(t.dimensions[interval].toLowerCase())}
                  donut={donutSlices(first, data.groups, me.user)}
                  donutTitle={t.donutBy(first ? t.dimensions[first] : t.total)}
                  show={{ bars: showBars, donut: showDonut && !!first }}
                  formatSeconds={format.duration}
                />
              </Suspense>
            )}
            <SummaryTable
              groupBy={data.groupBy}
              groups={data.groups}
              rest={data.rest}
              subgroups={
                data.folded
                  ? { groupCount: data.groupCount ?? 0, ...summarySubgroups(workspaceId, shaped, data.measures) }
                  : undefined
              }
              totals={data.totals}
              measures={shown}
              format={format.measure}
              dates={me.user}
            />
          </Stack>
        )}
      </ReportBody>
    </ReportFrame>
  );
}

export function SummaryPage() {
  return <SummaryReport />;
}

export function CustomPage() {
  return <SummaryReport custom />;
}
