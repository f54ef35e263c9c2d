import {
  type ClockFormat,
  DATE_PRESET_LABELS,
  type estimatesReportQuery,
  formatCalendarDay,
  formatDayLabel,
  formatMonthLabel,
  formatWeekday,
  type MatrixReportQuery,
  measureKind,
  REPORT_DIMENSION_LABELS,
  REPORT_MEASURE_LABELS,
  type ReportDimension,
  type ReportGroup,
  type ReportKey,
  type ReportMeasure,
  type ReportMeasures,
  type ReportQuery,
  type SourceReportQuery,
  type SourceSummaryView,
  shiftDay,
} from '@sundial/core';
import type { z } from 'zod';
import type { Actor } from '../../platform/actor.js';
import type { ReportsService } from '../reports/reports.service.js';
import type { Cell, ColumnType, ExportColumn, ExportRow, ExportTable } from './exports.table.js';

const DIMENSIONS = REPORT_DIMENSION_LABELS;
const MEASURES = REPORT_MEASURE_LABELS;
const PRESETS = DATE_PRESET_LABELS;
const TAG_MODES = { any: 'any of', all: 'all of', none: 'none of' } as const;
const DAY_KEYED: ReadonlySet<ReportDimension> = new Set(['day', 'week']);

const keyLabel = (dimension: ReportDimension, key: ReportKey): string =>
  dimension === 'task' && key.parent ? `${key.parent} / ${key.label}` : key.label;

/** A dimension's key as a cell: a local day for day and week keys, the label otherwise. */
const keyCell = (dimension: ReportDimension, key: ReportKey): Cell =>
  DAY_KEYED.has(dimension) && key.key !== null ? key.key : keyLabel(dimension, key);

const dimensionColumn = (dimension: ReportDimension, level?: number): ExportColumn => ({
  header: DIMENSIONS[dimension],
  type: DAY_KEYED.has(dimension) ? 'date' : 'text',
  width: DAY_KEYED.has(dimension) ? 12 : dimension === 'description' ? 40 : 24,
  ...(level !== undefined ? { level } : {}),
});

/** A measure's columns: durations twice (h:mm:ss, and decimal hours outside the PDF), money with its currency. */
function measureColumns(m: ReportMeasure, currency: string): { column: ExportColumn; measure: ReportMeasure }[] {
  const kind = measureKind(m);
  if (kind === 'money')
    return [{ measure: m, column: { header: `${MEASURES[m]} (${currency})`, type: 'money', width: 14 } }];
  if (kind === 'count') return [{ measure: m, column: { header: MEASURES[m], type: 'count', width: 10 } }];
  return [
    { measure: m, column: { header: MEASURES[m], type: 'duration', width: 12 } },
    { measure: m, column: { header: `${MEASURES[m]} (hours)`, type: 'hours', width: 10, pdf: false } },
  ];
}

/** Every day from `from` to `to`, or null past two months (then only the days with time are columns). */
function daysOf(from: string, to: string, max = 62): string[] | null {
  const days: string[] = [];
  for (let day = from; day <= to; day = shiftDay(day, 1)) {
    days.push(day);
    if (days.length > max) return null;
  }
  return days;
}

/** The chart's bars: per day up to 45 days, per week up to 190, per month beyond (as on screen). */
function barInterval(from: string, to: string): 'day' | 'week' | 'month' {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days <= 45) return 'day';
  if (days <= 190) return 'week';
  return 'month';
}

/** A bar's label: "2" for a day (its weekday beneath), "Nov 3" / "3 Nov" for a week, "Nov 2026" for a month. */
function periodLabel(interval: 'day' | 'week' | 'month', key: string, f: Pick<ClockFormat, 'dateFormat'>): string {
  if (interval === 'day') return String(Number(key.slice(8, 10)));
  if (interval === 'week') return formatDayLabel(key.slice(0, 10), f, { weekday: false });
  return formatMonthLabel(key);
}

/** The filters `describe` puts in words: a time report's, or a source's (range, people, groups). */
type DescribedFilters = Pick<ReportQuery, 'preset'> & Partial<Omit<ReportQuery, 'groupBy' | 'preset'>>;

type SourceSummaryGroup = SourceSummaryView['groups'][number] & { children?: SourceSummaryGroup[] };

/**
 * A Summary's groups as rows, depth first: each with the keys of the groups above it and its own
 * (the levels below left empty), its figures, and a subtotal kind above its children.
 */
