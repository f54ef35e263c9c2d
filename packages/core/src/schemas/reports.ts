import { z } from 'zod';
import { shiftDay, WEEK_START_INDEX, type WeekStart, weekDays } from '../time/days.js';
import { ROUNDING_MINUTES, ROUNDING_MODES, type Rounding } from '../time/rounding.js';
import { text } from './text.js';

/**
 * A report definition: what every report (Summary, Detailed, matrices, the dashboard, the public
 * API and exports) asks the one report engine. It lives in the URL, so a report is a link: the
 * web writes it with `toReportParams` and the API reads the same query string with `reportQuery`.
 */

export const REPORT_DIMENSIONS = [
  'user',
  'group',
  'client',
  'project',
  'task',
  'tag',
  'billable',
  'invoiced',
  'day',
  'week',
  'month',
  'year',
  'description',
] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

export const REPORT_MEASURES = [
  'trackedSeconds',
  'billableSeconds',
  'billableAmount',
  'costAmount',
  'margin',
  'entryCount',
  'unbillableSeconds',
  'invoicedSeconds',
  'invoicedAmount',
  'uninvoicedSeconds',
  'uninvoicedAmount',
] as const;
export type ReportMeasure = (typeof REPORT_MEASURES)[number];
/** What a measure's figure is: seconds of work, cents of the workspace currency, or a number of entries. */
export type ReportMeasureKind = 'duration' | 'money' | 'count';
/**
 * Each measure's kind, the one place that says how its figure reads: every formatter (the
 * screens, CSV, Excel, PDF) asks `measureKind`. Money measures need the actor's money access
 * (billable and invoiced amounts: billableOf; cost, margin: costOf). Invoiced and uninvoiced
 * measures count billable entries only (a non-billable entry has nothing to invoice):
 * billable = invoiced + uninvoiced.
 */
export const REPORT_MEASURE_KINDS: Readonly<Record<ReportMeasure, ReportMeasureKind>> = {
  trackedSeconds: 'duration',
  billableSeconds: 'duration',
  billableAmount: 'money',
  costAmount: 'money',
  margin: 'money',
  entryCount: 'count',
  unbillableSeconds: 'duration',
  invoicedSeconds: 'duration',
  invoicedAmount: 'money',
  uninvoicedSeconds: 'duration',
  uninvoicedAmount: 'money',
};
export const measureKind = (m: ReportMeasure): ReportMeasureKind => REPORT_MEASURE_KINDS[m];
/** The measures that show money (`measureKind` is 'money'). */
export const MONEY_MEASURES: readonly ReportMeasure[] = REPORT_MEASURES.filter((m) => measureKind(m) === 'money');
export const DEFAULT_MEASURES: ReportMeasure[] = ['trackedSeconds', 'billableSeconds', 'entryCount'];

export const DATE_PRESETS = [
  'today',
  'yesterday',
  'thisWeek',
  'lastWeek',
  'thisMonth',
  'lastMonth',
  'thisQuarter',
  'lastQuarter',
  'thisYear',
  'lastYear',
  'custom',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const TAG_MODES = ['any', 'all', 'none'] as const;
export type TagMode = (typeof TAG_MODES)[number];

/** The longest range a report covers: ten years of days. */
export const MAX_REPORT_DAYS = 3660;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string) => DAY.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
const day = z.string().refine(isDay, { message: 'Enter a date as YYYY-MM-DD.' });

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** A comma-separated list in the query string ("a,b"), or the same parameter repeated. */
function list<T extends z.ZodType<string, string>>(item: T, name: string, max = 200) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(max, `At most ${max} ${name}.`));
}

/** An optional list of ids in the query string ("a,b" or the parameter repeated), at most 200. */
export const queryIds = (name: string) =>
  list(z.uuid({ error: `Each of the ${name} must be an id.` }), name).optional();
const ids = queryIds;
const flag = z.enum(['true', 'false'], { error: 'Use true or false.' }).transform((v) => v === 'true');

const dimension = z.enum(REPORT_DIMENSIONS, {
  error: `Group by one of: ${REPORT_DIMENSIONS.join(', ')}.`,
});
const measure = z.enum(REPORT_MEASURES, { error: `Measures are among: ${REPORT_MEASURES.join(', ')}.` });

