import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Workspace } from '../../db/tables.js';

/** A member as SCIM shows them (removed members are gone for SCIM). */
export interface ScimMemberRow {
  /** Their SCIM id: the user id, or the id they had while invited (`scim_pending_users`). */
  scim_id: string;
  user_id: string;
  email: string;
  name: string;
  external_id: string | null;
  status: 'active' | 'disabled';
  created_at: Date;
}

/** Someone SCIM named whose address had an account: invited, not a member (yet). */
export interface ScimPendingRow {
  id: string;
  invite_id: string;
  email: string;
  name: string;
  external_id: string | null;
  active: boolean;
  created_at: Date;
}

/** What a Users list may filter on (`userName`, `externalId` or an e-mail, each `eq`). */
export interface ScimUserFilter {
  userName?: string;
  externalId?: string;
}

/** The workspace's members but the owner, each with the SCIM id they had while invited (alias `a`), if any. */
function membersOf(db: Db, workspaceId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('scim_pending_users as p')
          .innerJoin('invites as i', 'i.id', 'p.invite_id')
          .select(['p.id', 'p.external_id', 'i.accepted_user_id'])
          .where('p.workspace_id', '=', workspaceId)
          .where('i.accepted_user_id', 'is not', null)
          .as('a'),
      (join) => join.onRef('a.accepted_user_id', '=', 'm.user_id'),
    )
    .where('m.workspace_id', '=', workspaceId)
    .where('m.status', '!=', 'removed')
    .where('m.role', '!=', 'owner');
}

const memberColumns = [
  sql<string>`coalesce(a.id, m.user_id)`.as('scim_id'),
  'm.user_id',
  'u.email',
  'u.name',
  sql<string | null>`coalesce(m.external_id, a.external_id)`.as('external_id'),
  'm.status',
  'm.created_at',
] as const;

