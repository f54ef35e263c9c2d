import { Alert, Center, Loader, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  type ReportDimension,
  type ReportGroup,
  type ReportMeasure,
  type ReportMeasures,
  resolvePreset,
} from '@sundial/core';
import { IconLock } from '@tabler/icons-react';
import { lazy, Suspense, useMemo } from 'react';
import { useWorkspace } from '../../../api/session';
import { type DateOrder, keyLabel, useReportFormat } from '../../../components/report-format';
import { UpgradePrompt } from '../../../components/UpgradePrompt';
import { useSummary } from '../api';
import { ReportBody, ReportFrame, useReportUrl, useViewerDays } from '../components/ReportFrame';
import { type ExtraColumn, SummaryTable } from '../components/SummaryTable';
import { t } from '../texts';
import { readGroupBy } from '../url';

const MeasureBars = lazy(() => import('../components/MeasureBars'));

/** The groupings every budgeting report offers: by project, client, person and period. */
const GROUPINGS: ReportDimension[] = ['project', 'client', 'user', 'day', 'week', 'month'];
const PERIODS: ReadonlySet<ReportDimension> = new Set(['day', 'week', 'month']);
/** Bars shown per chart when the groups are not periods: the largest ones. */
const MAX_BARS = 12;

interface ChartSpec {
  title: (by: string) => string;
  series: ReportMeasure[];
  stacked?: boolean;
  colors?: string[];
}

interface BudgetSpec {
  label: string;
  measures: ReportMeasure[];
  /** The amounts the report is about: without them it explains why instead of showing a table. */
  money?: 'billable' | 'cost';
  charts: ChartSpec[];
  extra?: (format: ReturnType<typeof useReportFormat>) => ExtraColumn[];
  /** Tables of their own for parts of the measures (time, amounts); one table of all when absent. */
  tables?: { label: string; measures: ReportMeasure[] }[];
}

function MoneyExplanation({ kind }: { kind: 'billable' | 'cost' }) {
  return (
    <Alert
      color="gray"
      variant="light"
      icon={<IconLock size={18} aria-hidden="true" />}
      title={t.budgeting.moneyTitle[kind]}
      data-testid="money-explanation"
    >
      {t.budgeting.moneyWhy[kind]}
    </Alert>
  );
}

/** Bars of the groups: every period in order, or the largest groups by the chart's first series. */
function barsOf(groups: ReportGroup[], dimension: ReportDimension, series: ReportMeasure[], dates: DateOrder) {
  const first = series[0] ?? 'trackedSeconds';
  const size = (g: ReportGroup) => series.reduce((sum, m) => sum + Math.abs(g.measures[m] ?? 0), 0);
  const chosen = PERIODS.has(dimension)
    ? groups
    : [...groups]
        .filter((g) => size(g) > 0)
        .sort((a, b) => (b.measures[first] ?? 0) - (a.measures[first] ?? 0))
        .slice(0, MAX_BARS);
  return chosen.map((g) => ({ label: keyLabel(dimension, g.key, dates), measures: g.measures }));
}

/**
 * A budgeting report (Billable / unbillable / invoiced, Revenues, Costs, Margin): the Summary's
 * engine grouped by one of project, client, person or period, a totals row and charts. Whether the
 * amounts show is the API's answer; without them a money report explains why.
 */