/** The filters and settings every report shares, as query-string fields. */
const filterFields = {
  /** This week unless given; `from` and `to` alone are a custom range (see `givenRange`). */
  preset: z.enum(DATE_PRESETS, { error: `The date range is one of: ${DATE_PRESETS.join(', ')}.` }).optional(),
  /** First and last day of a custom range (inclusive), in the report's time zone. */
  from: day.optional(),
  to: day.optional(),
  users: ids('users'),
  groups: ids('groups'),
  clients: ids('clients'),
  projects: ids('projects'),
  tasks: ids('tasks'),
  tags: ids('tags'),
  tagMode: z.enum(TAG_MODES, { error: 'The tag filter is any, all or none.' }).default('any'),
  billable: flag.optional(),
  invoiced: flag.optional(),
  description: text({ max: 200, tooLong: 'The description filter is at most 200 characters.' }).optional(),
  withoutProject: flag.optional(),
  withoutTag: flag.optional(),
  measures: list(measure, 'measures', REPORT_MEASURES.length).optional(),
  /** The viewer's time zone and week start unless given. */
  timeZone: z
    .string()
    .refine(isTimeZone, { message: 'Unknown time zone: use a name such as Europe/Paris.' })
    .optional(),
  weekStart: z
    .enum(['monday', 'sunday', 'saturday'], { error: 'The week starts on monday, sunday or saturday.' })
    .optional(),
  /** The workspace's rounding unless given. */
  roundingMode: z.enum(ROUNDING_MODES, { error: `Rounding is one of: ${ROUNDING_MODES.join(', ')}.` }).optional(),
  roundingMinutes: z.coerce
    .number()
    .refine((m) => (ROUNDING_MINUTES as readonly number[]).includes(m), {
      message: `Rounding minutes are one of: ${ROUNDING_MINUTES.join(', ')}.`,
    })
    .optional(),
};

type RangeFields = { preset?: DatePreset | undefined; from?: string | undefined; to?: string | undefined };

/** The range a query asks for: its preset, else `from` and `to` as a custom range, else this week. */
const presetOf = (value: RangeFields): DatePreset =>
  value.preset ?? (value.from !== undefined || value.to !== undefined ? 'custom' : 'thisWeek');

/**
 * A range given is that range: `from` and `to` without a preset are a custom range, and with a
 * preset other than custom they are refused (a client that sent both silently got this week).
 */
const givenRange = <T extends RangeFields>(value: T): T & { preset: DatePreset } => ({
  ...value,
  preset: presetOf(value),
});

function checkRange(value: RangeFields, ctx: z.RefinementCtx) {
  const preset = presetOf(value);
  if (preset !== 'custom') {
    if (value.from !== undefined || value.to !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['preset'],
        message: `from and to make a custom range: leave preset out (or set it to custom), or leave them out for ${preset}.`,
      });
    return;
  }
  if (!value.from || !value.to) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'A custom range needs from and to dates.' });
    return;
  }
  if (value.to < value.from)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'The range ends before it starts.' });
  else if (daysBetween(value.from, value.to) >= MAX_REPORT_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'A report covers at most ten years.' });
}

