import {
  can,
  DEFAULT_MEASURES,
  type DetailedReportQuery,
  type DetailedReportView,
  dayBounds,
  dayKey,
  type MarkInvoicedBody,
  type MatrixReportQuery,
  type MatrixReportView,
  NO_ROUNDING,
  parseReportParams,
  type ReportDimension,
  type ReportGroup,
  type ReportKey,
  type ReportMeasure,
  type ReportMeasures,
  type ReportQuery,
  reportRounding,
  resolvePreset,
  type SummaryReportView,
  type WeekStart,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { moneyAccessOf, othersTimeScope } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import {
  compileDetailedPage,
  compileReport,
  type DetailedAfter,
  type EngineFilter,
  type LevelRow,
  type MeasureSums,
  reportsRepository as repo,
} from './reports.repository.js';

/** The most entries one "mark as invoiced" by filter changes. */
export const MAX_INVOICED_BY_FILTER = 10_000;

type Filters = Omit<ReportQuery, 'groupBy'>;

export const moneyForbidden = (what: string) =>
  new AppError(
    'money_forbidden',
    `You may not see ${what} of some of the people in this report: filter it to people whose amounts you may see, or leave out the measure.`,
    { status: 403 },
  );

const NONE_LABEL: Record<ReportDimension, string> = {
  user: 'Unknown user',
  group: 'Without group',
  client: 'Without client',
  project: 'Without project',
  task: 'Without task',
  tag: 'Without tag',
  billable: '',
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
  else if (dimension === 'description') label = key === '' ? '(no description)' : key;
  else if (ORDERED_BY_KEY.has(dimension)) label = key;
  else label = name ?? 'Deleted';
  return { key, label, ...(color !== null ? { color } : {}), ...(dimension === 'task' ? { parent } : {}) };
}

function measuresOf(row: MeasureSums, measures: readonly ReportMeasure[]): ReportMeasures {
  const billable = Number(row.billable_cents);
  const cost = Number(row.cost_cents);
  const all: Required<ReportMeasures> = {
    trackedSeconds: Number(row.tracked),
    billableSeconds: Number(row.billable_seconds),
    billableAmount: billable,
    costAmount: cost,
    margin: billable - cost,
    entryCount: Number(row.entries ?? 0),
  };
  return Object.fromEntries(measures.map((m) => [m, all[m]]));
}

const EMPTY: MeasureSums = { tracked: 0, billable_seconds: 0, billable_cents: 0, cost_cents: 0, entries: 0 };

function compareKeys(dimension: ReportDimension) {
  return (a: ReportGroup, b: ReportGroup) => {
    if (a.key.key === null || b.key.key === null) return a.key.key === null ? (b.key.key === null ? 0 : 1) : -1;
    if (ORDERED_BY_KEY.has(dimension)) return a.key.key.localeCompare(b.key.key);
    if (dimension === 'billable') return a.key.key === 'true' ? -1 : 1;
    return a.key.label.localeCompare(b.key.label) || a.key.key.localeCompare(b.key.key);
  };
}

const rowKey = (row: LevelRow, i: number) => [row.k1, row.k2, row.k3][i] ?? null;

/**
 * Reports: one engine (reports.repository) for the Summary, Detailed and matrix reports, the
 * dashboard, the public API and the exports. A report covers whose time the actor sees (their
 * own; a manager's people; everyone's for owners and admins), without disabled members when the
 * workspace hides them from reports. Money measures need the actor's money access for everyone
 * in the report: the Summary and matrix refuse (403 money_forbidden) rather than show partial
 * sums; the Detailed report leaves a row's amounts null when they are out of reach.
 * Running timers count up to now, as on the timesheet.
 */
export function createReportsService(db: Db, timeEntries: Pick<TimeEntriesService, 'setInvoiced'>) {
  /** The engine's filter for the actor: range and zone resolved, scope applied, rounding chosen. */
  async function resolve(actor: Actor, q: Filters, now = new Date()): Promise<EngineFilter> {
    const timeZone = q.timeZone ?? actor.user.time_zone;
    const weekStart = (q.weekStart ?? actor.user.week_start) as WeekStart;
    const { from, to } = resolvePreset(q.preset, dayKey(now, timeZone), weekStart, q);
    const workspace = actor.membership.workspace;
    const rounding = reportRounding(q, (await repo.workspaceRounding(db, workspace.id)) ?? NO_ROUNDING);
    let scope: string[] | null = [actor.userId];
    if (can(actor.membership.role, 'time:view_others')) {
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
      rounding,
      now,
      scope,
      hideDisabled: workspace.hide_disabled_users,
      users: q.users,
      groups: q.groups,
      clients: q.clients,
      projects: q.projects,
      tasks: q.tasks,
      tags: q.tags,
      tagMode: q.tagMode,
      billable: q.billable,
      invoiced: q.invoiced,
      description: q.description,
      withoutProject: q.withoutProject,
      withoutTag: q.withoutTag,
    };
  }

  /** 403 unless the actor may see each requested money measure for everyone the report can include. */
  async function assertMoney(actor: Actor, f: EngineFilter, measures: readonly ReportMeasure[]) {
    const wantsBillable = measures.includes('billableAmount') || measures.includes('margin');
    const wantsCost = measures.includes('costAmount') || measures.includes('margin');
    if (!wantsBillable && !wantsCost) return;
    const access = await moneyAccessOf(db, actor);
    const people = f.users ? (f.scope ? f.users.filter((u) => f.scope?.includes(u)) : f.users) : f.scope;
    const covers = (allowed: Set<string> | null) => allowed === null || people?.every((p) => allowed.has(p)) === true;
    if (wantsBillable && !covers(access.billableOf)) throw moneyForbidden('billable amounts');
    if (wantsCost && !covers(access.costOf)) throw moneyForbidden('costs and margins');
  }

  const rangeOf = (f: EngineFilter) => ({ from: f.fromDay, to: f.toDay, timeZone: f.timeZone, weekStart: f.weekStart });

  return {
    resolve,

    /** Summary: groups nested up to three levels, each with its subtotal, and the totals. */
    async summary(actor: Actor, q: ReportQuery, now = new Date()): Promise<SummaryReportView> {
      const f = await resolve(actor, q, now);
      const measures = q.measures?.length ? q.measures : DEFAULT_MEASURES;
      await assertMoney(actor, f, measures);
      const dims = q.groupBy ?? [];
      const sets = [[], ...dims.map((_, i) => dims.slice(0, i + 1))];
      const rows = await repo.run(
        db,
        compileReport(f, { sets, dimensions: dims, countEntries: measures.includes('entryCount') }),
      );
      const total = rows.find((r) => r.level === 0);
      const nodes = new Map<string, ReportGroup>();
      const roots: ReportGroup[] = [];
      for (const row of [...rows].sort((a, b) => a.level - b.level)) {
        if (row.level === 0) continue;
        const i = row.level - 1;
        const dimension = dims[i] as ReportDimension;
        const labels = [row.n1, row.n2, row.n3];
        const colors = [row.c1, row.c2, row.c3];
        const parents = [row.p1, row.p2, row.p3];
        const group: ReportGroup = {
          dimension,
          key: keyView(dimension, rowKey(row, i), labels[i] ?? null, colors[i] ?? null, parents[i] ?? null),
          measures: measuresOf(row, measures),
        };
        const path = JSON.stringify([0, 1, 2].slice(0, row.level).map((j) => rowKey(row, j)));
        nodes.set(path, group);
        if (i === 0) roots.push(group);
        else {
          const parent = nodes.get(JSON.stringify([0, 1, 2].slice(0, i).map((j) => rowKey(row, j))));
          if (parent) parent.children = [...(parent.children ?? []), group];
        }
      }
      const sortTree = (groups: ReportGroup[]) => {
        const first = groups[0];
        if (first) groups.sort(compareKeys(first.dimension));
        for (const g of groups) if (g.children) sortTree(g.children);
      };
      sortTree(roots);
      return {
        range: rangeOf(f),
        groupBy: dims,
        measures,
        groups: roots,
        totals: measuresOf(total ?? EMPTY, measures),
      };
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

    /** Detailed: every entry overlapping the range, one keyset page at a time. */
    async detailed(actor: Actor, q: DetailedReportQuery, now = new Date()): Promise<DetailedReportView> {
      const f = await resolve(actor, q, now);
      const access = await moneyAccessOf(db, actor);
      const rows = await repo.detailed(
        db,
        compileDetailedPage(f, {
          sort: q.sort,
          order: q.order,
          after: q.cursor ? readCursor(q.cursor) : undefined,
          limit: q.limit + 1,
        }),
      );
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      const sees = (allowed: Set<string> | null, userId: string) => allowed === null || allowed.has(userId);
      return {
        range: rangeOf(f),
        items: page.map((r) => ({
          id: r.id,
          userId: r.user_id,
          userName: r.user_name,
          projectId: r.project_id,
          projectName: r.project_name,
          projectColor: r.project_color,
          clientName: r.client_name,
          taskId: r.task_id,
          taskName: r.task_name,
          tagIds: r.tag_ids,
          note: r.note,
          billable: r.billable,
          invoiced: r.invoiced_at !== null,
          start: new Date(r.start_at).toISOString(),
          end: r.end_at === null ? null : new Date(r.end_at).toISOString(),
          seconds: Number(r.seconds),
          billableAmount: sees(access.billableOf, r.user_id) ? Number(r.billable_cents) : null,
          costAmount: sees(access.costOf, r.user_id) ? Number(r.cost_cents) : null,
        })),
        nextCursor:
          rows.length > q.limit && last
            ? writeCursor({
                value:
                  q.sort === 'duration' ? (last.duration_seconds ?? -1) : q.sort === 'description' ? last.note : '',
                start: new Date(last.start_at).toISOString(),
                id: last.id,
              })
            : null,
      };
    },

    /** Marks the given entries, or every entry a report's filters list, invoiced or not. */
    async markInvoiced(actor: Actor, body: MarkInvoicedBody, now = new Date()): Promise<{ updated: number }> {
      let ids = body.ids;
      if (ids === undefined) {
        const parsed = parseReportParams(new URLSearchParams(body.filter ?? ''));
        if (!parsed.success)
          throw new AppError('validation_failed', `The filter is not valid: ${parsed.error.issues[0]?.message}`, {
            status: 422,
            fields: { filter: parsed.error.issues[0]?.message ?? 'Not valid.' },
          });
        const f = await resolve(actor, parsed.data, now);
        ids = await repo.entryIds(db, f, MAX_INVOICED_BY_FILTER);
        if (ids.length > MAX_INVOICED_BY_FILTER)
          throw new AppError(
            'too_many_entries',
            `More than ${MAX_INVOICED_BY_FILTER.toLocaleString('en-US')} entries match: narrow the filter.`,
            { status: 422 },
          );
        if (ids.length === 0) return { updated: 0 };
      }
      return { updated: await timeEntries.setInvoiced(actor, ids, body.invoiced) };
    },
  };
}

function writeCursor(after: DetailedAfter): string {
  return Buffer.from(JSON.stringify([after.value, after.start, after.id])).toString('base64url');
}

const badCursor = () =>
  new AppError('invalid_cursor', 'This page link is no longer valid: start again from the first page.', {
    status: 400,
  });

function readCursor(cursor: string): DetailedAfter {
  try {
    const [value, start, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      (typeof value !== 'string' && typeof value !== 'number') ||
      typeof start !== 'string' ||
      Number.isNaN(Date.parse(start)) ||
      typeof id !== 'string' ||
      !/^[0-9a-f-]{36}$/i.test(id)
    )
      throw badCursor();
    return { value, start, id };
  } catch {
    throw badCursor();
  }
}

export type ReportsService = ReturnType<typeof createReportsService>;
