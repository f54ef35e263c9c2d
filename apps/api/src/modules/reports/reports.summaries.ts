import {
  DEFAULT_MEASURES,
  groupPath,
  type MatrixReportQuery,
  type MatrixReportView,
  type ReportDimension,
  type ReportGroup,
  type ReportKey,
  type ReportMeasure,
  type ReportMeasures,
  type ReportQuery,
  type ReportRest,
  type SummaryReportView,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { Actor } from '../../platform/actor.js';
import { sortInSlices, type TimeSlices, timeSlices } from '../../platform/time-slices.js';
import type { GroupedRow, LevelPlan } from './reports.engine.js';
import { reportsRepository as repo } from './reports.repository.js';
import type { ReportScope } from './reports.scope.js';
import { type ShapedRow, shapeLevels } from './reports.shape.js';
import { nestLevels, treePath } from './reports.sources.js';
import { compileReport, type LevelRow, type LevelSum, type MeasureSums } from './reports.time-source.js';

const NONE_LABEL: Record<ReportDimension, string> = {
  user: 'Unknown user',
  group: 'Without group',
  client: 'Without client',
  project: 'Without project',
  task: 'Without task',
  tag: 'Without tag',
  billable: '',
  invoiced: '',
  day: '',
  week: '',
  month: '',
  year: '',
  description: '',
};
const ORDERED_BY_KEY: ReadonlySet<ReportDimension> = new Set(['day', 'week', 'month', 'year']);

function keyView(
  dimension: ReportDimension,
  key: string | null,
  name: string | null,
  color: string | null,
  parent: string | null,
): ReportKey {
  let label: string;
  if (key === null) label = NONE_LABEL[dimension];
  else if (dimension === 'billable') label = key === 'true' ? 'Billable' : 'Non-billable';
  else if (dimension === 'invoiced') label = key === 'true' ? 'Invoiced' : 'Not invoiced';
  else if (dimension === 'description') label = key === '' ? '(no description)' : key;
  else if (ORDERED_BY_KEY.has(dimension)) label = key;
  else label = name ?? 'Deleted';
  return { key, label, ...(color !== null ? { color } : {}), ...(dimension === 'task' ? { parent } : {}) };
}

/** The sums each measure is computed from (`measuresOf`); the tracked seconds always come. */
const SUMS_OF: Record<ReportMeasure, LevelSum[]> = {
  trackedSeconds: [],
  billableSeconds: ['billable_seconds'],
  billableAmount: ['billable_cents'],
  costAmount: ['cost_cents'],
  margin: ['billable_cents', 'cost_cents'],
  entryCount: [],
  unbillableSeconds: ['billable_seconds'],
  invoicedSeconds: ['invoiced_seconds'],
  invoicedAmount: ['invoiced_cents'],
  uninvoicedSeconds: ['billable_seconds', 'invoiced_seconds'],
  uninvoicedAmount: ['billable_cents', 'invoiced_cents'],
};

function measuresOf(row: MeasureSums, measures: readonly ReportMeasure[]): ReportMeasures {
  const billable = Number(row.billable_cents);
  const cost = Number(row.cost_cents);
  const tracked = Number(row.tracked);
  const billableSeconds = Number(row.billable_seconds);
  const invoicedSeconds = Number(row.invoiced_seconds);
  const invoiced = Number(row.invoiced_cents);
  const all: Required<ReportMeasures> = {
    trackedSeconds: tracked,
    billableSeconds,
    billableAmount: billable,
    costAmount: cost,
    margin: billable - cost,
    entryCount: Number(row.entries ?? 0),
    unbillableSeconds: tracked - billableSeconds,
    invoicedSeconds,
    invoicedAmount: invoiced,
    uninvoicedSeconds: billableSeconds - invoicedSeconds,
    uninvoicedAmount: billable - invoiced,
  };
  const picked: ReportMeasures = {};
  for (const m of measures) picked[m] = all[m];
  return picked;
}

const EMPTY: MeasureSums = {
  tracked: 0,
  billable_seconds: 0,
  billable_cents: 0,
  cost_cents: 0,
  invoiced_seconds: 0,
  invoiced_cents: 0,
  entries: 0,
};

/** localeCompare's order, with its collator made once: a Summary can sort hundreds of thousands of groups. */
const collate = new Intl.Collator().compare;

function compareKeys(dimension: ReportDimension) {
  return (a: ReportGroup, b: ReportGroup) => {
    if (a.key.key === null || b.key.key === null) return a.key.key === null ? (b.key.key === null ? 0 : 1) : -1;
    if (ORDERED_BY_KEY.has(dimension)) return collate(a.key.key, b.key.key);
    if (dimension === 'billable' || dimension === 'invoiced') return a.key.key === 'true' ? -1 : 1;
    return collate(a.key.label, b.key.label) || collate(a.key.key, b.key.key);
  };
}

const rowKey = (row: LevelRow, i: number) => [row.k1, row.k2, row.k3][i] ?? null;

/** Each level's groups in their order (by name; periods by date), their subgroups likewise, in time slices. */
async function sortTree(groups: ReportGroup[], slices: TimeSlices): Promise<void> {
  const first = groups[0];
  if (first) await sortInSlices(groups, compareKeys(first.dimension), slices);
  if (slices.overdue()) await slices.pause();
  for (const g of groups) if (g.children) await sortTree(g.children, slices);
}

/** The sums a shaped Summary adds up in its rest rows. */
const TIME_SUMS = [
  'tracked',
  'billable_seconds',
  'billable_cents',
  'cost_cents',
  'invoiced_seconds',
  'invoiced_cents',
  'entries',
];

/**
 * A shaped Summary's rows (`shapeLevels`) as a tree under `within` (its `w` keys): the group's own
 * row, the groups beneath it (each under its parent, with its subgroups' count when folded), and
 * each parent's left-out groups as its `rest`.
 */
async function shapedTree(
  rows: readonly (LevelRow & ShapedRow)[],
  w: number,
  groupOf: (row: LevelRow, i: number) => ReportGroup,
  measuresOfRow: (row: LevelRow) => ReportMeasures,
  slices: TimeSlices,
) {
  const pathOf = (row: GroupedRow, depth: number) => treePath(row, w, depth);
  const nodes = new Map<string, ReportGroup>();
  const groups: ReportGroup[] = [];
  let own: LevelRow | undefined;
  let rest: ReportRest | undefined;
  const ordered = [...rows].sort((a, b) => a.level - b.level || (a.rest_count === null ? -1 : 1));
  for (const row of ordered) {
    if (row.level === w && row.rest_count === null) {
      own = row;
      continue;
    }
    const parentPath = pathOf(row, row.level - 1);
    const parent = row.level === w + 1 ? undefined : nodes.get(parentPath);
    if (row.level > w + 1 && !parent) continue;
    if (row.rest_count !== null) {
      const left = { count: row.rest_count, measures: measuresOfRow(row) };
      if (parent) parent.rest = left;
      else rest = left;
      continue;
    }
    const node = groupOf(row, row.level - 1);
    if (row.child_count !== null) node.childCount = row.child_count;
    nodes.set(pathOf(row, row.level), node);
    if (parent) {
      parent.children ??= [];
      parent.children.push(node);
    } else groups.push(node);
    if (slices.due()) await slices.pause();
  }
  return { groups, rest, own };
}

/** The Summary and the matrices (By days, People): the engine's grouping sets as trees and tables. */
export function createSummaries(db: Db, { resolve, assertMoney, rangeOf }: ReportScope) {
  return {
    /** Summary: groups nested up to three levels, each with its subtotal, and the totals. */
    async summary(actor: Actor, q: ReportQuery, now = new Date()): Promise<SummaryReportView> {
      const f = await resolve(actor, q, now);
      const measures = q.measures?.length ? q.measures : DEFAULT_MEASURES;
      await assertMoney(actor, f, measures);
      const dims = q.groupBy ?? [];
      const levels = dims.slice(0, q.depth ?? dims.length);
      const sets = [[], ...levels.map((_, i) => levels.slice(0, i + 1))];
      const report = (shape?: LevelPlan['shape']) =>
        compileReport(f, {
          sets,
          dimensions: levels,
          countEntries: measures.includes('entryCount'),
          sums: new Set(measures.flatMap((m) => SUMS_OF[m])),
          shape,
        });
      const groupOf = (row: LevelRow, i: number): ReportGroup => {
        const dimension = dims[i] as ReportDimension;
        const at = (values: (string | null)[]) => values[i] ?? null;
        return {
          dimension,
          key: keyView(
            dimension,
            rowKey(row, i),
            at([row.n1, row.n2, row.n3]),
            at([row.c1, row.c2, row.c3]),
            at([row.p1, row.p2, row.p3]),
          ),
          measures: measuresOf(row, measures),
        };
      };
      const head = { range: rangeOf(f), groupBy: dims, measures };
      if (q.within || q.fold !== undefined || q.limit !== undefined) {
        const within = (q.within && groupPath(q.within)) || [];
        const shape = shapeLevels({
          levels: levels.length,
          within,
          fold: q.fold,
          limit: q.limit,
          sums: TIME_SUMS,
          rank: 'tracked',
        });
        const rows = await repo.run(db, report(shape).$castTo<LevelRow & ShapedRow>());
        const slices = timeSlices();
        const { groups, rest, own } = await shapedTree(
          rows,
          within.length,
          groupOf,
          (r) => measuresOf(r, measures),
          slices,
        );
        await sortTree(groups, slices);
        return {
          ...head,
          groups,
          totals: measuresOf(own ?? EMPTY, measures),
          ...(rest ? { rest } : {}),
          groupCount: rows[0]?.groups ?? 0,
          folded: rows.some((r) => r.child_count !== null),
        };
      }
      const rows = await repo.run(db, report());
      const total = rows.find((r) => r.level === 0);
      // Every group (a year by person, project and day: 535,000), nested and sorted in time slices.
      const slices = timeSlices();
      const roots = await nestLevels(rows, groupOf, slices);
      await sortTree(roots, slices);
      return { ...head, groups: roots, totals: measuresOf(total ?? EMPTY, measures) };
    },

    /** Matrix: rows by one dimension, columns by another, with row, column and grand totals. */
    async matrix(actor: Actor, q: MatrixReportQuery, now = new Date()): Promise<MatrixReportView> {
      const f = await resolve(actor, q, now);
      const measures = q.measures?.length ? q.measures : DEFAULT_MEASURES;
      await assertMoney(actor, f, measures);
      const dims = [q.rows, q.columns];
      const rows = await repo.run(
        db,
        compileReport(f, {
          sets: [[], [q.rows], [q.columns], dims],
          dimensions: dims,
          countEntries: measures.includes('entryCount'),
        }),
      );
      const byRow = new Map<string | null, MatrixReportView['rows'][number]>();
      const columns: MatrixReportView['columns'] = [];
      for (const row of rows) {
        if (row.level === 1)
          byRow.set(row.k1, {
            key: keyView(q.rows, row.k1, row.n1, row.c1, row.p1),
            cells: {},
            totals: measuresOf(row, measures),
          });
        if (row.level === 2)
          columns.push({ key: keyView(q.columns, row.k2, row.n2, row.c2, row.p2), totals: measuresOf(row, measures) });
      }
      for (const row of rows)
        if (row.level === 3) {
          const target = byRow.get(row.k1);
          if (target) target.cells[row.k2 ?? ''] = measuresOf(row, measures);
        }
      const asGroup = (key: ReportKey, dimension: ReportDimension): ReportGroup => ({ dimension, key, measures: {} });
      const sortBy = <T extends { key: ReportKey }>(list: T[], dimension: ReportDimension) =>
        list.sort((a, b) => compareKeys(dimension)(asGroup(a.key, dimension), asGroup(b.key, dimension)));
      return {
        range: rangeOf(f),
        rows: sortBy([...byRow.values()], q.rows),
        columns: sortBy(columns, q.columns),
        totals: measuresOf(rows.find((r) => r.level === 0) ?? EMPTY, measures),
        measures,
      };
    },
  };
}