const daysBetween = (a: string, b: string) =>
  (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

/** The bars' period over a range (its first and last day, inclusive): days up to 45 days, weeks up to 190, else months. */
export function barInterval(from: string, to: string): 'day' | 'week' | 'month' {
  const days = daysBetween(from, to) + 1;
  if (days <= 45) return 'day';
  if (days <= 190) return 'week';
  return 'month';
}

/** A Summary group's keys from `within` (a JSON list of up to two keys, null for none); undefined if it is not one. */
export function groupPath(within: string): (string | null)[] | undefined {
  try {
    const keys: unknown = JSON.parse(within);
    if (Array.isArray(keys) && keys.length <= 2 && keys.every((k) => k === null || typeof k === 'string'))
      return keys as (string | null)[];
  } catch {}
  return undefined;
}

/** An optional whole number of a query string, between `min` and `max`, each bound with its message. */
const whole = (min: number, max: number, tooSmall: string, tooLarge: string) =>
  z.coerce.number().int().min(min, { error: tooSmall }).max(max, { error: tooLarge }).optional();

/**
 * A group's keys, outermost first, as a JSON array (["<project id>"], [null] for "Without
 * project"): only the groups beneath it are sent, and `totals` are that group's.
 */
export const summaryWithin = z
  .string()
  .max(2_000, { error: 'The group asked for is too long.' })
  .refine((value) => groupPath(value) !== undefined, {
    error: 'Name the group as a JSON list of up to two keys, e.g. ["id"].',
  })
  .optional();

/** Above this many groups in all, the Summary page (signed in or shared) asks for it folded: a row per first-level group. */
export const SUMMARY_FOLD_ABOVE = 2_000;
/** At most this many groups under each parent on the Summary page, the largest; the others come as one "more" row. */
export const SUMMARY_LIMIT_GROUPS = 1_000;

/** Summary: up to three group-by dimensions, nested. */
export const reportQuery = z
  .object({
    ...filterFields,
    groupBy: list(dimension, 'group-by dimensions', 3).optional(),
    /** How many levels of groups to send (every level unless given): 1 sends the first level alone, with its subtotals. */
    depth: whole(1, 3, 'Send at least one level.', 'A Summary has at most three levels.'),
    within: summaryWithin,
    /** Above this many groups beneath, send the first level alone, each group with its subgroups' count. */
    fold: whole(1, 100_000, 'Fold above at least one group.', 'Fold above at most 100,000 groups.'),
    /** At most this many groups under each parent, the largest by tracked time; the others in one "more" row. */
    limit: whole(1, 10_000, 'Show at least one group.', 'Show at most 10,000 groups under each parent.'),
  })
  .superRefine(checkRange)
  .superRefine((value, ctx) => {
    if (new Set(value.groupBy ?? []).size !== (value.groupBy ?? []).length)
      ctx.addIssue({ code: 'custom', path: ['groupBy'], message: 'Group by each dimension once.' });
    if (value.within && (groupPath(value.within)?.length ?? 0) >= (value.groupBy ?? []).length)
      ctx.addIssue({
        code: 'custom',
        path: ['within'],
        message: 'Name a group that has subgroups: fewer keys than group-by dimensions.',
      });
  })
  .transform(givenRange);
export type ReportQuery = z.output<typeof reportQuery>;

/** A name of another source's dimension or sum (the source lists its own; the API refuses others). */
const sourceName = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, { error: 'Name dimensions and sums in lower case.' });

/**
 * A Summary of another source of facts than time (computer activity, attendance...): the range,
 * zone and people as every report; up to three of the source's dimensions and some of its sums.
 */
export const sourceReportQuery = z
  .object({
    preset: filterFields.preset,
    from: filterFields.from,
    to: filterFields.to,
    users: filterFields.users,
    groups: filterFields.groups,
    timeZone: filterFields.timeZone,
    weekStart: filterFields.weekStart,
    groupBy: list(sourceName, 'group-by dimensions', 3).default([]),
    sums: list(sourceName, 'sums', 20).optional(),
  })
  .superRefine(checkRange)
  .transform(givenRange);
export type SourceReportQuery = z.output<typeof sourceReportQuery>;

const sourceLeaf = z.object({
  dimension: z.string(),
  key: z.string().nullable(),
  label: z.string().nullable(),
  color: z.string().optional(),
  sums: z.record(z.string(), z.number()),
});
/** A source's group and its subgroups, spelled out for three levels as `reportGroup` is. */
const sourceGroup = sourceLeaf.extend({
  children: z.array(sourceLeaf.extend({ children: z.array(sourceLeaf).optional() })).optional(),
});

export const sourceSummaryView = z.object({
  source: z.string(),
  /** The source's name for people ("Focus"), its dimensions' names, and its sums' names and kinds. */
  title: z.string(),
  dimensions: z.array(z.object({ name: z.string(), label: z.string() })),
  sums: z.array(z.object({ name: z.string(), label: z.string(), kind: z.enum(['duration', 'money', 'count']) })),
  range: z.object({ from: z.string(), to: z.string(), timeZone: z.string(), weekStart: z.string() }),
  groupBy: z.array(z.string()),
  groups: z.array(sourceGroup),
  totals: z.record(z.string(), z.number()),
});
export type SourceSummaryView = z.infer<typeof sourceSummaryView>;

export const DETAILED_SORTS = ['start', 'duration', 'description'] as const;
export type DetailedSort = (typeof DETAILED_SORTS)[number];

