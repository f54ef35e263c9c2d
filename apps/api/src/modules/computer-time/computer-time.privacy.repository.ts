import type { ActivityPrivacyOverride, ComputerTimeGroupSettingsBody } from '@sundial/core';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connection.js';

/**
 * The choices of a person's groups and of the groups around those (json, null for none), as a
 * scalar subquery on the person's workspace and id (columns or values): the upload's locking
 * statement and the agent's settings read it the same way.
 */
export function groupChoicesOf(workspaceId: RawBuilder<unknown>, userId: RawBuilder<unknown>) {
  return sql<ActivityPrivacyOverride[] | null>`(
    select json_agg(json_build_object('keep', c.keep, 'managersSeeActivity', c.managers_see_activity))
    from computer_time_group_settings c
    where c.workspace_id = ${workspaceId}
      and c.group_id in (
        with recursive around (id, parent_id) as (
          select g.id, g.parent_id from group_members m join groups g on g.id = m.group_id
          where m.workspace_id = ${workspaceId} and m.user_id = ${userId}
          union
          select g.id, g.parent_id from groups g join around a on g.id = a.parent_id
        )
        select id from around
      ))`;
}

/** SQL of the groups' own computer time settings (computer-time.privacy.ts). */
export const privacyRepository = {
  /** The groups that chose something of their own, with their names. */
  groupSettings(db: Db, workspaceId: string) {
    return db
      .selectFrom('computer_time_group_settings as s')
      .innerJoin('groups as g', 'g.id', 's.group_id')
      .select(['s.group_id', 'g.name', 's.keep', 's.managers_see_activity'])
      .where('s.workspace_id', '=', workspaceId)
      .orderBy(sql`lower(g.name)`)
      .orderBy('s.group_id')
      .execute();
  },

  async groupName(db: Db, workspaceId: string, groupId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('groups')
      .select('name')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', groupId)
      .executeTakeFirst();
    return row?.name;
  },

  /** The group's choice as it was, for the audit. */
  groupSetting(db: Db, workspaceId: string, groupId: string) {
    return db
      .selectFrom('computer_time_group_settings')
      .select(['keep', 'managers_see_activity'])
      .where('workspace_id', '=', workspaceId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
  },

  async saveGroupSetting(db: Db, workspaceId: string, groupId: string, body: ComputerTimeGroupSettingsBody) {
    if (body.keep === null && body.managersSeeActivity === null) {
      await db
        .deleteFrom('computer_time_group_settings')
        .where('workspace_id', '=', workspaceId)
        .where('group_id', '=', groupId)
        .execute();
      return;
    }
    const values = { keep: body.keep, managers_see_activity: body.managersSeeActivity };
    await db
      .insertInto('computer_time_group_settings')
      .values({ group_id: groupId, workspace_id: workspaceId, ...values })
      .onConflict((oc) => oc.column('group_id').doUpdateSet({ ...values, updated_at: sql`now()` }))
      .execute();
  },

  /** The workspace's groups as a tree (a group's choice covers the groups inside it). */
  groupTree(db: Db, workspaceId: string) {
    return db.selectFrom('groups').select(['id', 'parent_id']).where('workspace_id', '=', workspaceId).execute();
  },

  /** The choices of one person's groups (see `groupChoicesOf`). */
  async choicesOf(db: Db, workspaceId: string, userId: string): Promise<ActivityPrivacyOverride[]> {
    const { rows } = await sql<{ choices: ActivityPrivacyOverride[] | null }>`
      select ${groupChoicesOf(sql`${workspaceId}::uuid`, sql`${userId}::uuid`)} as choices
    `.execute(db);
    return rows[0]?.choices ?? [];
  },

  /** The workspace's members (a read of everyone whose privacy lets it, when groups chose otherwise). */
  async memberIds(db: Db, workspaceId: string): Promise<string[]> {
    const rows = await db.selectFrom('memberships').select('user_id').where('workspace_id', '=', workspaceId).execute();
    return rows.map((r) => r.user_id);
  },

  /** Who is in these groups: everyone in them, or only these people. */
  membersOf(db: Db, workspaceId: string, groupIds: readonly string[], userIds: readonly string[] | null) {
    let query = db
      .selectFrom('group_members')
      .select(['group_id', 'user_id'])
      .where('workspace_id', '=', workspaceId)
      .where('group_id', 'in', groupIds);
    if (userIds) query = query.where('user_id', 'in', userIds);
    return query.execute();
  },
};
