import {
  budgetNearPercent,
  budgetPercent,
  budgetStatus,
  DEFAULT_MEASURES,
  type DetailedEntryView,
  type DetailedReportQuery,
  type DetailedReportView,
  dayBounds,
  dayKey,
  type EstimatesReportQuery,
  type EstimatesReportView,
  type EstimateView,
  estimateTotals,
  MAX_REPORT_DAYS,
  type MarkInvoicedBody,
  type MatrixReportQuery,
  type MatrixReportView,
  MONEY_MEASURES,
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
  shiftDay,
} from '@sundial/core';
import type { RawBuilder } from 'kysely';
import { z } from 'zod';
import { copyOutFor, type Db } from '../../db/connection.js';
import { allows, assertFeature, type MoneyAccess, moneyAccessOf, seesMoneyOf } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import { defineJob } from '../../platform/jobs.js';
import type { BudgetLine, ProjectsService } from '../projects/projects.service.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import {
  compileDetailedCells,
  compileDetailedListing,
  compileDetailedPage,
  compileDetailedTotals,
  type DetailedAfter,
  type DetailedCellColumn,
  type DetailedRow,
  type DetailedSortKey,
  reportsRepository as repo,
  type SeenPeople,
  type StartPart,
} from './reports.repository.js';
import { createSourceReports, nestLevels, type RegisteredSource, resolveScope } from './reports.sources.js';
import {
  compileReport,
  type EngineFilter,
  type LevelRow,
  type LevelSum,
  type MeasureSums,
} from './reports.time-source.js';

export type { DetailedCellColumn };

/** A MoneyAccess set as the engine's list of people whose amounts show (null: everyone's). */
const peopleOf = (allowed: Set<string> | null): SeenPeople => (allowed === null ? null : [...allowed]);

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

/**
 * Reports: one engine (reports.engine, over the time entries of reports.time-source) for the Summary, Detailed and matrix reports, the
 * dashboard, the public API and the exports. A report covers whose time the actor sees (their
 * own; a manager's people; everyone's for owners and admins), disabled members included: hiding
 * them from report lists hides their names from pickers, never their time from totals. Money measures need the actor's money access for everyone
 * in the report: the Summary and matrix refuse (403 money_forbidden) rather than show partial
 * sums; the Detailed report leaves a row's amounts null when they are out of reach.
 * Running timers count up to now, as on the timesheet.
 */