/** Detailed: every entry, sorted, one page at a time; `cursor` is the previous page's `nextCursor`. */
export const detailedReportQuery = z
  .object({
    ...filterFields,
    sort: z.enum(DETAILED_SORTS, { error: `Sort by ${DETAILED_SORTS.join(', ')}.` }).default('start'),
    order: z.enum(['asc', 'desc'], { error: 'The order is asc or desc.' }).default('desc'),
    cursor: z.string().max(500).optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
  })
  .superRefine(checkRange)
  .transform(givenRange);
export type DetailedReportQuery = z.output<typeof detailedReportQuery>;

/** Matrix: rows by one dimension, columns by another (user x day serves By days and People). */
export const matrixReportQuery = z
  .object({ ...filterFields, rows: dimension.default('user'), columns: dimension.default('day') })
  .superRefine(checkRange)
  .superRefine((value, ctx) => {
    if (value.rows === value.columns)
      ctx.addIssue({ code: 'custom', path: ['columns'], message: 'Rows and columns need two different dimensions.' });
  })
  .transform(givenRange);
export type MatrixReportQuery = z.output<typeof matrixReportQuery>;

/** Mark entries invoiced (or not): the given ids, or every entry the filters match. */
export const markInvoicedBody = z
  .object({
    invoiced: z.boolean({ error: 'Say whether the entries are invoiced (true or false).' }),
    ids: z.array(z.uuid()).min(1, 'Choose at least one entry.').max(1000, 'At most 1000 entries at once.').optional(),
    /** A report's query string ("preset=lastMonth&projects=..."): every entry it lists. */
    filter: z.string().max(10_000).optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.filter === undefined), {
    message: 'Give either ids or a filter.',
    path: ['ids'],
  });
export type MarkInvoicedBody = z.input<typeof markInvoicedBody>;

// ---- the URL

/** Reads a report's definition from a URL's query string; the issues name each bad field. */
export function parseReportParams(params: URLSearchParams) {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    record[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return reportQuery.safeParse(record);
}

type ParamValue = string | number | boolean | readonly string[] | undefined;

/** Writes a report's definition as a query string (defaults left out), the inverse of `parseReportParams`. */
export function toReportParams(query: Partial<Record<string, ParamValue>>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (key === 'preset' && value === 'thisWeek') continue;
    if (key === 'tagMode' && value === 'any') continue;
    if (Array.isArray(value)) {
      if (value.length) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  return params;
}

// ---- date ranges

/**
 * The first and last local day (inclusive) of a preset, counted from `today` (the viewer's local
 * day). Works on calendar days only, so daylight-saving changes cannot move a boundary; the
 * engine turns the days into instants with the named time zone.
 */
export function resolvePreset(
  preset: DatePreset,
  today: string,
  weekStart: WeekStart,
  custom: { from?: string; to?: string } = {},
): { from: string; to: string } {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10);
  const monthRange = (year: number, month: number, months: number) => ({
    from: monthStart(year, month),
    to: shiftDay(monthStart(year, month + months), -1),
  });
  const quarter = Math.floor((m - 1) / 3);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const d = shiftDay(today, -1);
      return { from: d, to: d };
    }
    case 'thisWeek': {
      const week = weekDays(today, weekStart);
      return { from: week[0] as string, to: week[6] as string };
    }
    case 'lastWeek': {
      const week = weekDays(shiftDay(today, -7), weekStart);
      return { from: week[0] as string, to: week[6] as string };
    }
    case 'thisMonth':
      return monthRange(y, m, 1);
    case 'lastMonth':
      return monthRange(y, m - 1, 1);
    case 'thisQuarter':
      return monthRange(y, quarter * 3 + 1, 3);
    case 'lastQuarter':
      return monthRange(y, quarter * 3 - 2, 3);
    case 'thisYear':
      return monthRange(y, 1, 12);
    case 'lastYear':
      return monthRange(y - 1, 1, 12);
    case 'custom':
      if (!custom.from || !custom.to) throw new RangeError('A custom range needs from and to dates.');
      return { from: custom.from, to: custom.to };
  }
}

/** The first day of the week holding `day` (the week key of reports). */
export const weekOf = (day: string, weekStart: WeekStart): string => weekDays(day, weekStart)[0] as string;

