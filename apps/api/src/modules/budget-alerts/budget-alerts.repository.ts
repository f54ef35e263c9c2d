import type { BudgetType } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { newId } from '../../platform/ids.js';

/** A project's or a task's budget (`amount`: minutes for hours, cents for a fee). */
export interface BudgetRow {
  project_id: string;
  project_name: string;
  task_id: string | null;
  task_name: string | null;
  budget_type: BudgetType;
  budget_amount: number;
  budget_resets_monthly: boolean;
  /** The budget's own thresholds, sorted; [] sends no alerts. */
  budget_alert_percents: number[];
}

export const budgetAlertsRepository = {
  async workspace(db: Db, workspaceId: string) {
    return db
      .selectFrom('workspaces')
      .select(['name', 'plan', 'trial_ends_at'])
      .where('id', '=', workspaceId)
      .executeTakeFirst();
  },

  /** The budgets of the projects and tasks these entries are on (entries deleted since count for nothing). */
  async budgetsOf(db: Db, workspaceId: string, entryIds: string[]): Promise<BudgetRow[]> {
    if (entryIds.length === 0) return [];
    const entries = db.selectFrom('time_entries').where('workspace_id', '=', workspaceId).where('id', 'in', entryIds);
    const projects = await db
      .selectFrom('projects as p')
      .select([
        'p.id as project_id',
        'p.name as project_name',
        sql<string | null>`null::uuid`.as('task_id'),
        sql<string | null>`null::text`.as('task_name'),
        'p.budget_type',
        sql<number>`p.budget_amount::float8`.as('budget_amount'),
        'p.budget_resets_monthly',
        'p.budget_alert_percents',
      ])
      .where('p.workspace_id', '=', workspaceId)
      .where('p.budget_type', 'is not', null)
      .where('p.id', 'in', entries.select('project_id').where('project_id', 'is not', null))
      .execute();
    const tasks = await db
      .selectFrom('tasks as t')
      .innerJoin('projects as p', 'p.id', 't.project_id')
      .select([
        't.project_id',
        'p.name as project_name',
        't.id as task_id',
        't.name as task_name',
        't.budget_type',
        sql<number>`t.budget_amount::float8`.as('budget_amount'),
        't.budget_resets_monthly',
        't.budget_alert_percents',
      ])
      .where('t.workspace_id', '=', workspaceId)
      .where('t.budget_type', 'is not', null)
      .where('t.id', 'in', entries.select('task_id').where('task_id', 'is not', null))
      .execute();
    return [...projects, ...tasks] as BudgetRow[];
  },

  /**
   * What a budget has used in [from, to) (all time without `from`): work seconds of its stopped
   * entries for hours, their billable amounts in cents (rounded as the reports do) for a fee.
   */
  async used(db: Db, workspaceId: string, b: BudgetRow, from?: Date, to?: Date): Promise<number> {
    let q = db
      .selectFrom('time_entries as e')
      .where('e.workspace_id', '=', workspaceId)
      .where('e.project_id', '=', b.project_id)
      .where('e.end_at', 'is not', null);
    if (b.task_id) q = q.where('e.task_id', '=', b.task_id);
    if (from && to) q = q.where('e.start_at', '>=', from).where('e.start_at', '<', to);
    const figure =
      b.budget_type === 'hours'
        ? sql<number>`coalesce(sum(e.duration_seconds), 0)::float8`
        : sql<number>`coalesce(sum(case when e.billable then coalesce((e.billable_rate_cents::bigint * e.duration_seconds + 1800) / 3600, 0) else 0 end), 0)::float8`;
    const row = await q.select(figure.as('used')).executeTakeFirstOrThrow();
    return Number(row.used);
  },

  /** Records a crossing; false when it was recorded before (the alert went out then). */
  async record(
    tx: Db,
    v: {
      workspaceId: string;
      projectId: string;
      taskId: string | null;
      period: string;
      threshold: number;
      used: number;
      budget: number;
    },
  ): Promise<boolean> {
    const row = await tx
      .insertInto('budget_alerts')
      .values({
        id: newId(),
        workspace_id: v.workspaceId,
        project_id: v.projectId,
        task_id: v.taskId,
        period: v.period,
        threshold: v.threshold,
        used: v.used,
        budget: v.budget,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Who hears of a project's budget: active owners and admins, and who holds "Can manage" on it (directly or by group). */
  async recipients(db: Db, workspaceId: string, projectId: string) {
    return db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.status', '=', 'active')
      .where((w) =>
        w.or([
          w('m.role', 'in', ['owner', 'admin']),
          w(
            'm.user_id',
            'in',
            w
              .selectFrom('project_members as pm')
              .select('pm.user_id')
              .where('pm.project_id', '=', projectId)
              .where('pm.can_manage', '=', true)
              .where('pm.user_id', 'is not', null)
              .$narrowType<{ user_id: string }>(),
          ),
          w(
            'm.user_id',
            'in',
            w
              .selectFrom('project_members as pm')
              .innerJoin('group_members as gm', 'gm.group_id', 'pm.group_id')
              .select('gm.user_id')
              .where('pm.project_id', '=', projectId)
              .where('pm.can_manage', '=', true),
          ),
        ]),
      )
      .orderBy('u.email')
      .execute();
  },
};
