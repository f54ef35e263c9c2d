import { sql } from 'kysely';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/connection.js';
import type { Tag, TagList } from '../../db/tables/projects.js';
import { nameOrCreatedOrder, pageAfter } from '../../platform/keyset.js';

type Archived = 'true' | 'false' | 'all';

/** Which projects each list is restricted to (`allowed`) and required on. */
export interface ListRules {
  allowed: { tag_list_id: string; project_id: string }[];
  required: { tag_list_id: string; project_id: string }[];
}

export const tagsRepository = {
  /** The tag list and tags an import creates, with the ids its plan chose, in the import's transaction. */
  async insertImported(
    tx: Db,
    workspaceId: string,
    list: { id: string; name: string },
    tags: readonly { id: string; name: string }[],
  ): Promise<void> {
    const now = new Date();
    const stamps = { workspace_id: workspaceId, created_at: now, updated_at: now, archived_at: null };
    await tx
      .insertInto('tag_lists')
      .values({ id: list.id, name: list.name, ...stamps })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await inChunks(tags, (c) =>
      tx
        .insertInto('tags')
        .values(c.map((x) => ({ ...x, tag_list_id: list.id, ...stamps })))
        .execute(),
    );
  },

  async lists(db: Db, workspaceId: string, archived: Archived): Promise<TagList[]> {
    let q = db.selectFrom('tag_lists').selectAll().where('workspace_id', '=', workspaceId);
    if (archived !== 'all') q = q.where('archived_at', archived === 'true' ? 'is not' : 'is', null);
    return q.orderBy(sql`lower(name)`).orderBy('id').execute();
  },

  findList(db: Db, workspaceId: string, id: string): Promise<TagList | undefined> {
    return db
      .selectFrom('tag_lists')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async tags(
    db: Db,
    workspaceId: string,
    f: { archived: Archived; tagListIds?: string[]; search?: string; limit?: number; offset?: number; cursor?: string },
  ): Promise<{ rows: Tag[]; total: number; nextCursor: string | null }> {
    let q = db.selectFrom('tags').where('workspace_id', '=', workspaceId);
    if (f.archived !== 'all') q = q.where('archived_at', f.archived === 'true' ? 'is not' : 'is', null);
    if (f.tagListIds) {
      if (f.tagListIds.length === 0) return { rows: [], total: 0, nextCursor: null };
      q = q.where('tag_list_id', 'in', f.tagListIds);
    }
    if (f.search) q = q.where('name', 'ilike', `%${f.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const order = nameOrCreatedOrder('tags', 'name', 'asc');
    if (f.cursor) q = q.where(order.after(f.cursor, f.offset));
    const rowsQ = q.selectAll().select(order.select).orderBy(order.orderBy);
    if (f.limit === undefined) return { rows: await rowsQ.execute(), total: total.n, nextCursor: null };
    const page = pageAfter(
      await rowsQ
        .limit(f.limit + 1)
        .offset(f.offset ?? 0)
        .execute(),
      f.limit,
    );
    return { rows: page.rows, total: total.n, nextCursor: page.nextCursor };
  },

  findTag(db: Db, workspaceId: string, id: string): Promise<Tag | undefined> {
    return db
      .selectFrom('tags')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async insertList(db: Db, v: { id: string; workspace_id: string; name: string }): Promise<void> {
    await db
      .insertInto('tag_lists')
      .values({ ...v, archived_at: null, created_at: new Date(), updated_at: new Date() })
      .execute();
  },

  async updateList(db: Db, workspaceId: string, id: string, v: { name?: string; archived_at?: Date | null }) {
    await db
      .updateTable('tag_lists')
      .set({ ...v, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** The ids of the tags of a list. */
  async tagIdsOfList(db: Db, workspaceId: string, tagListId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('tags')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('tag_list_id', '=', tagListId)
      .execute();
    return rows.map((r) => r.id);
  },

  /** How many time entries carry the tag. */
  async countEntries(db: Db, workspaceId: string, tagId: string): Promise<number> {
    const row = await db
      .selectFrom('time_entry_tags')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('tag_id', '=', tagId)
      .executeTakeFirstOrThrow();
    return row.n;
  },

  async deleteList(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('tag_lists').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  async insertTag(db: Db, v: { id: string; workspace_id: string; tag_list_id: string; name: string }): Promise<void> {
    await db
      .insertInto('tags')
      .values({ ...v, archived_at: null, created_at: new Date(), updated_at: new Date() })
      .execute();
  },

  async updateTag(
    db: Db,
    workspaceId: string,
    id: string,
    v: { name?: string; tag_list_id?: string; archived_at?: Date | null },
  ): Promise<void> {
    await db
      .updateTable('tags')
      .set({ ...v, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async deleteTag(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('tags').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  async requireTag(db: Db, workspaceId: string): Promise<boolean> {
    const row = await db
      .selectFrom('time_settings')
      .select('require_tag')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row?.require_tag ?? false;
  },

  /** The advanced-tags rules of these lists: the projects each is restricted to, and required on. */
  async rulesOf(db: Db, workspaceId: string, listIds: string[]): Promise<ListRules> {
    if (listIds.length === 0) return { allowed: [], required: [] };
    const [allowed, required] = await Promise.all([
      db
        .selectFrom('tag_list_projects')
        .select(['tag_list_id', 'project_id'])
        .where('workspace_id', '=', workspaceId)
        .where('tag_list_id', 'in', listIds)
        .orderBy('project_id')
        .execute(),
      db
        .selectFrom('project_required_tag_lists')
        .select(['tag_list_id', 'project_id'])
        .where('workspace_id', '=', workspaceId)
        .where('tag_list_id', 'in', listIds)
        .orderBy('project_id')
        .execute(),
    ]);
    return { allowed, required };
  },

  /** Replaces a list's rules: exclusive, the projects it is restricted to, the projects requiring it. */
  async setRules(
    tx: Db,
    workspaceId: string,
    id: string,
    r: { exclusive: boolean; projectIds: string[]; requiredProjectIds: string[] },
  ): Promise<void> {
    await tx
      .updateTable('tag_lists')
      .set({ exclusive: r.exclusive, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
    for (const [table, projectIds] of [
      ['tag_list_projects', r.projectIds],
      ['project_required_tag_lists', r.requiredProjectIds],
    ] as const) {
      await tx.deleteFrom(table).where('workspace_id', '=', workspaceId).where('tag_list_id', '=', id).execute();
      if (projectIds.length === 0) continue;
      await tx
        .insertInto(table)
        .values(projectIds.map((project_id) => ({ workspace_id: workspaceId, tag_list_id: id, project_id })))
        .execute();
    }
  },

  /** Replaces the lists a project requires. */
  async setRequiredLists(tx: Db, workspaceId: string, projectId: string, listIds: string[]): Promise<void> {
    await tx
      .deleteFrom('project_required_tag_lists')
      .where('workspace_id', '=', workspaceId)
      .where('project_id', '=', projectId)
      .execute();
    if (listIds.length === 0) return;
    await tx
      .insertInto('project_required_tag_lists')
      .values(listIds.map((tag_list_id) => ({ workspace_id: workspaceId, project_id: projectId, tag_list_id })))
      .execute();
  },

  /** How many of these ids are projects of the workspace. */
  async countProjects(db: Db, workspaceId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const row = await db
      .selectFrom('projects')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /** How many of these ids are tag lists of the workspace. */
  async countLists(db: Db, workspaceId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const row = await db
      .selectFrom('tag_lists')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    return row.n;
  },
};
