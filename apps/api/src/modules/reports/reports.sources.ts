import {
  type DatePreset,
  dayBounds,
  dayKey,
  type Permission,
  resolvePreset,
  type SourceReportQuery,
  type SourceSummaryView,
  type WeekStart,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { allows, othersTimeScope } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError, notFound } from '../../platform/errors.js';
import { type TimeSlices, timeSlices } from '../../platform/time-slices.js';
import { compileSourceReport, type GroupedRow, type ReportSource, type SourceScope } from './reports.engine.js';
import { reportsRepository as repo } from './reports.repository.js';

/**
 * Reports over any source of facts (reports.engine.ts): the range and whose facts resolved as for
 * time, the grouping sets compiled once for every source, the rows nested into a tree. A new kind
 * of fact registers its `ReportSource` here (`createReportsService`'s `sources`) and is reported
 * with the Summary's nesting, subtotals and labels.
 */

/** What every report asks first: the range, the zone and week, and whose facts. */
interface ScopeQuery {
  preset: DatePreset;
  from?: string | undefined;
  to?: string | undefined;
  timeZone?: string | undefined;
  weekStart?: WeekStart | undefined;
  users?: string[] | undefined;
  groups?: string[] | undefined;
}

/** A source as registered: the facts and the permission that lets an actor see other people's. */
export interface RegisteredSource {
  source: ReportSource;
  seeOthers: Permission;
}

/**
 * Range, zone and whose facts for the actor, the same for every source: the workspace's report
 * zone unless the query names one, the actor's week start unless given, their own facts only
 * unless `seeOthers` lets them see others' (a manager: the people they manage).
 */
export async function resolveScope(
  db: Db,
  actor: Actor,
  q: ScopeQuery,
  seeOthers: Permission,
  now: Date,
): Promise<SourceScope & { stored: Awaited<ReturnType<typeof repo.reportSettings>>; reportZone: string }> {
  const workspace = actor.membership.workspace;
  const stored = await repo.reportSettings(db, workspace.id);
  const reportZone = stored?.timeZone ?? 'UTC';
  const timeZone = q.timeZone ?? reportZone;
  const weekStart = (q.weekStart ?? actor.user.week_start) as WeekStart;
  const { from, to } = resolvePreset(q.preset, dayKey(now, timeZone), weekStart, q);
  let scope: string[] | null = [actor.userId];
  if (allows(actor.membership, seeOthers)) {
    const others = await othersTimeScope(db, actor);
    scope = others === null ? null : [...new Set([...others, actor.userId])];
  }
  return {
    workspaceId: workspace.id,
    fromAt: new Date(dayBounds(from, timeZone).startMs),
    toAt: new Date(dayBounds(to, timeZone).endMs),
    fromDay: from,
    toDay: to,
    timeZone,
    weekStart,
    now,
    scope,
    users: q.users,
    groups: q.groups,
    stored,
    reportZone,
  };
}

const refused = (message: string) => new AppError('validation_failed', message, { status: 422 });

/**
 * A group's place in the tree: its keys from level `from` to `depth`, none (null) told apart from
 * any text, each key prefixed by its length so no two paths run together.
 */
export function treePath(row: Pick<GroupedRow, 'k1' | 'k2' | 'k3'>, from: number, depth: number): string {
  let path = '';
  for (const key of [row.k1, row.k2, row.k3].slice(from, depth))
    path += key === null ? '\u0000-' : `${key.length}:${key}`;
  return path;
}

/**
 * Nests a Summary's rows (one per group and level, `level` 0 the total) into trees: each row under
 * the row of its first keys one level up. `group` makes the node of row `row` at depth `i`. Done
 * in time slices: 535,000 rows held the event loop for seconds in one piece.
 */
export async function nestLevels<R extends GroupedRow, G extends { children?: G[] }>(
  rows: readonly R[],
  group: (row: R, i: number) => G,
  slices: TimeSlices = timeSlices(),
): Promise<G[]> {
  const pathOf = (row: R, depth: number) => treePath(row, 0, depth);
  // Parents before their children: the rows by level, in one pass.
  const byLevel: R[][] = [[], [], []];
  for (const row of rows) {
    if (row.level > 0) byLevel[row.level - 1]?.push(row);
    if (slices.due()) await slices.pause();
  }
  const nodes = new Map<string, G>();
  const roots: G[] = [];
  for (const level of byLevel)
    for (const row of level) {
      const node = group(row, row.level - 1);
      if (row.level < 3) nodes.set(pathOf(row, row.level), node);
      if (row.level === 1) roots.push(node);
      else {
        const parent = nodes.get(pathOf(row, row.level - 1));
        if (parent) {
          parent.children ??= [];
          parent.children.push(node);
        }
      }
      if (slices.due()) await slices.pause();
    }
  return roots;
}

