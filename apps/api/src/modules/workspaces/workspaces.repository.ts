import type { PlanId, Role } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { Membership, Workspace } from '../../db/tables.js';
import type { MembershipWithWorkspace } from '../../platform/actor.js';

export type { MembershipWithWorkspace } from '../../platform/actor.js';

export const workspacesRepository = {
  async insert(
    db: Db,
    input: { id: string; name: string; plan: PlanId; trialEndsAt: Date | null },
  ): Promise<Workspace> {
    return db
      .insertInto('workspaces')
      .values({ id: input.id, name: input.name, plan: input.plan, trial_ends_at: input.trialEndsAt })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async addMember(db: Db, input: { workspaceId: string; userId: string; role: Role }): Promise<void> {
    await db
      .insertInto('memberships')
      .values({ workspace_id: input.workspaceId, user_id: input.userId, role: input.role })
      .execute();
  },

  /** The user's active membership of a workspace, with the workspace; undefined when none. */
  async findMembership(db: Db, workspaceId: string, userId: string): Promise<MembershipWithWorkspace | undefined> {
    const row = await membershipsOf(db, userId)
      .where('m.workspace_id', '=', workspaceId)
      .where('m.status', '=', 'active')
      .executeTakeFirst();
    return row && toMembership(row);
  },

  async listForUser(db: Db, userId: string): Promise<MembershipWithWorkspace[]> {
    const rows = await membershipsOf(db, userId)
      .where('m.status', '=', 'active')
      .orderBy('w.name')
      .orderBy('w.id')
      .execute();
    return rows.map(toMembership);
  },

  /** Workspaces that disabled or removed the user: they no longer have access to them. */
  async listInactiveForUser(db: Db, userId: string): Promise<MembershipWithWorkspace[]> {
    const rows = await membershipsOf(db, userId)
      .where('m.status', '!=', 'active')
      .orderBy('w.name')
      .orderBy('w.id')
      .execute();
    return rows.map(toMembership);
  },

  async rename(db: Db, workspaceId: string, name: string): Promise<Workspace> {
    return db
      .updateTable('workspaces')
      .set({ name, updated_at: new Date() })
      .where('id', '=', workspaceId)
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};

/** The user's memberships joined with their workspaces: the one select every lookup above shares. */
function membershipsOf(db: Db, userId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select([
      'm.role',
      'm.status',
      'w.id',
      'w.name',
      'w.plan',
      'w.trial_ends_at',
      'w.licenses',
      'w.hide_disabled_users',
      'w.created_at',
      'w.updated_at',
    ])
    .where('m.user_id', '=', userId);
}

function toMembership(row: Workspace & { role: Role; status: Membership['status'] }): MembershipWithWorkspace {
  const { role, status, ...workspace } = row;
  return { role, status, workspace };
}