function groupRows<G extends { children?: G[] | undefined }>(
  groups: readonly G[],
  levels: number,
  keyOf: (g: G) => Cell,
  figures: (g: G) => Cell[],
): ExportRow[] {
  const rows: ExportRow[] = [];
  const walk = (list: readonly G[], path: Cell[], depth: number) => {
    for (const g of list) {
      const keys = [...path, keyOf(g)];
      const padded = [...keys, ...Array(Math.max(0, levels - keys.length)).fill(null)];
      rows.push({ cells: [...padded, ...figures(g)], kind: g.children?.length ? 'group' : 'row', depth });
      if (g.children?.length) walk(g.children, keys, depth + 1);
    }
  };
  walk(groups, [], 0);
  return rows;
}

async function* fromArray(rows: ExportRow[]): AsyncGenerator<ExportRow> {
  yield* rows;
}

/**
 * The reports an export reads whole (Summary, matrix, Estimates) as tables, each with its lines
 * of words, and the range and filters every export describes in words.
 */
export function createReportTables(
  reports: Pick<ReportsService, 'filterNames' | 'summary' | 'matrix' | 'estimates' | 'sources'>,
) {
  /** The range and filters in words, one line each (a source's report has the range, people and groups only). */
  async function describe(actor: Actor, q: DescribedFilters, range: { from: string; to: string; timeZone: string }) {
    const dateFormat = actor.user.date_format;
    const names = await reports.filterNames(actor, q);
    const lines = [
      `${PRESETS[q.preset]}: ${formatCalendarDay(range.from, dateFormat)} – ${formatCalendarDay(range.to, dateFormat)} (${range.timeZone})`,
    ];
    const named = (kind: string, ids: string[] | undefined) =>
      (ids ?? []).map((id) => names.get(`${kind}:${id}`) ?? 'Unknown').join(', ');
    if (q.users?.length) lines.push(`Users: ${named('users', q.users)}`);
    if (q.groups?.length) lines.push(`Groups: ${named('groups', q.groups)}`);
    if (q.clients?.length) lines.push(`Clients: ${named('clients', q.clients)}`);
    if (q.projects?.length || q.withoutProject)
      lines.push(
        `Projects: ${[named('projects', q.projects), q.withoutProject ? 'without project' : ''].filter(Boolean).join(', ')}`,
      );
    if (q.tasks?.length) lines.push(`Tasks: ${named('tasks', q.tasks)}`);
    if (q.tags?.length || q.withoutTag)
      lines.push(
        `Tags${q.tags?.length ? ` (${TAG_MODES[q.tagMode ?? 'any']})` : ''}: ${[named('tags', q.tags), q.withoutTag ? 'without tag' : ''].filter(Boolean).join(', ')}`,
      );
    if (q.billable !== undefined) lines.push(`Billable: ${q.billable ? 'yes' : 'no'}`);
    if (q.invoiced !== undefined) lines.push(`Invoiced: ${q.invoiced ? 'yes' : 'no'}`);
    if (q.description) lines.push(`Description contains “${q.description}”`);
    if (q.roundingMode && q.roundingMode !== 'none')
      lines.push(`Rounding: ${q.roundingMode} to ${q.roundingMinutes ?? 'the workspace’s'} minutes`);
    return lines;
  }

  /**
   * A Summary's chart, as on screen: tracked time per day (every day of the range, empty ones too)
   * up to 45 days, per week up to 190, per month beyond.
   */
  async function barsOf(
    actor: Actor,
    q: ReportQuery,
    range: { from: string; to: string },
  ): Promise<ExportTable['chart']> {
    const interval = barInterval(range.from, range.to);
    const view = await reports.summary(actor, { ...q, groupBy: [interval], measures: ['trackedSeconds'] });
    const seconds = new Map(view.groups.map((g) => [g.key.key ?? '', g.measures.trackedSeconds ?? 0]));
    const keys = (interval === 'day' ? daysOf(range.from, range.to) : null) ?? view.groups.map((g) => g.key.key ?? '');
    return {
      title: `Tracked time by ${interval}`,
      bars: keys.map((key) => ({
        label: periodLabel(interval, key, { dateFormat: actor.user.date_format }),
        ...(interval === 'day' ? { sub: formatWeekday(key) } : {}),
        seconds: seconds.get(key) ?? 0,
      })),
    };
  }

  async function summaryTable(actor: Actor, q: ReportQuery, currency: string, withChart: boolean) {
    const view = await reports.summary(actor, q);
    const dims = view.groupBy;
    const measures = view.measures;
    const byMeasure = measures.flatMap((m) => measureColumns(m, currency));
    const columns: ExportColumn[] = [
      ...(dims.length ? dims.map((d, i) => dimensionColumn(d, i)) : [{ header: '', type: 'text' as const, width: 12 }]),
      ...byMeasure.map((c) => c.column),
    ];
    const figures = (values: ReportMeasures): Cell[] => byMeasure.map((c) => values[c.measure] ?? null);
    const rows = groupRows(
      view.groups,
      dims.length,
      (g: ReportGroup) => keyCell(g.dimension, g.key),
      (g) => figures(g.measures),
    );
    const first: Cell[] = ['Total', ...Array(Math.max(0, dims.length - 1)).fill(null)];
    rows.push({ cells: [...first, ...figures(view.totals)], kind: 'total', depth: 0 });
    const chart = withChart ? await barsOf(actor, q, view.range) : undefined;
    const grouped = dims.length ? [`Grouped by ${dims.map((d) => DIMENSIONS[d].toLowerCase()).join(', then ')}`] : [];
    return { range: view.range, columns, rows: fromArray(rows), count: rows.length, extra: grouped, chart };
  }

  /**
   * A source's Summary (reports.sources.ts) as a table: its groups nested as the time Summary's,
   * each dimension a column, each sum as its kind reads (durations also in decimal hours).
   */
  async function sourceTable(actor: Actor, source: string, q: SourceReportQuery, currency: string) {
    const view = await reports.sources.summary(actor, source, q);
    const dims = view.dimensions;
    const byDay = (name: string) => name === 'day' || name === 'week';
    const sumColumns = view.sums.flatMap(({ name, label, kind }): { column: ExportColumn; sum: string }[] => {
      if (kind === 'money')
        return [{ sum: name, column: { header: `${label} (${currency})`, type: 'money', width: 14 } }];
      if (kind === 'count') return [{ sum: name, column: { header: label, type: 'count', width: 10 } }];
      return [
        { sum: name, column: { header: label, type: 'duration', width: 12 } },
        { sum: name, column: { header: `${label} (hours)`, type: 'hours', width: 10, pdf: false } },
      ];
    });
    const columns: ExportColumn[] = [
      ...(dims.length
        ? dims.map(
            (d, level): ExportColumn => ({
              header: d.label,
              type: byDay(d.name) ? 'date' : 'text',
              width: byDay(d.name) ? 12 : 24,
              level,
            }),
          )
        : [{ header: '', type: 'text' as const, width: 12 }]),
      ...sumColumns.map((c) => c.column),
    ];
    const figures = (sums: Record<string, number>): Cell[] => sumColumns.map((c) => sums[c.sum] ?? null);
    const rows = groupRows(
      view.groups,
      dims.length,
      (g: SourceSummaryGroup) => (byDay(g.dimension) ? g.key : (g.label ?? g.key)),
      (g) => figures(g.sums),
    );
    const first: Cell[] = ['Total', ...Array(Math.max(0, dims.length - 1)).fill(null)];
    rows.push({ cells: [...first, ...figures(view.totals)], kind: 'total', depth: 0 });
    const grouped = dims.length ? [`Grouped by ${dims.map((d) => d.label.toLowerCase()).join(', then ')}`] : [];
    return { range: view.range, columns, rows: fromArray(rows), count: rows.length, extra: grouped, title: view.title };
  }

  async function matrixTable(actor: Actor, q: MatrixReportQuery, currency: string) {
    const measure: ReportMeasure = q.measures?.[0] ?? 'trackedSeconds';
    const view = await reports.matrix(actor, { ...q, measures: [measure] });
    const kind = measureKind(measure);
    const type: ColumnType =
      kind !== 'duration' ? kind : actor.user.duration_format === 'decimal' ? 'hours' : 'duration';
    const columnHeader = (key: ReportKey) =>
      DAY_KEYED.has(q.columns) && key.key !== null
        ? formatCalendarDay(key.key, actor.user.date_format)
        : keyLabel(q.columns, key);
    // Day columns are every day of the range, as on screen (up to two months); other columns those with time.
    const days = q.columns === 'day' ? daysOf(view.range.from, view.range.to) : null;
    const keys: ReportKey[] = days ? days.map((d) => ({ key: d, label: d })) : view.columns.map((c) => c.key);
    const columnTotals = new Map(view.columns.map((c) => [c.key.key, c.totals]));
    const columns: ExportColumn[] = [
      dimensionColumn(q.rows),
      ...keys.map((key) => ({
        header: columnHeader(key),
        type,
        width: 11,
        ...(days && key.key
          ? { pdfHeader: formatDayLabel(key.key, { dateFormat: 'YYYY-MM-DD' }, { month: false }) }
          : {}),
      })),
      { header: 'Total', type, width: 12 },
    ];
    const rows: ExportRow[] = view.rows.map((r) => ({
      cells: [
        keyCell(q.rows, r.key),
        ...keys.map((key) => r.cells[key.key ?? '']?.[measure] ?? null),
        r.totals[measure] ?? null,
      ],
      kind: 'row',
      depth: 0,
    }));
    rows.push({
      cells: [
        'Total',
        ...keys.map((key) => columnTotals.get(key.key)?.[measure] ?? null),
        view.totals[measure] ?? null,
      ],
      kind: 'total',
      depth: 0,
    });
    const unit = kind === 'money' ? ` (${currency})` : type === 'hours' ? ' (hours)' : '';
    return {
      range: view.range,
      columns,
      rows: fromArray(rows),
      count: rows.length,
      extra: [
        `${DIMENSIONS[q.rows]} by ${DIMENSIONS[q.columns].toLowerCase()}: ${MEASURES[measure].toLowerCase()}${unit}`,
      ],
    };
  }

  /**
   * Estimates: one row per budget (project or task; a monthly budget's month), hours budgets in
   * the duration columns and fee budgets in the money columns, the use in percent and the status
   * in words; a budget whose amounts the actor may not see has them empty, as on screen. The
   * totals are the report's (`estimateTotals`: each budget once).
   */
  async function estimatesTable(actor: Actor, q: z.output<typeof estimatesReportQuery>, currency: string) {
    const view = await reports.estimates(actor, q);
    const columns: ExportColumn[] = [
      { header: 'Project', type: 'text', width: 22 },
      { header: 'Client', type: 'text', width: 16 },
      { header: 'Task', type: 'text', width: 18 },
      { header: 'Type', type: 'text', width: 6 },
      { header: 'Month', type: 'text', width: 8 },
      { header: 'Hours budget', type: 'duration', width: 12 },
      { header: 'Hours used', type: 'duration', width: 12 },
      { header: 'Hours left', type: 'duration', width: 12 },
      { header: `Fee budget (${currency})`, type: 'money', width: 14 },
      { header: `Fee used (${currency})`, type: 'money', width: 14 },
      { header: `Fee left (${currency})`, type: 'money', width: 14 },
      { header: 'Used (%)', type: 'text', width: 8 },
      { header: 'Status', type: 'text', width: 8 },
    ];
    const STATUS = { ok: 'On track', near: 'Near', over: 'Over', hidden: 'Hidden' } as const;
    const rows: ExportRow[] = view.items.map((e) => {
      const figures = [e.budget, e.used, e.remaining];
      const none = [null, null, null];
      return {
        cells: [
          e.projectName,
          e.clientName,
          e.taskName,
          e.type === 'hours' ? 'Hours' : 'Fee',
          e.month,
          ...(e.type === 'hours' ? figures : none),
          ...(e.type === 'fee' ? figures : none),
          e.percent === null ? null : `${e.percent.toFixed(1)}%`,
          STATUS[e.status],
        ],
        kind: 'row',
        depth: 0,
      };
    });
    // The report's own totals (each budget once: a task's inside its project's is not added again);
    // a kind without budgets has none (empty, not zero).
    const totalOf = (type: 'hours' | 'fee'): Cell[] => {
      const total = view.totals[type];
      return total ? [total.budget, total.used, total.remaining] : [null, null, null];
    };
    rows.push({
      cells: ['Total', null, null, null, null, ...totalOf('hours'), ...totalOf('fee'), null, null],
      kind: 'total',
      depth: 0,
    });
    return {
      range: view.range,
      columns,
      rows: fromArray(rows),
      count: rows.length,
      extra: view.moneyHidden ? ['Some fee budgets are left out: you may not see every billable amount.'] : [],
    };
  }

  return { describe, summaryTable, sourceTable, matrixTable, estimatesTable };
}
