import type { Role } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Membership } from '../../db/tables.js';
import { keyset, pageAfter } from '../../platform/keyset.js';

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  status: Exclude<Membership['status'], 'removed'>;
  external_id: string | null;
  created_at: Date;
}

export interface MemberProject {
  userId: string;
  projectId: string;
  name: string;
}

const memberColumns = [
  'm.user_id',
  'u.email',
  'u.name',
  'm.role',
  'm.status',
  'm.external_id',
  'm.created_at',
] as const;

/** The workspace's members (active or disabled, not removed) with their user: the select every lookup shares. */
function membersOf(db: Db, workspaceId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(memberColumns)
    .where('m.workspace_id', '=', workspaceId)
    .where('m.status', '!=', 'removed');
}

export const membersRepository = {
  /** Members of a workspace, owner first, then by name and e-mail. */
  async list(
    db: Db,
    workspaceId: string,
    options: { search?: string; status?: 'active' | 'disabled'; limit?: number; offset?: number; cursor?: string } = {},
  ): Promise<{ rows: MemberRow[]; total: number; nextCursor: string | null }> {
    let query = membersOf(db, workspaceId);
    if (options.status) query = query.where('m.status', '=', options.status);
    if (options.search) {
      const pattern = `%${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['u.email']), 'like', pattern),
          eb(eb.fn('lower', ['u.name']), 'like', pattern),
          eb(eb.fn('lower', ['m.external_id']), 'like', pattern),
        ]),
      );
    }
    const total = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const order = keyset([
      { expr: sql`(case when m.role = 'owner' then 0 else 1 end)`, type: 'int4' },
      { expr: sql`lower(u.name)`, type: 'text' },
      { expr: sql`lower(u.email)`, type: 'text' },
      { expr: sql`m.user_id`, type: 'uuid' },
    ]);
    const limit = options.limit ?? 500;
    if (options.cursor) query = query.where(order.after(options.cursor, options.offset));
    const rows = await query
      .select(order.select)
      .orderBy(order.orderBy)
      .limit(limit + 1)
      .offset(options.offset ?? 0)
      .execute();
    const page = pageAfter(rows, limit);
    return { rows: page.rows as MemberRow[], total: Number(total.n), nextCursor: page.nextCursor };
  },

  async find(db: Db, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
    const row = await membersOf(db, workspaceId).where('m.user_id', '=', userId).executeTakeFirst();
    return row as MemberRow | undefined;
  },

  /** The same row, locked until the transaction ends. */
  async findForUpdate(db: Db, workspaceId: string, userId: string): Promise<MemberRow | undefined> {
    const row = await membersOf(db, workspaceId).where('m.user_id', '=', userId).forUpdate('m').executeTakeFirst();
    return row as MemberRow | undefined;
  },

  async findByEmail(db: Db, workspaceId: string, email: string): Promise<MemberRow | undefined> {
    const row = await membersOf(db, workspaceId)
      .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    return row as MemberRow | undefined;
  },

  async update(
    db: Db,
    workspaceId: string,
    userId: string,
    changes: { role?: Role; status?: MemberRow['status']; external_id?: string | null },
  ): Promise<void> {
    await db
      .updateTable('memberships')
      // A built-in role given here replaces a custom role (modules/roles assigns those).
      .set(changes.role ? { ...changes, custom_role_id: null } : changes)
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  /** Marks the membership removed: the row stays so the time they tracked stays attributed to them. */
  async remove(db: Db, workspaceId: string, userId: string): Promise<void> {
    await db
      .updateTable('memberships')
      .set({ status: 'removed', external_id: null })
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  /** Gives the member a custom role (and its base role as their built-in one), or takes it away. */
  async setCustomRole(
    db: Db,
    workspaceId: string,
    userId: string,
    role: { id: string; baseRole: Role } | null,
  ): Promise<void> {
    await db
      .updateTable('memberships')
      .set(role ? { custom_role_id: role.id, role: role.baseRole } : { custom_role_id: null })
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  /** The members holding a custom role take its (new) base role. */
  async rebaseCustomRole(db: Db, workspaceId: string, customRoleId: string, baseRole: Role): Promise<void> {
    await db
      .updateTable('memberships')
      .set({ role: baseRole })
      .where('workspace_id', '=', workspaceId)
      .where('custom_role_id', '=', customRoleId)
      .execute();
  },

  /** Adds a member, or brings back one who was removed earlier (with the new role). */
  async add(db: Db, input: { workspaceId: string; userId: string; role: Role }): Promise<void> {
    await db
      .insertInto('memberships')
      .values({ workspace_id: input.workspaceId, user_id: input.userId, role: input.role })
      .onConflict((oc) =>
        oc
          .columns(['workspace_id', 'user_id'])
          .doUpdateSet({ role: input.role, status: 'active', created_at: new Date() })
          .where('memberships.status', '=', 'removed'),
      )
      .execute();
  },

  /** Makes the user a member with the role when they have no membership (a removed one stays removed); true when added. */
  async join(db: Db, input: { workspaceId: string; userId: string; role: Role }): Promise<boolean> {
    const row = await db
      .insertInto('memberships')
      .values({ workspace_id: input.workspaceId, user_id: input.userId, role: input.role })
      .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Makes the user a Regular member an identity provider manages, or brings back a removed or disabled one. */
  async provision(
    db: Db,
    input: { workspaceId: string; userId: string; externalId: string | null; active: boolean },
  ): Promise<void> {
    const status = input.active ? 'active' : 'disabled';
    await db
      .insertInto('memberships')
      .values({
        workspace_id: input.workspaceId,
        user_id: input.userId,
        role: 'member',
        status,
        external_id: input.externalId,
      })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'user_id']).doUpdateSet({ status, external_id: input.externalId, role: 'member' }),
      )
      .execute();
  },

  /** Group ids of every member of a workspace. */
  async groupIdsByUser(db: Db, workspaceId: string): Promise<Map<string, string[]>> {
    const rows = await db
      .selectFrom('group_members')
      .select(['user_id', 'group_id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('group_id')
      .execute();
    const map = new Map<string, string[]>();
    for (const row of rows) map.set(row.user_id, [...(map.get(row.user_id) ?? []), row.group_id]);
    return map;
  },

  /** Projects (not archived) each member owns or takes part in, directly or through one of their groups. */
  async projectsByUser(db: Db, workspaceId: string): Promise<MemberProject[]> {
    const direct = db
      .selectFrom('project_members as pm')
      .innerJoin('projects as p', (join) =>
        join.onRef('p.workspace_id', '=', 'pm.workspace_id').onRef('p.id', '=', 'pm.project_id'),
      )
      .select(['pm.user_id as userId', 'p.id as projectId', 'p.name'])
      .where('pm.workspace_id', '=', workspaceId)
      .where('pm.user_id', 'is not', null)
      .where('p.archived_at', 'is', null);
    const viaGroups = db
      .selectFrom('project_members as pm')
      .innerJoin('projects as p', (join) =>
        join.onRef('p.workspace_id', '=', 'pm.workspace_id').onRef('p.id', '=', 'pm.project_id'),
      )
      .innerJoin('group_members as gm', (join) =>
        join.onRef('gm.workspace_id', '=', 'pm.workspace_id').onRef('gm.group_id', '=', 'pm.group_id'),
      )
      .select(['gm.user_id as userId', 'p.id as projectId', 'p.name'])
      .where('pm.workspace_id', '=', workspaceId)
      .where('p.archived_at', 'is', null);
    // The owner (who created it) is involved in a project too, assigned or not.
    const owned = db
      .selectFrom('projects as p')
      .select(['p.owner_user_id as userId', 'p.id as projectId', 'p.name'])
      .where('p.workspace_id', '=', workspaceId)
      .where('p.owner_user_id', 'is not', null)
      .where('p.archived_at', 'is', null);
    const rows = await direct.union(viaGroups).union(owned).orderBy('name').execute();
    return rows.flatMap((r) => (r.userId ? [{ userId: r.userId, projectId: r.projectId, name: r.name }] : []));
  },
};