export function createReportsService(
  db: Db,
  timeEntries: Pick<TimeEntriesService, 'setInvoiced' | 'markRollupsReady'>,
  projects: Pick<ProjectsService, 'budgets' | 'workspaceBudgets'>,
  options: { rollups: boolean; sources?: readonly RegisteredSource[] } = { rollups: true },
) {
  /**
   * The engine's filter for the actor: range and zone resolved (the workspace's report zone
   * unless the query names one), scope applied, rounding chosen, and whether the rollups (kept
   * in the report zone with the stored rounding) may answer.
   */
  /**
   * Ranges of starts that cut a listing into about `parts` equal parts, in start order; none
   * (copy it whole) when it holds fewer than `splitRows` entries or one start.
   */
  async function startParts(f: EngineFilter, parts: number, splitRows: number): Promise<StartPart[]> {
    const exact = splitRows === 0;
    const { splits, sampled } = await repo.startSplits(db, f, parts, exact);
    // A 1 % sample of the pages: each sampled entry stands for about a hundred.
    if (splits.length === 0 || (exact ? sampled : sampled * 100) < splitRows) return [];
    const bounds = [undefined, ...splits, undefined];
    return splits.concat('').map((_, i) => ({
      ...(bounds[i] === undefined ? {} : { from: bounds[i] }),
      ...(bounds[i + 1] === undefined ? {} : { to: bounds[i + 1] }),
    }));
  }

  async function resolve(actor: Actor, q: Filters, now = new Date()): Promise<EngineFilter> {
    const { stored, reportZone, ...scope } = await resolveScope(db, actor, q, 'time:view_others', now);
    const storedRounding = stored?.rounding ?? NO_ROUNDING;
    const rounding = reportRounding(q, storedRounding);
    const sameRounding =
      rounding.mode === storedRounding.mode &&
      (rounding.mode === 'none' || rounding.minutes === storedRounding.minutes);
    // Everyone's entries: the rollups without a person may answer. "Hide disabled users from lists
    // in reports" hides names from pickers only: totals count every entry the actor may see (issue 30).
    const allPeople = scope.scope === null && !q.users?.length && !q.groups?.length;
    const timeZone = scope.timeZone;
    return {
      ...scope,
      rounding,
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
      rollups:
        options.rollups &&
        stored?.rollupsReady !== false &&
        timeZone === reportZone &&
        sameRounding &&
        !q.tags?.length &&
        !q.withoutTag &&
        !q.description,
      allPeople,
    };
  }

  /** Whether the actor sees the billable amounts and the costs of everyone the report can include. */
  async function moneyCovered(actor: Actor, f: EngineFilter) {
    const access = await moneyAccessOf(db, actor);
    const people = f.users ? (f.scope ? f.users.filter((u) => f.scope?.includes(u)) : f.users) : f.scope;
    const covers = (allowed: Set<string> | null) => allowed === null || people?.every((p) => allowed.has(p)) === true;
    return { billable: covers(access.billableOf), cost: covers(access.costOf) };
  }

  /** 403 unless the actor may see each requested money measure for everyone the report can include. */
  async function assertMoney(actor: Actor, f: EngineFilter, measures: readonly ReportMeasure[]) {
    const wantsBillable = measures.some((m) => MONEY_MEASURES.includes(m) && m !== 'costAmount');
    const wantsCost = measures.includes('costAmount') || measures.includes('margin');
    if (!wantsBillable && !wantsCost) return;
    // Money in reports needs billing rates (Pro): a Free workspace asking for it is told so.
    assertFeature(actor, 'billing_rates');
    const covered = await moneyCovered(actor, f);
    if (wantsBillable && !covered.billable) throw moneyForbidden('billable amounts');
    if (wantsCost && !covered.cost) throw moneyForbidden('costs and margins');
  }

  const rangeOf = (f: EngineFilter) => ({ from: f.fromDay, to: f.toDay, timeZone: f.timeZone, weekStart: f.weekStart });

  /**
   * A Detailed row as the API gives it, its amounts shown only where the actor may see them, and
   * its invoice to those who manage invoices (`seesInvoices`).
   */
  const entryView = (r: DetailedRow, access: MoneyAccess, seesInvoices: boolean): DetailedEntryView => ({
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
    tagNames: r.tag_names,
    note: r.note,
    billable: r.billable,
    invoiced: r.invoiced_at !== null,
    start: new Date(r.start_at).toISOString(),
    end: r.end_at === null ? null : new Date(r.end_at).toISOString(),
    seconds: Number(r.seconds),
    billableAmount: seesMoneyOf(access.billableOf, r.user_id) ? Number(r.billable_cents) : null,
    costAmount: seesMoneyOf(access.costOf, r.user_id) ? Number(r.cost_cents) : null,
    invoice: seesInvoices && r.invoice_id ? { id: r.invoice_id, number: r.invoice_number } : null,
  });

  /** One keyset page of the Detailed report, each row's amounts shown only where the actor may see them. */
  /** A cursor's keyset; a description page's note comes from its entry, which must still be there. */
  async function afterOf(f: EngineFilter, sort: DetailedSortKey['sort'], cursor: string): Promise<DetailedAfter> {
    const after = readCursor(cursor);
    if (sort !== 'description') return after;
    const note = await repo.noteOf(db, f.workspaceId, after.id);
    if (note === undefined) throw badCursor();
    return { ...after, value: note };
  }

  async function detailedPage(
    f: EngineFilter,
    access: MoneyAccess,
    seesInvoices: boolean,
    sort: DetailedSortKey,
    after: DetailedAfter | undefined,
    limit: number,
  ): Promise<{ items: DetailedEntryView[]; next: DetailedAfter | null }> {
    const rows = await repo.detailed(
      db,
      compileDetailedPage(f, { sort: sort.sort, order: sort.order, after, limit: limit + 1 }),
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => entryView(r, access, seesInvoices)),
      next:
        rows.length > limit && last
          ? {
              // A description page's cursor holds no note text (it rides in URLs, and so in logs): the
              // note is read back by id when the next page is asked for (afterOf).
              value: sort.sort === 'duration' ? Number(last.seconds) : '',
              start: new Date(last.start_at).toISOString(),
              id: last.id,
            }
          : null,
    };
  }

  /**
   * The one budget computation (the Estimates report, the dashboard, the budget alerts): each
   * budget against what the engine counts for it in `f` (hours: tracked seconds, rounded as the
   * filter rounds; fees: billable cents), ONE statement grouped by project, task and month. A
   * budget over the project's life counts everything up to the range's last day; a monthly-reset
   * budget has one figure per month of the range (in the filter's zone), each counting its month.
   * A task's budget counts its subtasks. `budget` is in seconds for hours, cents for fees.
   */
  async function budgetFigures(f: EngineFilter, lines: BudgetLine[]): Promise<BudgetFigure[]> {
    if (!lines.length) return [];
    const months = monthsOf(f.fromDay, f.toDay);
    // Everything up to the range's end: ten years back, or the first month's start if earlier.
    const monthStart = `${months[0]}-01`;
    const tenYears = shiftDay(f.toDay, -(MAX_REPORT_DAYS - 1));
    const fromDay = monthStart < tenYears ? monthStart : tenYears;
    const life: EngineFilter = {
      ...f,
      fromDay,
      fromAt: new Date(dayBounds(fromDay, f.timeZone).startMs),
      projects: [...new Set(lines.map((l) => l.projectId))],
      withoutProject: false,
    };
    const rows = await repo.run(
      db,
      compileReport(life, {
        sets: [['project'], ['project', 'task'], ['project', 'month'], ['project', 'task', 'month']],
        dimensions: ['project', 'task', 'month'],
        countEntries: false,
      }),
    );
    const figure = (row: LevelRow, type: BudgetLine['type']) =>
      type === 'hours' ? Number(row.tracked) : Number(row.billable_cents);
    const usedOf = (line: BudgetLine, month: string | null) => {
      const level = (line.taskId ? 1 : 0) + (month ? 2 : 0);
      return rows
        .filter(
          (r) =>
            r.level === level &&
            r.k1 === line.projectId &&
            (!line.taskId || (r.k2 !== null && line.taskIds.includes(r.k2))) &&
            (!month || r.k3 === month),
        )
        .reduce((sum, r) => sum + figure(r, line.type), 0);
    };
    return lines.flatMap((line) =>
      (line.resetsMonthly ? months : [null]).map((month) => ({
        line,
        month,
        budget: line.type === 'hours' ? line.amount * 60 : line.amount,
        used: usedOf(line, month),
      })),
    );
  }

  return {
    resolve,

    /** Reports over the other sources of facts (reports.sources.ts). */
    sources: createSourceReports(db, options.sources ?? []),

    /** Summary: groups nested up to three levels, each with its subtotal, and the totals. */
    async summary(actor: Actor, q: ReportQuery, now = new Date()): Promise<SummaryReportView> {
      const f = await resolve(actor, q, now);
      const measures = q.measures?.length ? q.measures : DEFAULT_MEASURES;
      await assertMoney(actor, f, measures);
      const dims = q.groupBy ?? [];
      const sets = [[], ...dims.map((_, i) => dims.slice(0, i + 1))];
      const rows = await repo.run(
        db,
        compileReport(f, {
          sets,
          dimensions: dims,
          countEntries: measures.includes('entryCount'),
          sums: new Set(measures.flatMap((m) => SUMS_OF[m])),
        }),
      );
      const total = rows.find((r) => r.level === 0);
      const roots = nestLevels(rows, (row, i): ReportGroup => {
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
      });
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

    /**
     * Estimates: each hour and fee budget of the projects and tasks the actor sees against what
     * the engine counts for it (`budgetFigures`), with the report's filters and scope. Fee budgets
     * need the billable amounts of everyone in the report, else their figures are left out
     * (moneyHidden). The totals add each kind's budgets once (`estimateTotals`).
     */
    async estimates(actor: Actor, q: EstimatesReportQuery, now = new Date()): Promise<EstimatesReportView> {
      assertFeature(actor, 'budgets');
      const f = await resolve(actor, q, now);
      const lines = await projects.budgets(actor, { projectIds: q.projects, clientIds: q.clients });
      const hasFee = lines.some((l) => l.type === 'fee');
      const seesFees = hasFee ? (await moneyCovered(actor, f)).billable : true;
      const figures = await budgetFigures(f, lines);
      const items: EstimateView[] = figures.map(({ line, month, budget, used }) => {
        const base = {
          projectId: line.projectId,
          projectName: line.projectName,
          projectColor: line.projectColor,
          clientName: line.clientName,
          taskId: line.taskId,
          taskName: line.taskName,
          type: line.type,
          resetsMonthly: line.resetsMonthly,
          month,
        };
        if (line.type === 'fee' && !seesFees)
          return { ...base, budget: null, used: null, remaining: null, percent: null, status: 'hidden' };
        return {
          ...base,
          budget,
          used,
          remaining: budget - used,
          percent: budgetPercent(used, budget),
          status: budgetStatus(used, budget, budgetNearPercent(line.alertPercents)),
        };
      });
      return {
        range: rangeOf(f),
        items,
        totals: estimateTotals(figures, seesFees),
        moneyHidden: hasFee && !seesFees,
      };
    },

    /**
     * The workspace's budgets of these projects as its owners' dashboard shows them (the Estimates
     * report of this month in the report time zone, everyone's time, the stored rounding): each with
     * its period ('total', or the month of a monthly budget). The budget alerts count with it.
     */
    async workspaceBudgets(workspaceId: string, projectIds: string[], now = new Date()): Promise<BudgetFigure[]> {
      const lines = await projects.workspaceBudgets(workspaceId, projectIds);
      if (!lines.length) return [];
      const stored = await repo.reportSettings(db, workspaceId);
      const timeZone = stored?.timeZone ?? 'UTC';
      const { from, to } = resolvePreset('thisMonth', dayKey(now, timeZone), 'monday');
      const f: EngineFilter = {
        workspaceId,
        fromAt: new Date(dayBounds(from, timeZone).startMs),
        toAt: new Date(dayBounds(to, timeZone).endMs),
        fromDay: from,
        toDay: to,
        timeZone,
        weekStart: 'monday',
        rounding: stored?.rounding ?? NO_ROUNDING,
        now,
        scope: null,
        tagMode: 'any',
        rollups: options.rollups && stored?.rollupsReady !== false,
        allPeople: true,
      };
      return budgetFigures(f, lines);
    },

    /** Detailed: every entry overlapping the range, one keyset page at a time. */
    async detailed(actor: Actor, q: DetailedReportQuery, now = new Date()): Promise<DetailedReportView> {
      const f = await resolve(actor, q, now);
      const access = await moneyAccessOf(db, actor);
      const { items, next } = await detailedPage(
        f,
        access,
        allows(actor.membership, 'invoices:manage'),
        q,
        q.cursor ? await afterOf(f, q.sort, q.cursor) : undefined,
        q.limit,
      );
      return { range: rangeOf(f), items, nextCursor: next ? writeCursor(next) : null };
    },

    /**
     * The whole Detailed report as ONE statement read through a cursor, `chunkSize` entries at a
     * time (for exports: memory holds one chunk, whatever the report's size): the rows of
     * `detailed`'s pages, in their order. Filters are resolved (and refused) before this returns;
     * the statement runs when the first chunk is read, and holds a database connection (on PGlite
     * the only one) until the last is read or the reader stops: read it after every other query.
     */
    async detailedStream(
      actor: Actor,
      q: Omit<DetailedReportQuery, 'cursor' | 'limit'>,
      chunkSize = 2000,
      now = new Date(),
    ) {
      const f = await resolve(actor, q, now);
      const access = await moneyAccessOf(db, actor);
      async function* chunks(): AsyncGenerator<DetailedEntryView[]> {
        for await (const rows of repo.stream(db, compileDetailedListing(f, q), chunkSize))
          yield rows.map((r) => entryView(r, access, false));
      }
      return { range: rangeOf(f), access, chunks: chunks() };
    },

    /**
     * Rebuilds the rollups a change of the report zone or rounding left stale (the job
     * `rebuildRollupsJob`, every minute): one person at a time, each in a short transaction, so
     * writers wait at most for their own person's rebuild; reports read the entries until the
     * workspace is marked ready. Answers how many workspaces it made ready.
     */
    async rebuildStaleRollups(): Promise<number> {
      let ready = 0;
      for (const stale of await repo.staleRollups(db)) {
        for (const person of await repo.rollupPeople(db, stale.workspace_id))
          await repo.rebuildPersonRollups(db, stale.workspace_id, person);
        await repo.rebuildCoarseRollups(db, stale.workspace_id);
        if (await timeEntries.markRollupsReady(stale.workspace_id, stale.rollups_version)) ready++;
      }
      return ready;
    },

    /**
     * Folds the rows the triggers appended to the coarse rollups (report_rollups_tasks and the
     * monthly ones) into one row per key, workspace by workspace (the same job, every minute):
     * reads sum a key's rows either way, folding keeps them few. Answers how many workspaces.
     */
    async foldRollups(): Promise<number> {
      const workspaces = await repo.unfoldedRollups(db);
      for (const workspaceId of workspaces) await repo.foldRollups(db, workspaceId);
      return workspaces.length;
    },

    /**
     * The Detailed report as CSV that PostgreSQL writes itself (`COPY … TO STDOUT`): the rows of
     * `detailedStream`, in its order, each laid out by `cells` (SQL over `d.<DetailedCellColumn>`,
     * chosen knowing what money the actor sees and the report's zone), and the listing's totals
     * counted in the same snapshot while it streams (`totals` settles by the time the copy ends,
     * usually long before). A million rows then cost Node no parsing or objects (bench/README.md,
     * Exports). Sorted by start, a listing of at least `splitRows` entries (by a 1 % sample; 0:
     * always, from exact quantiles) is copied in `parts` ranges of starts at once, on as many
     * connections, which keeps that many database cores busy; the bytes are the same. Null on
     * PGlite, which cannot copy to a client: read `detailedStream` there. The CSV stream holds its
     * connections until it is read to the end or destroyed.
     */
    async detailedCsv(
      actor: Actor,
      q: Omit<DetailedReportQuery, 'cursor' | 'limit'>,
      cells: (context: { access: MoneyAccess; timeZone: string }) => RawBuilder<unknown>[],
      o: { parts?: number; splitRows?: number; now?: Date } = {},
    ) {
      const copyOut = copyOutFor(db);
      if (!copyOut) return null;
      const f = await resolve(actor, q, o.now);
      const access = await moneyAccessOf(db, actor);
      const seen = { billable: peopleOf(access.billableOf), cost: peopleOf(access.costOf) };
      const laidOut = cells({ access, timeZone: f.timeZone });
      const parts = q.sort === 'start' && (o.parts ?? 1) > 1 ? await startParts(f, o.parts ?? 1, o.splitRows ?? 0) : [];
      if (q.order === 'desc') parts.reverse();
      const { beside, csv } = await copyOut({
        beside: [compileDetailedTotals(f, seen).compile(db)],
        copies: (parts.length ? parts : [undefined]).map((part) =>
          compileDetailedCells(f, q, seen, laidOut, part).compile(db),
        ),
        // The listing's sort of a large export fits in memory instead of spilling to disk.
        workMem: '128MB',
      });
      const amount = (value: unknown) => (value === null || value === undefined ? null : Number(value));
      const totals = beside.then(([rows]) => {
        const t = rows?.[0] ?? {};
        return {
          entries: Number(t.entries ?? 0),
          seconds: Number(t.seconds ?? 0),
          billableAmount: amount(t.billable_cents),
          costAmount: amount(t.cost_cents),
        };
      });
      // Read with the last line, maybe never (a reader gone early).
      totals.catch(() => undefined);
      return {
        range: rangeOf(f),
        access,
        totals,
        csv,
      };
    },

    /**
     * How many entries the Detailed report lists for the actor (its rows), counted without reading
     * them; with `limit`, counting stops there (enough to tell "more than limit"). Throws as the report does.
     */
    async detailedCount(
      actor: Actor,
      q: Omit<DetailedReportQuery, 'cursor' | 'limit'>,
      limit?: number,
      now = new Date(),
    ): Promise<number> {
      const f = await resolve(actor, q, now);
      return repo.entryCount(db, f, limit);
    },

    /** The names of the people, projects, tags... a report's filters name (only this workspace's). */
    async filterNames(actor: Actor, q: Filters): Promise<Map<string, string>> {
      const rows = await repo.filterNames(db, actor.membership.workspace.id, q);
      return new Map(rows.map((r) => [`${r.kind}:${r.id}`, r.name]));
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

/** The months ("2026-11") from the month of `from` to the month of `to`. */
function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    months.push(key);
    if (key >= last) return months;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
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

/** One budget in one period, as `budgetFigures` counts it (seconds for hours, cents for fees). */
export interface BudgetFigure {
  line: BudgetLine;
  /** The month ('2026-11') of a monthly budget, null for one over the project's life. */
  month: string | null;
  budget: number;
  used: number;
}

/** Rebuilds the report rollups a change of zone or rounding left stale (scheduled every minute). */
export const rebuildRollupsJob = defineJob('reports.rebuild-rollups', z.object({}));
