import { type MarkInvoicedBody, parseReportParams } from '@sundial/core';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { analyzeTables, ROLLUP_TABLES } from '../../db/statistics.js';
import type { Actor } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import { defineJob } from '../../platform/jobs.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { createBudgets } from './reports.budgets.js';
import { createDetailed } from './reports.detailed.js';
import { type DetailedCellColumn, reportsRepository as repo } from './reports.repository.js';
import { createReportScope } from './reports.scope.js';
import { createSourceReports, type RegisteredSource } from './reports.sources.js';
import { createSummaries } from './reports.summaries.js';

export type { BudgetFigure } from './reports.budgets.js';
export type { DetailedCellColumn };

/** The most entries one "mark as invoiced" by filter changes. */
export const MAX_INVOICED_BY_FILTER = 10_000;

/** How many pending days one transaction of the rollups' fold recomputes (a few seconds at most). */
const PENDING_FOLD_DAYS = 250;
/** After how many batches of pending days the coarse tables' appended rows are folded too. */
const COMPACT_EVERY = 8;

/**
 * Reports: one engine (reports.engine.ts, over the time entries of reports.time-source.ts) for
 * the Summary, Detailed and matrix reports, the dashboard, the public API and the exports; this
 * file composes the per-concern parts (summaries, budgets, detailed) over one scope (who sees
 * what). A report covers whose time the actor sees (their own; a manager's people; everyone's for
 * owners and admins), disabled members included: hiding them from report lists hides their names
 * from pickers, never their time from totals. Money measures need the actor's money access for
 * everyone in the report: the Summary and matrix refuse (403 money_forbidden) rather than show partial
 * sums; the Detailed report leaves a row's amounts null when they are out of reach.
 * Running timers count up to now, as on the timesheet.
 */
export function createReportsService(
  db: Db,
  timeEntries: Pick<TimeEntriesService, 'setInvoiced' | 'markRollupsReady'>,
  projects: Pick<ProjectsService, 'budgets' | 'workspaceBudgets'>,
  options: {
    rollups: boolean;
    sources?: readonly RegisteredSource[];
    analyzeAfterRows?: number;
    /** `EngineFilter.pendingShare` (tests). */
    pendingShare?: number;
  } = { rollups: true },
) {
  const scope = createReportScope(db, options);
  const { resolve } = scope;
  return {
    resolve,

    /** Reports over the other sources of facts (reports.sources.ts). */
    sources: createSourceReports(db, options.sources ?? []),
    ...createSummaries(db, scope),
    ...createBudgets(db, scope, projects, options),
    ...createDetailed(db, scope),

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
     * Folds what writes left to the rollups, workspace by workspace (the same job, every minute):
     * the days they marked pending are recomputed into report_rollups, PENDING_FOLD_DAYS at a time,
     * each batch a short transaction; then the rows that appended to the coarse rollups
     * (report_rollups_tasks and the monthly ones) are folded into one row per key. Reads are exact
     * either way (they read pending days from the entries); folding keeps them fast. After a large
     * fold (an import's days: at least `analyzeAfterRows`, each day a row or more) the rollup tables
     * are analysed, as an import analyses the entries (0016). Answers how many days it folded.
     */
    async foldRollups(): Promise<number> {
      let days = 0;
      for (const workspaceId of await repo.unfoldedRollups(db)) {
        // The coarse tables folded every COMPACT_EVERY batches too, so no one transaction holds the database
        // long (PGlite's one connection: 100k entries over three years, 100,000 pending days, folded in 142 ms
        // at most a transaction, where one compaction at the end took 1.6 s; bench/rollups-fold.mjs).
        for (let n = PENDING_FOLD_DAYS, batch = 1; n === PENDING_FOLD_DAYS; days += n, batch++) {
          n = await repo.foldPendingDays(db, workspaceId, PENDING_FOLD_DAYS);
          if (batch % COMPACT_EVERY === 0) await repo.foldRollups(db, workspaceId);
        }
        await repo.foldRollups(db, workspaceId);
      }
      if (days >= (options.analyzeAfterRows ?? Number.POSITIVE_INFINITY)) await analyzeTables(db, ROLLUP_TABLES);
      return days;
    },

    /** The names of the people, projects, tags... a report's filters name (only this workspace's). */
    async filterNames(
      actor: Actor,
      q: Partial<Record<'users' | 'groups' | 'clients' | 'projects' | 'tasks' | 'tags', readonly string[]>>,
    ): Promise<Map<string, string>> {
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

export type ReportsService = ReturnType<typeof createReportsService>;

/** Rebuilds the report rollups a change of zone or rounding left stale (scheduled every minute). */
export const rebuildRollupsJob = defineJob('reports.rebuild-rollups', z.object({}));
