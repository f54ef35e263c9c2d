import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { newId } from '../../platform/ids.js';
import { customRoleColumns, customRoleFields } from '../roles/roles.membership-columns.js';

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

  /**
   * The active members who may hear of a project's budget, with their roles (built-in, custom, their
   * groups') and whether they hold "Can manage" on it (directly or by group): access.ts decides.
   */
  async audience(db: Db, workspaceId: string, projectId: string) {
    const rows = await db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.role', 'u.email'])
      .select([customRoleColumns.ownRole.as('own_role'), customRoleColumns.groupPermissions.as('group_roles')])
      .select(
        sql<boolean>`exists (select 1 from project_members pm
          where pm.project_id = ${projectId} and pm.can_manage and (pm.user_id = m.user_id
            or pm.group_id in (select gm.group_id from group_members gm where gm.user_id = m.user_id)))`.as('granted'),
      )
      .where('m.workspace_id', '=', workspaceId)
      .where('m.status', '=', 'active')
      .orderBy('u.email')
      .execute();
    return rows.map(({ own_role, group_roles, ...row }) => ({ ...row, ...customRoleFields(own_role, group_roles) }));
  },
};
