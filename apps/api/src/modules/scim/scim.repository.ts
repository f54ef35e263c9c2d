import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Workspace } from '../../db/tables.js';

/** A member as SCIM shows them (removed members are gone for SCIM). */
export interface ScimMemberRow {
  user_id: string;
  email: string;
  name: string;
  external_id: string | null;
  status: 'active' | 'disabled';
  created_at: Date;
}

/** What a Users list may filter on (`userName`, `externalId` or an e-mail, each `eq`). */
export interface ScimUserFilter {
  userName?: string;
  externalId?: string;
}

function membersOf(db: Db, workspaceId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.workspace_id', '=', workspaceId)
    .where('m.status', '!=', 'removed')
    .where('m.role', '!=', 'owner');
}

export const scimRepository = {
  // ---- tokens

  /** The workspace of a live token, by its hash, and marks it used. */
  async useToken(db: Db, tokenHash: string, now: Date): Promise<{ tokenId: string; workspace: Workspace } | undefined> {
    const row = await db
      .updateTable('scim_tokens as t')
      .set({ last_used_at: now })
      .from('workspaces as w')
      .whereRef('w.id', '=', 't.workspace_id')
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .returning(['t.id as token_id'])
      .returningAll('w')
      .executeTakeFirst();
    if (!row) return undefined;
    const { token_id, ...workspace } = row;
    return { tokenId: token_id, workspace };
  },

  liveToken(db: Db, workspaceId: string) {
    return db
      .selectFrom('scim_tokens')
      .select(['id', 'created_at', 'last_used_at', 'created_by_user_id'])
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  /** Revokes the live token; its id when there was one. */
  async revokeToken(db: Db, workspaceId: string, now: Date): Promise<string | undefined> {
    const row = await db
      .updateTable('scim_tokens')
      .set({ revoked_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  },

  async insertToken(db: Db, v: { id: string; workspaceId: string; tokenHash: string; userId: string }): Promise<void> {
    await db
      .insertInto('scim_tokens')
      .values({ id: v.id, workspace_id: v.workspaceId, token_hash: v.tokenHash, created_by_user_id: v.userId })
      .execute();
  },

  // ---- users

  async listMembers(
    db: Db,
    workspaceId: string,
    filter: ScimUserFilter,
    page: { offset: number; limit: number },
  ): Promise<{ rows: ScimMemberRow[]; total: number }> {
    let q = membersOf(db, workspaceId);
    if (filter.userName !== undefined) q = q.where(sql`lower(u.email)`, '=', filter.userName.toLowerCase());
    if (filter.externalId !== undefined) q = q.where('m.external_id', '=', filter.externalId);
    const { n } = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select(['m.user_id', 'u.email', 'u.name', 'm.external_id', 'm.status', 'm.created_at'])
      .orderBy('m.created_at')
      .orderBy('m.user_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    return { rows: rows as ScimMemberRow[], total: n };
  },

  async findMember(db: Db, workspaceId: string, userId: string): Promise<ScimMemberRow | undefined> {
    const row = await membersOf(db, workspaceId)
      .select(['m.user_id', 'u.email', 'u.name', 'm.external_id', 'm.status', 'm.created_at'])
      .where('m.user_id', '=', userId)
      .executeTakeFirst();
    return row as ScimMemberRow | undefined;
  },

  /** The workspace's membership of a user, whatever its status (removed ones come back). */
  membership(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom('memberships')
      .select(['status', 'role'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },

  userByEmail(db: Db, email: string) {
    return db
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  },

  async insertUser(db: Db, v: { id: string; email: string; name: string; passwordHash: string }): Promise<void> {
    await db
      .insertInto('users')
      .values({ id: v.id, email: v.email, name: v.name, password_hash: v.passwordHash, time_zone: 'UTC' })
      .execute();
  },

  /** Makes the user a member (a Regular user), or brings back a removed or disabled one. */
  async upsertMembership(
    db: Db,
    v: { workspaceId: string; userId: string; externalId: string | null; active: boolean },
  ): Promise<void> {
    const status = v.active ? 'active' : 'disabled';
    await db
      .insertInto('memberships')
      .values({ workspace_id: v.workspaceId, user_id: v.userId, role: 'member', status, external_id: v.externalId })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'user_id']).doUpdateSet({ status, external_id: v.externalId, role: 'member' }),
      )
      .execute();
  },

  async updateMembership(
    db: Db,
    workspaceId: string,
    userId: string,
    changes: { status?: 'active' | 'disabled' | 'removed'; external_id?: string | null },
  ): Promise<void> {
    await db
      .updateTable('memberships')
      .set(changes)
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  async updateUser(db: Db, userId: string, changes: { email?: string; name?: string }): Promise<void> {
    await db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', userId)
      .execute();
  },

  /** Takes the user out of the workspace's groups and projects (a removal). */
  async dropAssignments(db: Db, workspaceId: string, userId: string): Promise<void> {
    await db
      .deleteFrom('group_members')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
    await db
      .deleteFrom('project_members')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  // ---- groups

  async listGroups(
    db: Db,
    workspaceId: string,
    displayName: string | undefined,
    page: { offset: number; limit: number },
  ) {
    let q = db.selectFrom('groups').where('workspace_id', '=', workspaceId);
    if (displayName !== undefined) q = q.where(sql`lower(name)`, '=', displayName.toLowerCase());
    const { n } = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const rows = await q
      .select(['id', 'name', 'created_at', 'updated_at'])
      .orderBy('created_at')
      .orderBy('id')
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    return { rows, total: n };
  },

  findGroup(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom('groups')
      .select(['id', 'name', 'created_at', 'updated_at', 'custom_role_id'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  groupByName(db: Db, workspaceId: string, name: string) {
    return db
      .selectFrom('groups')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('parent_id', 'is', null)
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst();
  },

  async insertGroup(db: Db, v: { id: string; workspaceId: string; name: string }): Promise<void> {
    await db
      .insertInto('groups')
      .values({ id: v.id, workspace_id: v.workspaceId, name: v.name, parent_id: null })
      .execute();
  },

  async renameGroup(db: Db, workspaceId: string, id: string, name: string): Promise<void> {
    await db
      .updateTable('groups')
      .set({ name, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async deleteGroup(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('groups').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  async groupMembers(db: Db, workspaceId: string, groupIds: string[]) {
    if (groupIds.length === 0) return [];
    return db
      .selectFrom('group_members as gm')
      .innerJoin('users as u', 'u.id', 'gm.user_id')
      .select(['gm.group_id', 'gm.user_id', 'u.email'])
      .where('gm.workspace_id', '=', workspaceId)
      .where('gm.group_id', 'in', groupIds)
      .orderBy('u.email')
      .execute();
  },

  /** Puts members (active, not removed) in the group; ids that are not members are left out. */
  async addGroupMembers(db: Db, workspaceId: string, groupId: string, userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    const members = await membersOf(db, workspaceId).select('m.user_id').where('m.user_id', 'in', userIds).execute();
    if (members.length === 0) return;
    await db
      .insertInto('group_members')
      .values(members.map((m) => ({ workspace_id: workspaceId, group_id: groupId, user_id: m.user_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  },

  async removeGroupMembers(db: Db, workspaceId: string, groupId: string, userIds: string[] | 'all'): Promise<void> {
    let q = db.deleteFrom('group_members').where('workspace_id', '=', workspaceId).where('group_id', '=', groupId);
    if (userIds !== 'all') {
      if (userIds.length === 0) return;
      q = q.where('user_id', 'in', userIds);
    }
    await q.execute();
  },
};