export { WEEK_START_INDEX };

/** The rounding of a report: the query's when it names one, else the workspace's. */
export function reportRounding(
  query: Pick<ReportQuery, 'roundingMode' | 'roundingMinutes'>,
  workspace: Rounding,
): Rounding {
  if (!query.roundingMode) return workspace;
  return {
    mode: query.roundingMode,
    minutes: (query.roundingMinutes ?? workspace.minutes) as Rounding['minutes'],
  };
}

// ---- responses

const measuresView = z.object({
  trackedSeconds: z.number().int().optional(),
  billableSeconds: z.number().int().optional(),
  billableAmount: z.number().int().optional(),
  costAmount: z.number().int().optional(),
  margin: z.number().int().optional(),
  entryCount: z.number().int().optional(),
  unbillableSeconds: z.number().int().optional(),
  invoicedSeconds: z.number().int().optional(),
  invoicedAmount: z.number().int().optional(),
  uninvoicedSeconds: z.number().int().optional(),
  uninvoicedAmount: z.number().int().optional(),
});
export type ReportMeasures = z.infer<typeof measuresView>;

/** A dimension value: its key (an id, a day, "true"...; null = none, e.g. without project) and what to show. */
export const reportKeyView = z.object({
  key: z.string().nullable(),
  label: z.string(),
  color: z.string().nullable().optional(),
  /** For a task: its parent's name, so a subtask reads "Parent / Task". */
  parent: z.string().nullable().optional(),
});
export type ReportKey = z.infer<typeof reportKeyView>;

export interface ReportGroup {
  dimension: ReportDimension;
  key: ReportKey;
  measures: ReportMeasures;
  children?: ReportGroup[];
  childCount?: number;
  rest?: { count: number; measures: ReportMeasures };
}

/**
 * A group and its subgroups, spelled out for the three levels a report groups by (not a lazy,
 * recursive schema): the production response writer compiles plain schemas only, and checking a
 * Summary of 33,000 groups with zod cost ~0.5 s a response (bench/README.md, "(issue 14) 10M").
 */
/** Groups left out under one parent (`limit`): how many, and their figures added up. */
const restView = z.object({ count: z.number().int(), measures: measuresView });
export type ReportRest = z.infer<typeof restView>;

const leafGroup = z.object({
  dimension: dimension,
  key: reportKeyView,
  measures: measuresView,
  /** Its subgroups' count when they were not sent (a folded Summary: ask for them with `within`). */
  childCount: z.number().int().optional(),
  /** Its subgroups left out by `limit`. */
  rest: restView.optional(),
});
const reportGroup: z.ZodType<ReportGroup> = leafGroup.extend({
  children: z.array(leafGroup.extend({ children: z.array(leafGroup).optional() })).optional(),
});

const rangeView = z.object({ from: z.string(), to: z.string(), timeZone: z.string(), weekStart: z.string() });

export const summaryReportView = z.object({
  range: rangeView,
  groupBy: z.array(dimension),
  measures: z.array(measure),
  groups: z.array(reportGroup),
  totals: measuresView,
  /** The first-level groups left out by `limit`. */
  rest: restView.optional(),
  /** How many groups the Summary holds beneath `within` (or in all), sent or not; with `fold` or `limit` only. */
  groupCount: z.number().int().optional(),
  /** Whether only the first level was sent (`fold`): the groups with a childCount open on demand. */
  folded: z.boolean().optional(),
});
export type SummaryReportView = z.infer<typeof summaryReportView>;

export const detailedEntryView = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  projectColor: z.string().nullable(),
  clientName: z.string().nullable(),
  taskId: z.string().nullable(),
  taskName: z.string().nullable(),
  tagIds: z.array(z.string()),
  /** The tags' names, sorted. */
  tagNames: z.array(z.string()),
  note: z.string(),
  billable: z.boolean(),
  invoiced: z.boolean(),
  start: z.string(),
  end: z.string().nullable(),
  /** Rounded seconds within the report's range (each local day's part rounded, then added). */
  seconds: z.number().int(),
  billableAmount: z.number().int().nullable().optional(),
  costAmount: z.number().int().nullable().optional(),
  /** The client invoice the entry is on (`number` null on a draft), for those who manage invoices; else null. */
  invoice: z.object({ id: z.string(), number: z.string().nullable() }).nullable().optional(),
});
export type DetailedEntryView = z.infer<typeof detailedEntryView>;