/** The people SCIM invited who have not accepted. */
function pendingOf(db: Db, workspaceId: string) {
  return db
    .selectFrom('scim_pending_users as p')
    .innerJoin('invites as i', 'i.id', 'p.invite_id')
    .where('p.workspace_id', '=', workspaceId)
    .where('i.accepted_at', 'is', null);
}
const pendingColumns = [
  'p.id',
  'p.invite_id',
  'p.email',
  'p.name',
  'p.external_id',
  'p.active',
  'p.created_at',
] as const;

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

  /** Members, then the invited not yet members, filtered and paged as one list. */
  async listUsers(
    db: Db,
    workspaceId: string,
    filter: ScimUserFilter,
    page: { offset: number; limit: number },
  ): Promise<{ members: ScimMemberRow[]; pending: ScimPendingRow[]; total: number }> {
    let members = membersOf(db, workspaceId);
    let pending = pendingOf(db, workspaceId);
    if (filter.userName !== undefined) {
      members = members.where(sql`lower(u.email)`, '=', filter.userName.toLowerCase());
      pending = pending.where(sql`lower(p.email)`, '=', filter.userName.toLowerCase());
    }
    if (filter.externalId !== undefined) {
      members = members.where(sql`coalesce(m.external_id, a.external_id)`, '=', filter.externalId);
      pending = pending.where('p.external_id', '=', filter.externalId);
    }
    const count = sql<number>`count(*)::int`.as('n');
    const { n: memberTotal } = await members.select(count).executeTakeFirstOrThrow();
    const { n: pendingTotal } = await pending.select(count).executeTakeFirstOrThrow();
    const memberRows = await members
      .select(memberColumns)
      .orderBy('m.created_at')
      .orderBy('m.user_id')
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    const room = page.limit - memberRows.length;
    const pendingRows =
      room > 0
        ? await pending
            .select(pendingColumns)
            .orderBy('p.created_at')
            .orderBy('p.id')
            .offset(Math.max(0, page.offset - memberTotal))
            .limit(room)
            .execute()
        : [];
    return { members: memberRows as ScimMemberRow[], pending: pendingRows, total: memberTotal + pendingTotal };
  },

  /** A member by their SCIM id (the user id, or the id they had while invited). */
  async findMember(db: Db, workspaceId: string, id: string): Promise<ScimMemberRow | undefined> {
    const row = await membersOf(db, workspaceId)
      .select(memberColumns)
      .where((eb) => eb.or([eb('m.user_id', '=', id), eb('a.id', '=', id)]))
      .executeTakeFirst();
    return row as ScimMemberRow | undefined;
  },

  findPending(db: Db, workspaceId: string, id: string): Promise<ScimPendingRow | undefined> {
    return pendingOf(db, workspaceId).select(pendingColumns).where('p.id', '=', id).executeTakeFirst();
  },

  /** The workspace's pending row of an address, whatever became of its invite. */
  pendingByEmail(db: Db, workspaceId: string, email: string) {
    return db
      .selectFrom('scim_pending_users')
      .select(['id', 'invite_id'])
      .where('workspace_id', '=', workspaceId)
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  },

  /** Records (or renews, keeping its id) the pending person of an address with their invite. */
  async savePending(
    db: Db,
    v: {
      id: string;
      workspaceId: string;
      inviteId: string;
      email: string;
      name: string;
      externalId: string | null;
      active: boolean;
    },
  ): Promise<void> {
    await db
      .insertInto('scim_pending_users')
      .values({
        id: v.id,
        workspace_id: v.workspaceId,
        invite_id: v.inviteId,
        email: v.email,
        name: v.name,
        external_id: v.externalId,
        active: v.active,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ invite_id: v.inviteId, name: v.name, external_id: v.externalId, active: v.active }),
      )
      .execute();
  },

  async deletePending(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('scim_pending_users').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /**
   * Whether the account is the workspace's own to rename: its SCIM made it, it has never been a
   * member anywhere else, and its person never used it on their own (a password sign-in, reset or
   * change, a linked identity, a sign-in through another provider). Otherwise the address is the
   * person's, and a new one would let whoever holds it take the account over (issue 29).
   */
  async isWorkspaceOwnAccount(db: Db, workspaceId: string, userId: string): Promise<boolean> {
    // One statement: made here, a member nowhere else, never used by its person.
    const row = await db
      .selectFrom('users as u')
      .select('u.id')
      .where('u.id', '=', userId)
      .where('u.provisioned_by_workspace_id', '=', workspaceId)
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('memberships as m')
              .select('m.workspace_id')
              .whereRef('m.user_id', '=', 'u.id')
              .where('m.workspace_id', '!=', workspaceId),
          ),
        ),
      )
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('audit_log as a')
              .select('a.id')
              .whereRef('a.actor_user_id', '=', 'u.id')
              .where((eb) =>
                eb.or([
                  eb('a.action', 'in', [
                    'user.signed_in',
                    'user.password_reset',
                    'user.password_changed',
                    'user.identity_linked',
                  ]),
                  eb.and([
                    eb('a.action', '=', 'user.signed_in_sso'),
                    eb(sql`a.detail->>'provider'`, '!=', `workspace:${workspaceId}`),
                  ]),
                ]),
              ),
          ),
        ),
      )
      .executeTakeFirst();
    return row !== undefined;
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

  /** Each group's members, by their SCIM id. */
  async groupMembers(db: Db, workspaceId: string, groupIds: string[]) {
    if (groupIds.length === 0) return [];
    return membersOf(db, workspaceId)
      .innerJoin('group_members as gm', (join) =>
        join.onRef('gm.user_id', '=', 'm.user_id').onRef('gm.workspace_id', '=', 'm.workspace_id'),
      )
      .select(['gm.group_id', sql<string>`coalesce(a.id, m.user_id)`.as('user_id'), 'u.email'])
      .where('gm.group_id', 'in', groupIds)
      .orderBy('u.email')
      .execute();
  },

  /** The user ids of members named by SCIM ids; ids that are not members are left out. */
  async memberUserIds(db: Db, workspaceId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await membersOf(db, workspaceId)
      .select('m.user_id')
      .where((eb) => eb.or([eb('m.user_id', 'in', ids), eb('a.id', 'in', ids)]))
      .execute();
    return rows.map((r) => r.user_id);
  },
};
