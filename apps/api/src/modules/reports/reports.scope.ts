import { MONEY_MEASURES, NO_ROUNDING, type ReportMeasure, type ReportQuery, reportRounding } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertFeature, moneyAccessOf } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import { reportsRepository as repo } from './reports.repository.js';
import { resolveScope } from './reports.sources.js';
import type { EngineFilter } from './reports.time-source.js';

type Filters = Omit<ReportQuery, 'groupBy'>;

export const moneyForbidden = (what: string) =>
  new AppError(
    'money_forbidden',
    `You may not see ${what} of some of the people in this report: filter it to people whose amounts you may see, or leave out the measure.`,
    { status: 403 },
  );

/**
 * What every time report resolves first: the engine's filter for the actor, and whether they may
 * see the money measures it asks for of everyone it can include.
 */
/** The rollups are read while at most one person-day of a report's range in this many is pending. */
export const PENDING_SHARE = 8;

export function createReportScope(db: Db, options: { rollups: boolean; pendingShare?: number }) {
  const rollupsPay = (workspaceId: string, fromDay: string, toDay: string) =>
    repo.rollupsPay(db, workspaceId, fromDay, toDay, options.pendingShare ?? PENDING_SHARE);

  /**
   * The engine's filter for the actor: range and zone resolved (the workspace's report zone
   * unless the query names one), scope applied, rounding chosen, and whether the rollups (kept
   * in the report zone with the stored rounding) may answer.
   */
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
        !q.description &&
        (await rollupsPay(scope.workspaceId, scope.fromDay, scope.toDay)),
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

  return { resolve, moneyCovered, assertMoney, rangeOf, rollupsPay };
}

export type ReportScope = ReturnType<typeof createReportScope>;