export const detailedReportView = z.object({
  range: rangeView,
  items: z.array(detailedEntryView),
  nextCursor: z.string().nullable(),
});
export type DetailedReportView = z.infer<typeof detailedReportView>;

export const matrixReportView = z.object({
  range: rangeView,
  rows: z.array(z.object({ key: reportKeyView, cells: z.record(z.string(), measuresView), totals: measuresView })),
  columns: z.array(z.object({ key: reportKeyView, totals: measuresView })),
  totals: measuresView,
  measures: z.array(measure),
});
export type MatrixReportView = z.infer<typeof matrixReportView>;

export const markInvoicedView = z.object({ updated: z.number().int() });

// ---- estimates (budgets vs tracked)

/** Estimates: the same filters as every report (a budget's figures end with the range's last day). */
export const estimatesReportQuery = z.object(filterFields).superRefine(checkRange).transform(givenRange);
export type EstimatesReportQuery = z.output<typeof estimatesReportQuery>;

export const estimateView = z.object({
  projectId: z.string(),
  projectName: z.string(),
  projectColor: z.string(),
  clientName: z.string().nullable(),
  /** Null for the project's own budget; a task's budget counts its subtasks too. */
  taskId: z.string().nullable(),
  taskName: z.string().nullable(),
  type: z.enum(['hours', 'fee']),
  resetsMonthly: z.boolean(),
  /** A monthly-reset budget's month ("2026-11"); null for a budget over the whole life of the project. */
  month: z.string().nullable(),
  /** Seconds for an hours budget, cents for a fee budget; null when the viewer may not see the amounts. */
  budget: z.number().int().nullable(),
  /** Tracked seconds (hours) or billable amount (fee) up to the range's last day (within the month for monthly budgets). */
  used: z.number().int().nullable(),
  remaining: z.number().int().nullable(),
  /** used / budget in percent (one decimal); null without a budget above zero or amounts hidden. */
  percent: z.number().nullable(),
  status: z.enum(['ok', 'near', 'over', 'hidden']),
});
export type EstimateView = z.infer<typeof estimateView>;

/** A kind's budgets added up: null figures when the viewer may not see them. */
export const estimateTotalView = z.object({
  budget: z.number().int().nullable(),
  used: z.number().int().nullable(),
  remaining: z.number().int().nullable(),
});
export type EstimateTotalView = z.infer<typeof estimateTotalView>;

export const estimatesReportView = z.object({
  range: rangeView,
  items: z.array(estimateView),
  /** Each kind's budgets and use, every budget counted once (`estimateTotals`); null for a kind without budgets. */
  totals: z.object({ hours: estimateTotalView.nullable(), fee: estimateTotalView.nullable() }),
  /** Some fee budgets' amounts are left out: the viewer may not see the billable amounts of everyone in the report. */
  moneyHidden: z.boolean(),
});
export type EstimatesReportView = z.infer<typeof estimatesReportView>;

/**
 * How a budget stands: over above 100 %, near from `nearPercent` (the budget's lowest alert threshold
 * below 100, `budgetNearPercent`; null: never near). Every budget carries its own thresholds, so
 * there is no default here.
 */
export function budgetStatus(used: number, budget: number, nearPercent: number | null): 'ok' | 'near' | 'over' {
  if (used > budget) return 'over';
  if (nearPercent !== null && budget > 0 && used * 100 >= nearPercent * budget) return 'near';
  return 'ok';
}

/** used / budget in percent with one decimal, as the Estimates report, the dashboard and the alerts say it; null without a budget. */
export function budgetPercent(used: number, budget: number): number | null {
  return budget > 0 ? Math.round((used * 1000) / budget) / 10 : null;
}

/** A budget's figure in one period, as `estimateTotals` reads it. */
export interface BudgetFigureOf {
  line: { type: 'hours' | 'fee'; projectId: string; taskId: string | null; taskIds: readonly string[] };
  budget: number;
  used: number;
}