const collate = new Intl.Collator().compare;

export type SourceGroup = SourceSummaryView['groups'][number] & { children?: SourceGroup[] };

export function createSourceReports(db: Db, sources: readonly RegisteredSource[]) {
  const byName = new Map(sources.map((s) => [s.source.name, s]));
  return {
    /** Whether a source of this name is registered. */
    has: (name: string) => byName.has(name),

    /** Summary of a source: groups nested up to three levels, each with its subtotal, and the totals. */
    async summary(actor: Actor, name: string, q: SourceReportQuery, now = new Date()): Promise<SourceSummaryView> {
      const registered = byName.get(name);
      if (!registered) throw notFound(`There is no report of ${name}.`);
      const { source } = registered;
      const known = new Set(source.dimensions);
      const unknown = q.groupBy.find((d) => !known.has(d));
      if (unknown) throw refused(`Group ${name} by one of: ${source.dimensions.join(', ')}.`);
      if (q.groupBy.length > 3) throw refused('Group by at most three dimensions.');
      if (new Set(q.groupBy).size !== q.groupBy.length) throw refused('Group by each dimension once.');
      const all = Object.keys(source.sums);
      const sums = q.sums?.length ? q.sums : all;
      const unknownSum = sums.find((s) => !all.includes(s));
      if (unknownSum) throw refused(`The sums of ${name} are among: ${all.join(', ')}.`);
      const { stored: _stored, reportZone: _zone, ...f } = await resolveScope(db, actor, q, registered.seeOthers, now);
      const dims = q.groupBy;
      const rows = await repo.run(
        db,
        compileSourceReport(source, f, {
          sets: [[], ...dims.map((_, i) => dims.slice(0, i + 1))],
          dimensions: dims,
          sums: new Set(sums),
        }).$castTo<GroupedRow & Record<string, string | number | null>>(),
      );
      const sumsOf = (row: Record<string, string | number | null>) =>
        Object.fromEntries(sums.map((s) => [s, Number(row[s] ?? 0)]));
      const groups = await nestLevels(rows, (row, i): SourceGroup => {
        const color = [row.c1, row.c2, row.c3][i];
        return {
          dimension: dims[i] as string,
          key: [row.k1, row.k2, row.k3][i] ?? null,
          label: [row.n1, row.n2, row.n3][i] ?? null,
          ...(color ? { color } : {}),
          sums: sumsOf(row),
        };
      });
      // Periods in calendar order, the rest by name as on screen; none (null) last.
      const dated = dims.map((d) => source.dimension(d, f).dated === true);
      const sortTree = (list: SourceGroup[], depth: number) => {
        const by = (g: SourceGroup) => (dated[depth] ? g.key : (g.label ?? g.key));
        list.sort((a, b) => {
          const x = by(a);
          const y = by(b);
          return x === null
            ? y === null
              ? 0
              : 1
            : y === null
              ? -1
              : collate(x, y) || collate(a.key ?? '', b.key ?? '');
        });
        for (const g of list) if (g.children) sortTree(g.children, depth + 1);
      };
      sortTree(groups, 0);
      const total = rows.find((r) => r.level === 0);
      return {
        source: name,
        title: source.title,
        dimensions: dims.map((d) => ({ name: d, label: source.dimensionLabels[d] ?? d })),
        sums: sums.map((s) => ({ name: s, label: source.sums[s]?.label ?? s, kind: source.sums[s]?.kind ?? 'count' })),
        range: { from: f.fromDay, to: f.toDay, timeZone: f.timeZone, weekStart: f.weekStart },
        groupBy: dims,
        groups,
        totals: total ? sumsOf(total) : Object.fromEntries(sums.map((s) => [s, 0])),
      };
    },
  };
}

export type SourceReports = ReturnType<typeof createSourceReports>;
