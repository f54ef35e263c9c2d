import type { Db } from '../../db/connection.js';
import { newId } from '../../platform/ids.js';

export const budgetAlertsRepository = {
  async workspace(db: Db, workspaceId: string) {
    return db
      .selectFrom('workspaces')
      .select(['name', 'plan', 'trial_ends_at'])
      .where('id', '=', workspaceId)
      .executeTakeFirst();
  },

  /** The projects and tasks these entries are on (entries deleted since are on none). */
  async placesOf(db: Db, workspaceId: string, entryIds: string[]) {
    if (entryIds.length === 0) return { projectIds: [], taskIds: [] };
    const rows = await db
      .selectFrom('time_entries')
      .select(['project_id', 'task_id'])
      .distinct()
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', entryIds)
      .where('project_id', 'is not', null)
      .execute();
    return {
      projectIds: [...new Set(rows.map((r) => r.project_id as string))],
      taskIds: rows.flatMap((r) => (r.task_id ? [r.task_id] : [])),
    };
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
