import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { CustomRolesTable } from '../../db/tables/custom-roles.js';

export interface CustomRoleRow {
  id: string;
  workspace_id: string;
  name: string;
  base_role: CustomRolesTable['base_role'];
  permissions: string[];
  created_at: Date;
  updated_at: Date;
}

export const rolesRepository = {
  list(db: Db, workspaceId: string): Promise<CustomRoleRow[]> {
    return db
      .selectFrom('custom_roles')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .execute();
  },

  find(db: Db, workspaceId: string, id: string): Promise<CustomRoleRow | undefined> {
    return db
      .selectFrom('custom_roles')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async insert(
    db: Db,
    v: { id: string; workspaceId: string; name: string; baseRole: CustomRoleRow['base_role']; permissions: string[] },
  ): Promise<void> {
    await db
      .insertInto('custom_roles')
      .values({
        id: v.id,
        workspace_id: v.workspaceId,
        name: v.name,
        base_role: v.baseRole,
        permissions: JSON.stringify(v.permissions),
      })
      .execute();
  },

  async update(
    db: Db,
    workspaceId: string,
    id: string,
    v: { name: string; baseRole: CustomRoleRow['base_role']; permissions: string[] },
  ): Promise<void> {
    await db
      .updateTable('custom_roles')
      .set({ name: v.name, base_role: v.baseRole, permissions: JSON.stringify(v.permissions), updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** Deletes the role; its members keep its base role, its groups carry none. */
  async remove(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('custom_roles').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Which members and groups hold each role of the workspace. */
  async holders(
    db: Db,
    workspaceId: string,
  ): Promise<{ members: Map<string, string[]>; groups: Map<string, string[]> }> {
    const [members, groups] = await Promise.all([
      db
        .selectFrom('memberships')
        .select(['custom_role_id', 'user_id as id'])
        .where('workspace_id', '=', workspaceId)
        .where('status', '!=', 'removed')
        .where('custom_role_id', 'is not', null)
        .orderBy('user_id')
        .execute(),
      db
        .selectFrom('groups')
        .select(['custom_role_id', 'id'])
        .where('workspace_id', '=', workspaceId)
        .where('custom_role_id', 'is not', null)
        .orderBy('id')
        .execute(),
    ]);
    const byRole = (rows: { custom_role_id: string | null; id: string }[]) => {
      const map = new Map<string, string[]>();
      for (const row of rows)
        if (row.custom_role_id) map.set(row.custom_role_id, [...(map.get(row.custom_role_id) ?? []), row.id]);
      return map;
    };
    return { members: byRole(members), groups: byRole(groups) };
  },

  /** The member (not removed) with their built-in role, or undefined. */
  findMember(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom('memberships')
      .select(['user_id', 'role', 'custom_role_id'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('status', '!=', 'removed')
      .executeTakeFirst();
  },

  findGroup(db: Db, workspaceId: string, groupId: string) {
    return db
      .selectFrom('groups')
      .select(['id', 'custom_role_id'])
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', groupId)
      .executeTakeFirst();
  },
};
