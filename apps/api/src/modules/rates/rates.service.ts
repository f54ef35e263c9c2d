import {
  amountCents,
  type CreateRateBody,
  type RateHistoryView,
  type RateTarget,
  type ReapplyPreview,
  type ReapplyRatesBody,
  rateMessages,
  type UpdateRateSettingsBody,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { RateRow } from '../../db/tables/rates.js';
import {
  allows,
  assertCan,
  assertFeature,
  levelRatesAccess,
  moneyAccessOf,
  seesMoneyOf,
} from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, type ConstraintTable, mapConstraints, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { RepricedEntry, RepriceSelection, TimeEntriesService } from '../time-entries/time-entries.service.js';
import { presentRate, presentRateSettings } from './rates.presenter.js';
import { ratesRepository as repo } from './rates.repository.js';

const RATE_CONSTRAINTS: ConstraintTable = {
  rates_key: { message: rateMessages.sameDay, field: 'effectiveFrom', status: 409 },
  rates_workspace_id_user_id_fkey: { message: 'Member not found.', field: 'userId', status: 422 },
  rates_workspace_id_project_id_fkey: { message: 'Project not found.', field: 'projectId', status: 422 },
  rates_workspace_id_project_id_task_id_fkey: { message: 'Task not found.', field: 'taskId', status: 422 },
};

/** Entries a preview lists one by one; the count and totals cover them all. */
const PREVIEW_LIMIT = 500;

type Target = Pick<RateRow, 'level' | 'user_id' | 'project_id' | 'task_id'>;

/**
 * The target a level needs, checked: the member, project and task its level names and nothing else
 * (a task rate is kept with the task's project). Throws 422 naming the missing or extra field.
 */
async function targetOf(db: Db, workspaceId: string, t: RateTarget): Promise<Target> {
  const needs = {
    workspace: [],
    member: ['userId'],
    project: ['projectId'],
    project_member: ['projectId', 'userId'],
    task: ['taskId'],
  }[t.level] as ('userId' | 'projectId' | 'taskId')[];
  const names = { userId: 'member', projectId: 'project', taskId: 'task' } as const;
  for (const field of ['userId', 'projectId', 'taskId'] as const) {
    const given = t[field] !== undefined;
    if (needs.includes(field) && !given) throw validationError({ [field]: rateMessages.targetMissing(names[field]) });
    if (!needs.includes(field) && given)
      throw validationError({ [field]: `A ${t.level.replace('_', ' ')} rate has no ${names[field]}.` });
  }
  let projectId = t.projectId ?? null;
  if (t.level === 'task') {
    projectId = (await repo.findTaskProject(db, workspaceId, t.taskId ?? '')) ?? null;
    if (!projectId) throw validationError({ taskId: 'Task not found.' });
  }
  return { level: t.level, user_id: t.userId ?? null, project_id: projectId, task_id: t.taskId ?? null };
}

const selectionOf = (t: Target, range: { from: string; to: string }): RepriceSelection => ({
  ...(t.user_id ? { userId: t.user_id } : {}),
  ...(t.task_id ? { taskId: t.task_id } : t.project_id ? { projectId: t.project_id } : {}),
  from: range.from,
  to: range.to,
});

function amounts(e: RepricedEntry, billableRate: number | null, costRate: number | null) {
  const seconds = e.duration_seconds ?? 0;
  return {
    billableRateCents: billableRate,
    billableAmountCents: billableRate !== null && e.billable ? amountCents(billableRate, seconds) : 0,
    costRateCents: costRate,
    costAmountCents: costRate === null ? 0 : amountCents(costRate, seconds),
  };
}

/**
 * Which parts of a level's rates the actor may read, by the rules of money on entries in access.ts
 * (`moneyAccessOf`): those who manage rates all; a level naming a person (member, project member)
 * as far as the actor sees that person's billable amounts and costs; the workspace, project and
 * task levels, which price everyone's time on them, as `levelRatesAccess` says (managers: billable,
 * costs only when the workspace lets managers see costs; never members and guests).
 */
async function readableParts(db: Db, actor: Actor, t: Target): Promise<{ billable: boolean; cost: boolean }> {
  if (allows(actor.membership, 'rates:manage')) return { billable: true, cost: true };
  const access = await moneyAccessOf(db, actor);
  if (t.user_id !== null)
    return { billable: seesMoneyOf(access.billableOf, t.user_id), cost: seesMoneyOf(access.costOf, t.user_id) };
  return levelRatesAccess(actor, access);
}

const ratesHidden = () =>
  new AppError('forbidden', 'You may not see these rates: ask an owner or admin of the workspace.', { status: 403 });

/**
 * Rates at five levels with their history, the workspace's rate settings, and re-applying the
 * rates in force to entries already saved; all of it but the settings' reading needs billing rates
 * (Pro), a Free workspace keeping its rates untouched. Owners and admins only (rates:manage), except reading
 * the settings (every member formats money in the workspace's currency) and reading a level's
 * history as far as the reader sees that money (`readableParts`).
 */
export function createRatesService(db: Db, timeEntries: TimeEntriesService) {
  return {
    async settings(actor: Actor) {
      return presentRateSettings(await repo.findSettings(db, actor.membership.workspace.id));
    },

    async updateSettings(actor: Actor, body: UpdateRateSettingsBody) {
      assertCan(actor, 'rates:manage');
      assertFeature(actor, 'billing_rates');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        await repo.upsertSettings(tx, workspaceId, {
          ...(body.currency !== undefined ? { currency: body.currency.toUpperCase() } : {}),
          ...(body.managersSeeCosts !== undefined ? { managers_see_costs: body.managersSeeCosts } : {}),
          ...(body.membersSeeOwnBillable !== undefined ? { members_see_own_billable: body.membersSeeOwnBillable } : {}),
        });
        await audit(tx, {
          action: 'rate_settings.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: workspaceId,
          detail: { ...body },
        });
        return presentRateSettings(await repo.findSettings(tx, workspaceId));
      });
    },

    /**
     * The history of one level's rate (newest first), as far as the actor may read it
     * (`readableParts`): without cost rates for those who may not see costs, and without the rows
     * that then show nothing. 403 when the actor may read none of it.
     */
    async list(actor: Actor, target: RateTarget): Promise<RateHistoryView> {
      // Kept while the workspace is on Free, shown again when it upgrades.
      assertFeature(actor, 'billing_rates');
      const workspaceId = actor.membership.workspace.id;
      const level = await targetOf(db, workspaceId, target);
      const parts = await readableParts(db, actor, level);
      if (!parts.billable && !parts.cost) throw ratesHidden();
      const rows = await repo.list(db, workspaceId, level);
      return {
        items: rows
          .filter((r) => (parts.billable && r.billable_cents !== null) || (parts.cost && r.cost_cents !== null))
          .map((r) => presentRate(r, parts.cost)),
        costsShown: parts.cost,
        canChange: allows(actor.membership, 'rates:manage'),
      };
    },

    /** A new rate of a level from a day on; earlier rows stay as its history. */
    async create(actor: Actor, body: CreateRateBody) {
      assertCan(actor, 'rates:manage');
      assertFeature(actor, 'billing_rates');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const target = await targetOf(tx, workspaceId, body);
        const id = newId();
        await mapConstraints(RATE_CONSTRAINTS, () =>
          repo.insert(tx, {
            id,
            workspace_id: workspaceId,
            ...target,
            effective_from: body.effectiveFrom,
            billable_cents: body.billableCents ?? null,
            cost_cents: body.costCents ?? null,
            created_by_user_id: actor.userId,
          }),
        );
        await audit(tx, {
          action: 'rate.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { level: body.level, effectiveFrom: body.effectiveFrom },
        });
        const row = await repo.find(tx, workspaceId, id);
        if (!row) throw notFound('Rate not found.');
        return presentRate(row);
      });
    },

    /** Deletes a mistaken or future rate; entries keep the rates they copied. */
    async remove(actor: Actor, id: string): Promise<void> {
      assertCan(actor, 'rates:manage');
      assertFeature(actor, 'billing_rates');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const row = await repo.find(tx, workspaceId, id);
        if (!row) throw notFound('Rate not found.');
        await repo.delete(tx, workspaceId, id);
        await audit(tx, {
          action: 'rate.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { level: row.level, effectiveFrom: row.effective_from },
        });
      });
    },

    /** What re-applying would change: the entries, their old and new rates and amounts, totals. */
    async reapplyPreview(actor: Actor, body: ReapplyRatesBody): Promise<ReapplyPreview> {
      assertCan(actor, 'rates:manage');
      assertFeature(actor, 'billing_rates');
      const workspaceId = actor.membership.workspace.id;
      const target = await targetOf(db, workspaceId, body);
      const all = await timeEntries.repriceCandidates(db, timeEntries.writerOf(actor), selectionOf(target, body));
      const rows = all.filter((e) => e.lock === null && !e.invoiced);
      // An entry both locked and invoiced is counted once, as locked.
      const locked = all.filter((e) => e.lock !== null).length;
      const invoiced = all.filter((e) => e.lock === null && e.invoiced).length;
      const entries = rows.map((e) => ({
        id: e.id,
        userId: e.user_id,
        start: new Date(e.start_at).toISOString(),
        durationSeconds: e.duration_seconds ?? 0,
        billable: e.billable,
        old: amounts(e, e.billable_rate_cents, e.cost_rate_cents),
        new: amounts(e, e.new_billable_rate_cents, e.new_cost_rate_cents),
      }));
      const total = (which: 'old' | 'new') => ({
        billableAmountCents: entries.reduce((sum, e) => sum + e[which].billableAmountCents, 0),
        costAmountCents: entries.reduce((sum, e) => sum + e[which].costAmountCents, 0),
      });
      return {
        count: entries.length,
        leftOut: { locked, invoiced, message: rateMessages.leftOut(locked, invoiced) },
        entries: entries.slice(0, PREVIEW_LIMIT),
        totals: { old: total('old'), new: total('new') },
      };
    },

    /** Re-applies the rates in force to the same selection as the preview, in one transaction. */
    async reapply(actor: Actor, body: ReapplyRatesBody): Promise<{ updated: number }> {
      assertCan(actor, 'rates:manage');
      assertFeature(actor, 'billing_rates');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const target = await targetOf(tx, workspaceId, body);
        const updated = await timeEntries.reprice(tx, timeEntries.writerOf(actor), selectionOf(target, body));
        await audit(tx, {
          action: 'rates.reapplied',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: target.task_id ?? target.project_id ?? target.user_id ?? workspaceId,
          detail: { level: body.level, from: body.from, to: body.to, updated },
        });
        return { updated };
      });
    },
  };
}

export type RatesService = ReturnType<typeof createRatesService>;
