import type { Readable } from 'node:stream';
import {
  type ClockFormat,
  DATE_PRESET_LABELS,
  type DetailedEntryView,
  detailedReportQuery,
  type ExportFormat,
  type ExportKind,
  estimatesReportQuery,
  exportQuery,
  formatCalendarDay,
  formatDayLabel,
  formatMonthLabel,
  formatWeekday,
  type MatrixReportQuery,
  matrixReportQuery,
  measureKind,
  REPORT_DIMENSION_LABELS,
  REPORT_MEASURE_LABELS,
  type ReportDimension,
  type ReportGroup,
  type ReportKey,
  type ReportMeasure,
  type ReportMeasures,
  type ReportQuery,
  reportQuery,
  shiftDay,
} from '@sundial/core';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { HeavyWork } from '../../db/heavy-work.js';
import type { MoneyAccess } from '../../platform/access.js';
import { assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { createConcurrencyLimits } from '../../platform/concurrency.js';
import { AppError } from '../../platform/errors.js';
import { spool } from '../../platform/spool.js';
import type { RatesService } from '../rates/rates.service.js';
import type { DetailedCellColumn, ReportsService } from '../reports/reports.service.js';
import { sqlCellText } from './exports.copy.js';
import { csvHeader, csvRecord, writeCopiedCsv, writeCsv } from './exports.csv.js';
import { localTime } from './exports.format.js';
import { writePdf } from './exports.pdf.js';
import type { Cell, ColumnType, ExportColumn, ExportRow, ExportTable } from './exports.table.js';
import { writeXlsx } from './exports.xlsx.js';

/** A PDF stops after this many rows, with a note: a printed report past a few hundred pages helps no one. */
export const PDF_MAX_ROWS = 10_000;

export interface ExportFile {
  fileName: string;
  contentType: string;
  /** The file, already written whole to a temporary file: reading it holds nothing of the database. */
  stream: Readable;
  sizeBytes: number;
  /**
   * The rows the file holds (totals rows included): counted before streaming, or, for a CSV the
   * database writes, beside it (settling while it streams; a reader gone early may never see it).
   */
  rows: Promise<number>;
}

export interface ExportOptions {
  /** Refuse (409 export_too_large) a report with more rows than this, before the first byte. */
  maxRows?: number;
  /**
   * A download a client waits for: counted against the caps on exports under way (per user,
   * workspace and process; 429 too_many_exports past them) from now until its stream closes.
   */
  download?: boolean;
  /** Called after each row is written to the stream (progress). */
  onRow?: () => void;
  /**
   * Leave costs and margins out whatever the actor may see (a public CSV link that does not
   * include them): cost and margin measures are dropped, and Detailed's cost column.
   */
  withoutCosts?: boolean;
}

export const exportTooLarge = (maxRows: number) =>
  new AppError(
    'export_too_large',
    `This report has more than ${maxRows.toLocaleString('en-US')} rows, too many to download at once. ` +
      'Start it as a background export instead: you get a progress bar, a download link and an e-mail when the file is ready.',
    { status: 409 },
  );

async function* counted(rows: AsyncIterable<ExportRow>, onRow: () => void): AsyncGenerator<ExportRow> {
  for await (const row of rows) {
    yield row;
    onRow();
  }
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

const DIMENSIONS = REPORT_DIMENSION_LABELS;
const MEASURES = REPORT_MEASURE_LABELS;
const PRESETS = DATE_PRESET_LABELS;
const TAG_MODES = { any: 'any of', all: 'all of', none: 'none of' } as const;
const DAY_KEYED: ReadonlySet<ReportDimension> = new Set(['day', 'week']);
const COST_MEASURES: ReadonlySet<string> = new Set<ReportMeasure>(['costAmount', 'margin']);

function parse<S extends z.ZodType>(schema: S, query: Record<string, string | string[]>): z.output<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join('.') || 'query'] ??= issue.message;
  throw new AppError('validation_failed', Object.values(fields)[0] ?? 'The export is not valid.', {
    status: 422,
    fields,
  });
}

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

const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'report';

