import type { Db } from '../../db/connection.js';
import type { Group } from '../../db/tables/team.js';

export const groupsRepository = {
  list(db: Db, workspaceId: string): Promise<Group[]> {
    return db
      .selectFrom('groups')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy((eb) => eb.fn('lower', ['name']))
      .orderBy('id')
      .execute();
  },

  find(db: Db, workspaceId: string, id: string): Promise<Group | undefined> {
    return db
      .selectFrom('groups')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async memberIdsByGroup(db: Db, workspaceId: string): Promise<Map<string, string[]>> {
    const rows = await db
      .selectFrom('group_members')
      .select(['group_id', 'user_id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .execute();
    const map = new Map<string, string[]>();
    for (const row of rows) map.set(row.group_id, [...(map.get(row.group_id) ?? []), row.user_id]);
    return map;
  },

  insert(db: Db, group: { id: string; workspaceId: string; parentId: string | null; name: string }): Promise<Group> {
    return db
      .insertInto('groups')
      .values({ id: group.id, workspace_id: group.workspaceId, parent_id: group.parentId, name: group.name })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  update(
    db: Db,
    workspaceId: string,
    id: string,
    changes: { name?: string; parent_id?: string | null },
  ): Promise<Group> {
    return db
      .updateTable('groups')
      .set({ ...changes, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  /** Moves the children of a group up to its parent, then deletes it (its memberships go with it). */
  async deleteKeepingChildren(db: Db, group: Group): Promise<void> {
    await db
      .updateTable('groups')
      .set({ parent_id: group.parent_id, updated_at: new Date() })
      .where('workspace_id', '=', group.workspace_id)
      .where('parent_id', '=', group.id)
      .execute();
    await db.deleteFrom('groups').where('workspace_id', '=', group.workspace_id).where('id', '=', group.id).execute();
  },

  /** Puts a user in a group; answers false when they were in it already. */
  async addMember(db: Db, input: { workspaceId: string; groupId: string; userId: string }): Promise<boolean> {
    const result = await db
      .insertInto('group_members')
      .values({ workspace_id: input.workspaceId, group_id: input.groupId, user_id: input.userId })
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  /** Takes a user out of a group; answers false when they were not in it. */
  async removeMember(db: Db, input: { workspaceId: string; groupId: string; userId: string }): Promise<boolean> {
    const result = await db
      .deleteFrom('group_members')
      .where('workspace_id', '=', input.workspaceId)
      .where('group_id', '=', input.groupId)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  /** Deletes a group with the groups under it (the parent's foreign key cascades), as an identity provider does. */
  async deleteWithChildren(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('groups').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Puts users in a group; those in it already stay as they are. */
  async addMembers(db: Db, input: { workspaceId: string; groupId: string; userIds: string[] }): Promise<void> {
    if (input.userIds.length === 0) return;
    await db
      .insertInto('group_members')
      .values(
        input.userIds.map((userId) => ({ workspace_id: input.workspaceId, group_id: input.groupId, user_id: userId })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  },

  /** Takes users (or everyone) out of a group. */
  async removeMembers(
    db: Db,
    input: { workspaceId: string; groupId: string; userIds: string[] | 'all' },
  ): Promise<void> {
    const { userIds } = input;
    if (userIds !== 'all' && userIds.length === 0) return;
    await db
      .deleteFrom('group_members')
      .where('workspace_id', '=', input.workspaceId)
      .where('group_id', '=', input.groupId)
      .$if(userIds !== 'all', (q) => q.where('user_id', 'in', userIds as string[]))
      .execute();
  },

  /** Takes a user out of every group of the workspace (they left it). */
  async removeFromAll(db: Db, workspaceId: string, userId: string): Promise<void> {
    await db
      .deleteFrom('group_members')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  /** The custom role the group gives its members, or none. */
  async setCustomRole(db: Db, workspaceId: string, groupId: string, roleId: string | null): Promise<void> {
    await db
      .updateTable('groups')
      .set({ custom_role_id: roleId })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', groupId)
      .execute();
  },
};
