import {
  DATE_PRESETS,
  DETAILED_SORTS,
  type DetailedSort,
  type MatrixReportQuery,
  REPORT_DIMENSIONS,
  REPORT_MEASURES,
  type ReportDimension,
  type ReportMeasure,
  type ReportQuery,
  reportQuery,
  toReportParams,
} from '@sundial/core';
import type { ParamPatch } from '../../api/reports';

/**
 * A report's state lives in the URL, so a report is a link and the back button steps through the
 * filters chosen. The filters are core's report definition (reportQuery, toReportParams); the
 * page's own choices (group-by, sort, matrix axes, chart) sit beside them in the same query string.
 */

/**
 * The filters every report shares: core's definition without its per-report fields. The time zone
 * is kept when a link names one (a viewer's own zone); without it the API uses the workspace's
 * report zone.
 */
export type ReportFilters = Omit<
  ReportQuery,
  'groupBy' | 'measures' | 'weekStart' | 'roundingMode' | 'roundingMinutes'
>;

/** The keys the filter bar owns; a change to any of them starts the report's pages again. */
export const FILTER_KEYS = [
  'preset',
  'from',
  'to',
  'users',
  'groups',
  'clients',
  'projects',
  'tasks',
  'tags',
  'tagMode',
  'billable',
  'invoiced',
  'description',
  'withoutProject',
  'withoutTag',
  'timeZone',
] as const satisfies readonly (keyof ReportFilters)[];

const toRecord = (params: URLSearchParams): Record<string, string | string[]> => {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    record[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return record;
};

/**
 * Reads the filters of a URL. A field that does not read (a hand-edited link, an old bookmark) is
 * left out and named in `dropped`, so the rest of the report still shows, with a word about it.
 */
export function readFilters(params: URLSearchParams): { filters: ReportFilters; dropped: string[] } {
  const record: Record<string, string | string[]> = {};
  const all = toRecord(params);
  for (const key of FILTER_KEYS) if (all[key] !== undefined) record[key] = all[key] as string | string[];
  const dropped: string[] = [];
  for (let attempt = 0; attempt <= FILTER_KEYS.length; attempt++) {
    const parsed = reportQuery.safeParse(record);
    if (parsed.success) {
      const { groupBy: _g, measures: _m, ...filters } = parsed.data;
      return { filters, dropped };
    }
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      // A custom range that does not hold falls back to the default range.
      const keys = key === 'from' || key === 'to' ? ['preset', 'from', 'to'] : [key];
      for (const k of keys)
        if (k in record) {
          delete record[k];
          if (!dropped.includes(k)) dropped.push(k);
        }
    }
  }
  return { filters: { preset: 'thisWeek', tagMode: 'any' }, dropped };
}

/**
 * The query string after a change: the patch replaces its keys (undefined, false-y lists and empty
 * text remove them), defaults are left out as core writes them, and the Detailed report's page
 * cursor never survives a change.
 */
export function patchParams(current: URLSearchParams, patch: ParamPatch): URLSearchParams {
  const record: ParamPatch = { ...toRecord(current) };
  delete record.cursor;
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) delete record[key];
    else record[key] = value;
  }
  if (record.preset !== 'custom') {
    delete record.from;
    delete record.to;
  }
  return toReportParams(record);
}

/** How many filters beyond the date range are set (the "More filters" badge, "Clear filters"). */
export function activeFilterCount(filters: ReportFilters): number {
  const lists = [filters.users, filters.groups, filters.clients, filters.projects, filters.tasks, filters.tags];
  const flags = [filters.billable, filters.invoiced, filters.withoutProject, filters.withoutTag];
  return (
    lists.filter((l) => l && l.length > 0).length +
    flags.filter((f) => f !== undefined).length +
    (filters.description ? 1 : 0)
  );
}

/** The filters as the API's query fields (the API reads the same definition). */
export const filterQuery = (filters: ReportFilters): ParamPatch => ({ ...filters });

const isDimension = (v: string): v is ReportDimension => (REPORT_DIMENSIONS as readonly string[]).includes(v);
const isMeasure = (v: string): v is ReportMeasure => (REPORT_MEASURES as readonly string[]).includes(v);

/** Up to three different dimensions from "project,user"; unknown ones and repeats are left out. */
export function readGroupBy(params: URLSearchParams, fallback: ReportDimension[]): ReportDimension[] {
  const raw = params.get('groupBy');
  if (raw === null) return fallback;
  const dims = [...new Set(raw.split(',').filter(isDimension))].slice(0, 3);
  return dims.length ? dims : fallback;
}

export function readMeasures(params: URLSearchParams, fallback: ReportMeasure[]): ReportMeasure[] {
  const raw = params.get('measures');
  if (raw === null) return fallback;
  const measures = [...new Set(raw.split(',').filter(isMeasure))];
  return measures.length ? measures : fallback;
}

/** A matrix's two axes: the URL's when they read and differ, else the report's own. */
export function readAxes(
  params: URLSearchParams,
  fallback: Pick<MatrixReportQuery, 'rows' | 'columns'>,
): Pick<MatrixReportQuery, 'rows' | 'columns'> {
  const rows = params.get('rows') ?? '';
  const columns = params.get('columns') ?? '';
  const r = isDimension(rows) ? rows : fallback.rows;
  const c = isDimension(columns) ? columns : fallback.columns;
  return r === c ? fallback : { rows: r, columns: c };
}

export function readSort(params: URLSearchParams): { sort: DetailedSort; order: 'asc' | 'desc' } {
  const sort = params.get('sort') ?? '';
  const order = params.get('order');
  return {
    sort: (DETAILED_SORTS as readonly string[]).includes(sort) ? (sort as DetailedSort) : 'start',
    order: order === 'asc' ? 'asc' : 'desc',
  };
}

export const CHART_TYPES = ['bar', 'donut', 'none'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export function readChart(params: URLSearchParams, fallback: ChartType = 'bar'): ChartType {
  const chart = params.get('chart') ?? '';
  return (CHART_TYPES as readonly string[]).includes(chart) ? (chart as ChartType) : fallback;
}

/** The bars' interval (shared with the API's public page). */
export { barInterval } from '@sundial/core';

export { DATE_PRESETS };