/** A query string as the schemas read it: a repeated key as a list. */
/** The query string as the report schemas read it; `withoutCosts` drops cost and margin measures. */
function queryOf(params: URLSearchParams, withoutCosts = false): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (withoutCosts && key === 'measures') {
      const kept = params
        .getAll(key)
        .flatMap((v) => v.split(','))
        .filter((m) => m && !COST_MEASURES.has(m));
      if (kept.length) query[key] = kept.join(',');
      continue;
    }
    const values = params.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return query;
}

async function* fromArray(rows: ExportRow[]): AsyncGenerator<ExportRow> {
  yield* rows;
}

/** The Detailed export's columns: each entry's fields, and the amount columns where the actor sees some amounts. */
function detailedColumns(currency: string, access: MoneyAccess, withoutCosts: boolean) {
  const showBillable = access.billableOf === null || access.billableOf.size > 0;
  const showCost = !withoutCosts && (access.costOf === null || access.costOf.size > 0);
  const columns: ExportColumn[] = [
    { header: 'Date', type: 'date', width: 11 },
    { header: 'Start', type: 'datetime', width: 17 },
    { header: 'End', type: 'datetime', width: 17 },
    { header: 'User', type: 'text', width: 18 },
    { header: 'Client', type: 'text', width: 14 },
    { header: 'Project', type: 'text', width: 18 },
    { header: 'Task', type: 'text', width: 16 },
    { header: 'Description', type: 'text', width: 34 },
    { header: 'Tags', type: 'text', width: 14 },
    { header: 'Billable', type: 'text', width: 8 },
    { header: 'Invoiced', type: 'text', width: 8, pdf: false },
    { header: 'Duration', type: 'duration', width: 11 },
    { header: 'Duration (hours)', type: 'hours', width: 10, pdf: false },
    ...(showBillable ? [{ header: `Billable amount (${currency})`, type: 'money' as const, width: 14 }] : []),
    ...(showCost ? [{ header: `Cost (${currency})`, type: 'money' as const, width: 12 }] : []),
  ];
  return { columns, showBillable, showCost };
}

/**
 * The same columns' values as SQL over the engine's Detailed listing (`d.<DetailedCellColumn>`),
 * in the same order: times as local timestamps in the report's zone.
 */
function detailedSqlValues(timeZone: string, shown: { showBillable: boolean; showCost: boolean }) {
  const d = (column: DetailedCellColumn) => sql.ref(`d.${column}`);
  const local = (column: 'start_at' | 'end_at') => sql`(${d(column)} at time zone ${timeZone})`;
  const yesNo = (column: 'billable' | 'invoiced') => sql`case when ${d(column)} then 'Yes' else 'No' end`;
  return [
    local('start_at'),
    local('start_at'),
    local('end_at'),
    d('user_name'),
    d('client_name'),
    d('project_name'),
    d('task_name'),
    d('note'),
    d('tags'),
    yesNo('billable'),
    yesNo('invoiced'),
    d('seconds'),
    d('seconds'),
    ...(shown.showBillable ? [d('billable_amount')] : []),
    ...(shown.showCost ? [d('cost_amount')] : []),
  ];
}

/** The Detailed totals row: the seconds twice (h:mm:ss, hours), then the amounts shown. */
const detailedTotalCells = (
  totals: { seconds: number; billableAmount: number | null; costAmount: number | null },
  shown: { showBillable: boolean; showCost: boolean },
): Cell[] => [
  'Total',
  ...Array(10).fill(null),
  totals.seconds,
  totals.seconds,
  ...(shown.showBillable ? [totals.billableAmount] : []),
  ...(shown.showCost ? [totals.costAmount] : []),
];

/**
 * Exports: a report of the engine (Summary, Detailed, matrix) as a CSV, XLSX or PDF stream.
 * An export is (kind, the report's query string, format, options); the report is read with the
 * actor's own permissions, exactly as on screen: the same people, the Summary and matrix refuse
 * money they may not see (403 money_forbidden), and Detailed rows show amounts only where the
 * actor may see them, with the amount columns left out for an actor who sees none. Refusals and
 * bad filters throw before the first byte; the Detailed report streams from one statement's cursor.
 */