/**
 * Each kind's budgets and use added up, every hour and cent once: a budget inside another of its
 * kind (a task's inside its project's, a subtask's inside its parent task's) is already counted in
 * that one, so it is left out (issue 30: a 100 h project with 50 h of task budgets totalled 150 h).
 * A monthly budget's months add up. Fee figures are null when `seesFees` is false.
 */
export function estimateTotals(
  figures: readonly BudgetFigureOf[],
  seesFees: boolean,
): { hours: EstimateTotalView | null; fee: EstimateTotalView | null } {
  const inside = (f: BudgetFigureOf) =>
    f.line.taskId !== null &&
    figures.some(
      (o) =>
        o.line.type === f.line.type &&
        o.line.projectId === f.line.projectId &&
        (o.line.taskId === null ||
          (o.line.taskId !== f.line.taskId && o.line.taskIds.includes(f.line.taskId as string))),
    );
  const total = (type: 'hours' | 'fee'): EstimateTotalView | null => {
    const own = figures.filter((f) => f.line.type === type);
    if (!own.length) return null;
    if (type === 'fee' && !seesFees) return { budget: null, used: null, remaining: null };
    const outer = own.filter((f) => !inside(f));
    const budget = outer.reduce((sum, f) => sum + f.budget, 0);
    const used = outer.reduce((sum, f) => sum + f.used, 0);
    return { budget, used, remaining: budget - used };
  };
  return { hours: total('hours'), fee: total('fee') };
}
// ---- exports

/** `source`: the Summary of another source of facts than time, named by `source` (sourceReportQuery). */
export const EXPORT_KINDS = ['summary', 'detailed', 'matrix', 'estimates', 'source'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const EXPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * An export: which report (kind), as what (format), how (options); every other parameter of the
 * query string is the report's own definition, read by that report's schema (reportQuery,
 * detailedReportQuery or matrixReportQuery), so an export is the on-screen report's link plus these.
 */
/**
 * Above this many rows (the default of the server's EXPORT_JOB_MIN_ROWS) a report is exported in
 * the background: a page that knows its row count starts the job at once instead of asking first.
 */
export const EXPORT_DIRECT_MAX_ROWS = 50_000;

export const exportQuery = z
  .looseObject({
    kind: z.enum(EXPORT_KINDS, { error: `The report to export is one of: ${EXPORT_KINDS.join(', ')}.` }),
    format: z.enum(EXPORT_FORMATS, { error: `The format is one of: ${EXPORT_FORMATS.join(', ')}.` }),
    /** A byte-order mark before a CSV, so spreadsheet programs read it as UTF-8. */
    bom: flag.optional(),
    /** The report's name on the file and the PDF's title ("People by days"). */
    title: text({ max: 80, tooLong: 'The title is at most 80 characters.' }).optional(),
    /** Which source of facts a `source` export reads. */
    source: sourceName.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.kind === 'source' && !value.source)
      ctx.addIssue({ code: 'custom', path: ['source'], message: 'Name the source of facts to export.' });
  });
export type ExportQuery = z.output<typeof exportQuery>;

// ---- names (English; the web's texts and the exports read them)

export const REPORT_DIMENSION_LABELS: Record<ReportDimension, string> = {
  user: 'User',
  group: 'Group',
  client: 'Client',
  project: 'Project',
  task: 'Task',
  tag: 'Tag',
  billable: 'Billable',
  invoiced: 'Invoiced',
  day: 'Day',
  week: 'Week',
  month: 'Month',
  year: 'Year',
  description: 'Description',
};
export const REPORT_MEASURE_LABELS: Record<ReportMeasure, string> = {
  trackedSeconds: 'Tracked',
  billableSeconds: 'Billable time',
  billableAmount: 'Billable amount',
  costAmount: 'Cost',
  margin: 'Margin',
  entryCount: 'Entries',
  unbillableSeconds: 'Unbillable time',
  invoicedSeconds: 'Invoiced time',
  invoicedAmount: 'Invoiced amount',
  uninvoicedSeconds: 'Not invoiced time',
  uninvoicedAmount: 'Not invoiced amount',
};
export const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  thisWeek: 'This week',
  lastWeek: 'Last week',
  thisMonth: 'This month',
  lastMonth: 'Last month',
  thisQuarter: 'This quarter',
  lastQuarter: 'Last quarter',
  thisYear: 'This year',
  lastYear: 'Last year',
  custom: 'Custom range',
};
