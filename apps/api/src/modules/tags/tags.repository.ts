import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { Tag, TagList } from '../../db/tables/projects.js';

type Archived = 'true' | 'false' | 'all';

export const tagsRepository = {
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
    f: { archived: Archived; tagListIds?: string[]; search?: string; limit?: number; offset?: number },
  ): Promise<{ rows: Tag[]; total: number }> {
    let q = db.selectFrom('tags').where('workspace_id', '=', workspaceId);
    if (f.archived !== 'all') q = q.where('archived_at', f.archived === 'true' ? 'is not' : 'is', null);
    if (f.tagListIds) {
      if (f.tagListIds.length === 0) return { rows: [], total: 0 };
      q = q.where('tag_list_id', 'in', f.tagListIds);
    }
    if (f.search) q = q.where('name', 'ilike', `%${f.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    let rowsQ = q.selectAll().orderBy(sql`lower(name)`).orderBy('id');
    if (f.limit !== undefined) rowsQ = rowsQ.limit(f.limit).offset(f.offset ?? 0);
    return { rows: await rowsQ.execute(), total: total.n };
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

  async setRequireTag(db: Db, workspaceId: string, value: boolean): Promise<void> {
    await db
      .insertInto('time_settings')
      .values({ workspace_id: workspaceId, require_tag: value, updated_at: new Date() })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ require_tag: value, updated_at: new Date() }))
      .execute();
  },
};