export function createExportsService(deps: {
  reports: ReportsService;
  rates: Pick<RatesService, 'settings'>;
  /** Entries read per chunk of the engine's cursor while a Detailed export streams. */
  pageRows: number;
  /** The workspace's logo, for the PDF's header (the workspaces module); null when it has none. */
  logoOf?: (workspaceId: string) => Promise<Buffer | null>;
  /** Reports with more rows than this are refused by `download` (409 export_too_large): they export as jobs. */
  jobMinRows: number;
  /** Detailed CSVs written by the database where it can (PostgreSQL's COPY); false: always in Node. */
  databaseCsv?: boolean;
  /** A large start-sorted database CSV is copied in this many parts at once (reports' `detailedCsv`). */
  copyParts?: number;
  /** ...when it lists at least this many entries (0: always). */
  copySplitRows?: number;
  /** The database's share for heavy work: each export reads the database holding one slot. */
  heavy?: HeavyWork;
  /** Downloads under way at once, at most (`download` exports): per user, per workspace, per process. */
  downloads?: { perUser: number; perWorkspace: number; perProcess: number };
}) {
  const { reports } = deps;
  const underWay = createConcurrencyLimits('too_many_exports', 10);
  const downloadRules = (actor: Actor, caps: NonNullable<typeof deps.downloads>) => [
    {
      key: `user:${actor.user.id}`,
      limit: caps.perUser,
      message: `You already have ${caps.perUser} downloads under way. Wait for one to finish, then try again.`,
    },
    {
      key: `workspace:${actor.membership.workspace.id}`,
      limit: caps.perWorkspace,
      message: `This workspace already has ${caps.perWorkspace} downloads under way. Wait a moment, then try again.`,
    },
    {
      key: 'process',
      limit: caps.perProcess,
      message: 'The server is busy with other downloads. Wait a moment, then try again.',
    },
  ];

  /** The range and filters in words, one line each. */
  async function describe(
    actor: Actor,
    q: Omit<ReportQuery, 'groupBy'>,
    range: { from: string; to: string; timeZone: string },
  ) {
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
        `Tags${q.tags?.length ? ` (${TAG_MODES[q.tagMode]})` : ''}: ${[named('tags', q.tags), q.withoutTag ? 'without tag' : ''].filter(Boolean).join(', ')}`,
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
    const rows: ExportRow[] = [];
    const walk = (groups: readonly ReportGroup[], path: Cell[], depth: number) => {
      for (const g of groups) {
        const keys = [...path, keyCell(g.dimension, g.key)];
        const padded = [...keys, ...Array(Math.max(0, dims.length - keys.length)).fill(null)];
        rows.push({ cells: [...padded, ...figures(g.measures)], kind: g.children?.length ? 'group' : 'row', depth });
        if (g.children?.length) walk(g.children, keys, depth + 1);
      }
    };
    walk(view.groups, [], 0);
    const first: Cell[] = ['Total', ...Array(Math.max(0, dims.length - 1)).fill(null)];
    rows.push({ cells: [...first, ...figures(view.totals)], kind: 'total', depth: 0 });
    const chart = withChart ? await barsOf(actor, q, view.range) : undefined;
    const grouped = dims.length ? [`Grouped by ${dims.map((d) => DIMENSIONS[d].toLowerCase()).join(', then ')}`] : [];
    return { range: view.range, columns, rows: fromArray(rows), count: rows.length, extra: grouped, chart };
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

  async function detailedTable(
    actor: Actor,
    query: Record<string, string | string[]>,
    currency: string,
    withoutCosts: boolean,
    maxRows: number | undefined,
  ) {
    const q = parse(detailedReportQuery, query);
    // Counted before any page is read: a report too large to download at once is refused cheaply.
    const entries = await reports.detailedCount(actor, q, maxRows === undefined ? undefined : maxRows + 1);
    if (maxRows !== undefined && entries > maxRows) throw exportTooLarge(maxRows);
    const { range, access, chunks: pages } = await reports.detailedStream(actor, q, deps.pageRows);
    const { columns, showBillable, showCost } = detailedColumns(currency, access, withoutCosts);
    const zone = range.timeZone;
    const rowOf = (e: DetailedEntryView): ExportRow => {
      const start = localTime(e.start, zone);
      return {
        cells: [
          start.slice(0, 10),
          start,
          e.end === null ? null : localTime(e.end, zone),
          e.userName,
          e.clientName,
          e.projectName,
          e.taskName,
          e.note,
          e.tagNames.join(', '),
          e.billable ? 'Yes' : 'No',
          e.invoiced ? 'Yes' : 'No',
          e.seconds,
          e.seconds,
          ...(showBillable ? [e.billableAmount ?? null] : []),
          ...(showCost ? [e.costAmount ?? null] : []),
        ],
        kind: 'row',
        depth: 0,
      };
    };
    async function* rows(): AsyncGenerator<ExportRow> {
      let seconds = 0;
      let billable: number | null = 0;
      let cost: number | null = 0;
      for await (const page of pages)
        for (const e of page) {
          seconds += e.seconds;
          billable = billable === null || e.billableAmount == null ? null : billable + e.billableAmount;
          cost = cost === null || e.costAmount == null ? null : cost + e.costAmount;
          yield rowOf(e);
        }
      // An amount some rows hide has no true total: its cell stays empty.
      yield {
        cells: detailedTotalCells({ seconds, billableAmount: billable, costAmount: cost }, { showBillable, showCost }),
        kind: 'total',
        depth: 0,
      };
    }
    const order =
      q.order === 'desc'
        ? q.sort === 'start'
          ? 'newest first'
          : 'descending'
        : q.sort === 'start'
          ? 'oldest first'
          : 'ascending';
    return {
      range,
      columns,
      rows: rows(),
      count: entries + 1,
      extra: [`Sorted by ${q.sort}, ${order}`],
      filters: q,
    };
  }

  /**
   * The Detailed report as CSV written by the database (reports' `detailedCsv`, PostgreSQL): the
   * same bytes as `writeCsv` of `detailedTable` (exports.copy.int.test.ts), at the database's
   * speed. Null on PGlite.
   */
  async function copiedDetailedCsv(
    actor: Actor,
    query: Record<string, string | string[]>,
    currency: string,
    o: { withoutCosts: boolean; maxRows: number | undefined; bom: boolean; onRow: (() => void) | undefined },
  ) {
    const q = parse(detailedReportQuery, query);
    if (o.maxRows !== undefined && (await reports.detailedCount(actor, q, o.maxRows + 1)) > o.maxRows)
      throw exportTooLarge(o.maxRows);
    const formats = { dateFormat: actor.user.date_format, timeFormat: actor.user.time_format };
    let columns: ExportColumn[] = [];
    let shown = { showBillable: false, showCost: false };
    const copied = await reports.detailedCsv(
      actor,
      q,
      ({ access, timeZone }) => {
        ({ columns, ...shown } = detailedColumns(currency, access, o.withoutCosts));
        const values = detailedSqlValues(timeZone, shown);
        return columns.map((c, i) => sqlCellText(c.type, values[i] ?? sql`null`, formats));
      },
      { parts: deps.copyParts ?? 1, splitRows: deps.copySplitRows ?? 0 },
    );
    if (!copied) return null;
    const stream = writeCopiedCsv({
      bom: o.bom,
      header: csvHeader(columns),
      rows: copied.csv,
      footer: copied.totals.then((totals) => csvRecord(columns, formats)(detailedTotalCells(totals, shown))),
      ...(o.onRow ? { onRow: o.onRow } : {}),
    });
    return { range: copied.range, stream, rows: copied.totals.then((totals) => totals.entries + 1) };
  }

  return {
    /** Reports with more rows than this export as jobs. */
    jobMinRows: deps.jobMinRows,

    /** Checks an export's query string (kind, format, the report's own parameters) without reading anything; 422 when wrong. */
    validate(params: URLSearchParams): void {
      const query = queryOf(params);
      const { kind } = parse(exportQuery, query);
      parse(
        kind === 'summary'
          ? reportQuery
          : kind === 'matrix'
            ? matrixReportQuery
            : kind === 'estimates'
              ? estimatesReportQuery
              : detailedReportQuery,
        query,
      );
    },

    /**
     * The report a query string names, as a file. Throws 403 plan_limit_reached without exports
     * on the plan (Basic), 422 for a bad query, 403 money_forbidden as the report does, 429
     * too_many_exports for a `download` past its caps; a failure while the file is made throws too.
     * `withoutCosts` leaves costs and margins out whatever the actor may see (a public CSV link
     * that does not include them): cost and margin measures are dropped, and Detailed's cost column.
     * The file is made holding a slot of the database's heavy work and written whole to a
     * temporary file before this answers, so no database connection ever waits on its reader
     * (docs/decisions/0016); whoever gets the stream must read or destroy it (it holds a file).
     */
    async export(actor: Actor, params: URLSearchParams, exportOptions: ExportOptions = {}): Promise<ExportFile> {
      assertFeature(actor, 'export');
      const leave =
        exportOptions.download && deps.downloads ? underWay.enter(downloadRules(actor, deps.downloads)) : undefined;
      try {
        const release = deps.heavy ? await deps.heavy.acquire() : () => undefined;
        let file: Omit<ExportFile, 'sizeBytes'>;
        let spooled: Awaited<ReturnType<typeof spool>>;
        try {
          file = await make(actor, params, exportOptions);
          spooled = await spool(file.stream);
        } finally {
          release();
        }
        // Under way until its last byte is read, or until it is given up.
        if (leave) for (const done of ['end', 'close']) spooled.stream.once(done, leave);
        return { ...file, stream: spooled.stream, sizeBytes: spooled.sizeBytes };
      } catch (error) {
        leave?.();
        throw error;
      }
    },
  };

  /** The file as it is made: a stream reading the database until its last byte. */
  async function make(
    actor: Actor,
    params: URLSearchParams,
    exportOptions: ExportOptions,
  ): Promise<Omit<ExportFile, 'sizeBytes'>> {
    const { maxRows, onRow, withoutCosts = false } = exportOptions;
    const query = queryOf(params, withoutCosts);
    const options = parse(exportQuery, query);
    const kind: ExportKind = options.kind;
    const currency = (await deps.rates.settings(actor)).currency;
    const title =
      options.title ?? { summary: 'Summary', detailed: 'Detailed', matrix: 'Matrix', estimates: 'Estimates' }[kind];
    if (kind === 'detailed' && options.format === 'csv' && deps.databaseCsv !== false) {
      const bom = options.bom ?? false;
      const copied = await copiedDetailedCsv(actor, query, currency, { withoutCosts, maxRows, bom, onRow });
      if (copied)
        return {
          fileName: `${slug(title)}-${copied.range.from}-${copied.range.to}.csv`,
          contentType: CONTENT_TYPES.csv,
          stream: copied.stream,
          rows: copied.rows,
        };
    }
    let built: Omit<Awaited<ReturnType<typeof summaryTable>>, 'chart'> & { chart?: ExportTable['chart'] };
    let filters: Omit<ReportQuery, 'groupBy'>;
    if (kind === 'summary') {
      const q = parse(reportQuery, query);
      filters = q;
      built = await summaryTable(actor, q, currency, options.format === 'pdf');
    } else if (kind === 'matrix') {
      const q = parse(matrixReportQuery, query);
      filters = q;
      built = await matrixTable(actor, q, currency);
    } else if (kind === 'estimates') {
      const q = parse(estimatesReportQuery, query);
      filters = q;
      built = await estimatesTable(actor, q, currency);
    } else {
      const d = await detailedTable(actor, query, currency, withoutCosts, maxRows);
      filters = d.filters;
      built = d;
    }
    if (maxRows !== undefined && built.count > maxRows + 1) throw exportTooLarge(maxRows);
    const table: ExportTable = {
      title,
      workspace: actor.membership.workspace.name,
      lines: [...(await describe(actor, filters, built.range)), ...built.extra],
      columns: built.columns,
      rows: onRow ? counted(built.rows, onRow) : built.rows,
      dateFormat: actor.user.date_format,
      timeFormat: actor.user.time_format,
      currency,
      fileName: `${slug(title)}-${built.range.from}-${built.range.to}`,
      ...(built.chart ? { chart: built.chart } : {}),
    };
    if (options.format === 'pdf' && deps.logoOf) {
      const logo = await deps.logoOf(actor.membership.workspace.id);
      if (logo) table.logo = logo;
    }
    const stream =
      options.format === 'csv'
        ? writeCsv(table, { bom: options.bom ?? false })
        : options.format === 'xlsx'
          ? writeXlsx(table)
          : writePdf(table, { maxRows: PDF_MAX_ROWS });
    return {
      fileName: `${table.fileName}.${options.format}`,
      contentType: CONTENT_TYPES[options.format],
      stream,
      rows: Promise.resolve(built.count),
    };
  }
}

export type ExportsService = ReturnType<typeof createExportsService>;
