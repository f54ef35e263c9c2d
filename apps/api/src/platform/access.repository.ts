import type { Role } from '@sundial/core';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/tables.js';

/**
 * The SQL behind the access rules (platform/access.ts): which projects a person reaches, whose
 * group a manager manages, how many seats a workspace uses. Every query takes the workspace id.
 */

/** Whose projects a query shows. */
export interface ProjectViewer {
  workspaceId: string;
  userId: string;
  /** true: every project of the workspace (the rest below is then moot). */
  seesAll: boolean;
  /** Public projects too, beside those the viewer is assigned to (false for guests). */
  seesPublic: boolean;
}

export type ProjectEb = ExpressionBuilder<Database & { p: Database['projects'] }, 'p'>;

/**
 * Assigned to the project `p` or any of its tasks, directly or through a group; with `grantOnly`,
 * assigned to the whole project with the "Can manage" grant.
 */
export function assignedTo(eb: ProjectEb, userId: string, grantOnly = false) {
  return eb.exists(
    eb
      .selectFrom('project_members as pm')
      .select(sql`1`.as('one'))
      .whereRef('pm.project_id', '=', 'p.id')
      .$if(grantOnly, (q) => q.where('pm.task_id', 'is', null).where('pm.can_manage', '=', true))
      .where((w) => heldBy(w, userId)),
  );
}

type MemberEb = ExpressionBuilder<Database & { pm: Database['project_members'] }, 'pm'>;

/** The assignment row `pm` names the person, or a group the person belongs to. */
export function heldBy(w: MemberEb, userId: string) {
  return w.or([
    w('pm.user_id', '=', userId),
    w('pm.group_id', 'in', w.selectFrom('group_members as gm').select('gm.group_id').where('gm.user_id', '=', userId)),
  ]);
}

/** The projects `p` of the viewer's workspace that the viewer reaches. */
export function reachableProjects(db: Db, viewer: ProjectViewer) {
  return db
    .selectFrom('projects as p')
    .where('p.workspace_id', '=', viewer.workspaceId)
    .$if(!viewer.seesAll, (q) =>
      q.where((eb) =>
        viewer.seesPublic
          ? eb.or([eb('p.is_public', '=', true), assignedTo(eb, viewer.userId)])
          : assignedTo(eb, viewer.userId),
      ),
    );
}

/** The roles a manager leads (their people, in the groups they manage): never the owner, an admin or another manager. */
export const LED_ROLES: readonly Role[] = ['member', 'guest'];

export const accessRepository = {
  /** Who beside owners and admins sees money (rate_settings; strict without a row). */
  async moneySettings(db: Db, workspaceId: string) {
    const row = await db
      .selectFrom('rate_settings')
      .select(['managers_see_costs', 'members_see_own_billable'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return {
      managersSeeCosts: row?.managers_see_costs ?? false,
      membersSeeOwnBillable: row?.members_see_own_billable ?? false,
    };
  },

  async findMemberRole(db: Db, workspaceId: string, userId: string) {
    const row = await db
      .selectFrom('memberships')
      .select('role')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role;
  },

  async reachesProject(db: Db, viewer: ProjectViewer, projectId: string): Promise<boolean> {
    const row = await reachableProjects(db, viewer).select('p.id').where('p.id', '=', projectId).executeTakeFirst();
    return Boolean(row);
  },

  /**
   * Groups a user leads as a manager: the groups they belong to and every group below those.
   * Managers add and remove people there, and see those people's time.
   */
  async managedGroupIds(db: Db, workspaceId: string, userId: string): Promise<Set<string>> {
    const groups = await db
      .selectFrom('groups')
      .select(['id', 'parent_id'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    const own = await db
      .selectFrom('group_members')
      .select('group_id')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
    const managed = new Set(own.map((r) => r.group_id));
    let grew = true;
    while (grew) {
      grew = false;
      for (const g of groups) {
        if (g.parent_id && managed.has(g.parent_id) && !managed.has(g.id)) {
          managed.add(g.id);
          grew = true;
        }
      }
    }
    return managed;
  },

  /**
   * The people a manager leads: regular users and guests in the groups they manage (see
   * managedGroupIds). Owners, admins and other managers in those groups are their peers or
   * superiors, not their people, even when an admin put them there.
   */
  async managedUserIds(db: Db, workspaceId: string, managerId: string): Promise<Set<string>> {
    const groupIds = [...(await accessRepository.managedGroupIds(db, workspaceId, managerId))];
    if (groupIds.length === 0) return new Set();
    const rows = await db
      .selectFrom('group_members as gm')
      .innerJoin('memberships as m', (join) =>
        join.onRef('m.workspace_id', '=', 'gm.workspace_id').onRef('m.user_id', '=', 'gm.user_id'),
      )
      .select('gm.user_id')
      .where('gm.workspace_id', '=', workspaceId)
      .where('gm.group_id', 'in', groupIds)
      .where('m.role', 'in', LED_ROLES)
      .execute();
    return new Set(rows.map((r) => r.user_id));
  },

  /** Locks the workspace row so concurrent invites and role changes count seats one at a time. */
  async lockWorkspace(db: Db, workspaceId: string) {
    return db
      .selectFrom('workspaces')
      .select(['id', 'plan', 'licenses', 'trial_ends_at'])
      .where('id', '=', workspaceId)
      .forUpdate()
      .executeTakeFirstOrThrow();
  },

  /** Active non-guest members only: the "N" of "N/M users". */
  async countActiveMembers(db: Db, workspaceId: string): Promise<number> {
    const row = await db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'active')
      .where('role', '!=', 'guest')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /**
   * Licenses in use: active non-guest members plus pending, unexpired non-guest invites
   * (an invite holds its seat until it is accepted, revoked or expires).
   */
  async countSeatsUsed(db: Db, workspaceId: string, now = new Date()): Promise<number> {
    const invites = await db
      .selectFrom('invites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('role', '!=', 'guest')
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    return (await accessRepository.countActiveMembers(db, workspaceId)) + Number(invites.n);
  },
};