function BudgetReport({ spec }: { spec: BudgetSpec }) {
  const { workspaceId, hasFeature, me } = useWorkspace();
  // Amounts need billing rates (Pro): a money report shows the upgrade prompt in its place.
  const moneyLocked = !hasFeature('billing_rates');
  const url = useReportUrl();
  const { params, filters, update } = url;
  const format = useReportFormat();
  const { today, weekStart } = useViewerDays();
  const range = useMemo(() => resolvePreset(filters.preset, today, weekStart, filters), [filters, today, weekStart]);
  const [dimension] = readGroupBy(params, ['project']).filter((d) => GROUPINGS.includes(d));
  const by: ReportDimension = dimension ?? 'project';
  const summary = useSummary(workspaceId, { ...filters, groupBy: [by] }, spec.measures, !(moneyLocked && spec.money));
  const data = summary.data;
  const hidden = !!data?.moneyHidden;
  const shown = data ? spec.measures.filter((m) => data.measures.includes(m)) : spec.measures;
  const byWord = (t.budgeting.dimensions[by] ?? by).toLowerCase();
  const charts = spec.charts.filter((c) => c.series.every((m) => shown.includes(m)));
  const extra = useMemo(() => (hidden ? [] : (spec.extra?.(format) ?? [])), [hidden, spec, format]);

  const groupings = GROUPINGS.map((d) => ({ value: d, label: t.budgeting.dimensions[d] ?? d }));
  const setGrouping = (next: string | null) => update({ groupBy: !next || next === 'project' ? undefined : [next] });
  // Six segments do not fit a phone: there the switch is a select.
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const controls = wide ? (
    <Stack gap={2}>
      <Text size="sm" fw={500} id="budget-group-label">
        {t.budgeting.groupBy}
      </Text>
      <SegmentedControl aria-labelledby="budget-group-label" data={groupings} value={by} onChange={setGrouping} />
    </Stack>
  ) : (
    <Select
      label={t.budgeting.groupBy}
      data={groupings}
      value={by}
      onChange={setGrouping}
      allowDeselect={false}
      w={160}
    />
  );

  const moneyMissing = hidden && spec.money;
  return (
    <ReportFrame
      url={url}
      range={data?.range ?? range}
      controls={controls}
      // The file is the table on screen: its grouping and the measures it shows, with their totals.
      exportAs={
        moneyMissing || (moneyLocked && spec.money)
          ? undefined
          : { kind: 'summary', query: { ...filters, groupBy: [by], measures: shown }, title: spec.label }
      }
      notice={
        hidden &&
        !spec.money &&
        (moneyLocked ? (
          <UpgradePrompt feature="billing_rates" compact />
        ) : (
          <Alert color="gray" variant="light" data-testid="money-hidden">
            {t.budgeting.billableMoneyHidden}
          </Alert>
        ))
      }
    >
      {moneyLocked && spec.money ? (
        <UpgradePrompt feature="billing_rates" />
      ) : moneyMissing ? (
        <MoneyExplanation kind={spec.money ?? 'billable'} />
      ) : (
        <ReportBody query={summary} isEmpty={!!data && data.groups.length === 0}>
          {data && (
            <Stack gap="md">
              {charts.length > 0 && (
                <Suspense
                  fallback={
                    <Center h={300}>
                      <Loader size="sm" aria-label={t.chartLoading} />
                    </Center>
                  }
                >
                  <SimpleGrid cols={{ base: 1, md: charts.length > 1 ? 2 : 1 }} spacing="md">
                    {charts.map((chart) => (
                      <MeasureBars
                        key={chart.title('')}
                        title={chart.title(byWord)}
                        bars={barsOf(data.groups, by, chart.series, me.user)}
                        series={chart.series}
                        stacked={chart.stacked}
                        colors={chart.colors}
                        format={format.measure}
                      />
                    ))}
                  </SimpleGrid>
                </Suspense>
              )}
              {(spec.tables ?? [{ label: spec.label, measures: spec.measures }]).map((table) => {
                const measures = table.measures.filter((m) => shown.includes(m));
                return (
                  measures.length > 0 && (
                    <SummaryTable
                      dates={me.user}
                      key={table.label}
                      label={table.label}
                      groupBy={data.groupBy}
                      groups={data.groups}
                      totals={data.totals}
                      measures={measures}
                      extra={extra}
                      format={format.measure}
                    />
                  )
                );
              })}
            </Stack>
          )}
        </ReportBody>
      )}
    </ReportFrame>
  );
}

const percent = new Intl.NumberFormat(typeof navigator === 'undefined' ? 'en-US' : navigator.language || 'en-US', {
  style: 'percent',
  maximumFractionDigits: 1,
});

/** Margin as a share of revenue; none without revenue. */
export function marginPercent(m: ReportMeasures): string {
  const revenue = m.billableAmount ?? 0;
  if (revenue === 0) return '—';
  return percent.format((m.margin ?? 0) / revenue);
}

const BILLABLE_TIME: ReportMeasure[] = [
  'trackedSeconds',
  'billableSeconds',
  'unbillableSeconds',
  'invoicedSeconds',
  'uninvoicedSeconds',
];
const BILLABLE_AMOUNTS: ReportMeasure[] = ['billableAmount', 'invoicedAmount', 'uninvoicedAmount'];
const BILLABLE: BudgetSpec = {
  label: 'Billable, unbillable, invoiced',
  tables: [
    { label: t.budgeting.timeTable, measures: BILLABLE_TIME },
    { label: t.budgeting.amountTable, measures: BILLABLE_AMOUNTS },
  ],
  measures: [...BILLABLE_TIME, ...BILLABLE_AMOUNTS],
  charts: [
    {
      title: t.budgeting.billableChart,
      series: ['billableSeconds', 'unbillableSeconds'],
      stacked: true,
      colors: ['blue.6', 'gray.4'],
    },
    {
      title: t.budgeting.invoicedChart,
      series: ['invoicedAmount', 'uninvoicedAmount'],
      stacked: true,
      colors: ['teal.6', 'orange.5'],
    },
  ],
};
const REVENUES: BudgetSpec = {
  label: 'Revenues',
  measures: ['billableSeconds', 'billableAmount'],
  money: 'billable',
  charts: [{ title: t.budgeting.revenueChart, series: ['billableAmount'], colors: ['teal.6'] }],
};
const COSTS: BudgetSpec = {
  label: 'Costs',
  measures: ['trackedSeconds', 'costAmount'],
  money: 'cost',
  charts: [{ title: t.budgeting.costChart, series: ['costAmount'], colors: ['orange.6'] }],
};
const MARGIN: BudgetSpec = {
  label: 'Margin',
  measures: ['billableAmount', 'costAmount', 'margin'],
  money: 'cost',
  charts: [
    {
      title: t.budgeting.marginChart,
      series: ['billableAmount', 'costAmount', 'margin'],
      colors: ['teal.6', 'orange.6', 'blue.6'],
    },
  ],
  extra: () => [{ label: t.budgeting.marginPercent, value: marginPercent }],
};

export const BillablePage = () => <BudgetReport spec={BILLABLE} />;
export const RevenuesPage = () => <BudgetReport spec={REVENUES} />;
export const CostsPage = () => <BudgetReport spec={COSTS} />;
export const MarginPage = () => <BudgetReport spec={MARGIN} />;
