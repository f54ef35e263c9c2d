import { sql, type Updateable } from 'kysely';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/connection.js';
import type { ImportStatus, ImportsTable } from '../../db/tables/imports.js';

/** The catalogue objects an import creates, with their ids chosen by the plan. */
export interface ImportCatalog {
  clients: { id: string; name: string }[];
  projects: { id: string; name: string; client_id: string | null }[];
  /** Parents come before their sub-tasks. */
  tasks: { id: string; name: string; project_id: string; parent_task_id: string | null }[];
  tagList: { id: string; name: string } | null;
  tags: { id: string; name: string }[];
  /** Members assigned to tasks. */
  assignments: { project_id: string; task_id: string; user_id: string }[];
}

/** SQL of imports: what exists (matched by name), the import rows and their staged lines. */
export const importsRepository = {
  async existing(db: Db, workspaceId: string) {
    const [clients, projects, tasks, tags, members, lists, assignments] = await Promise.all([
      db.selectFrom('clients').select(['id', 'name']).where('workspace_id', '=', workspaceId).execute(),
      db.selectFrom('projects').select(['id', 'name', 'client_id']).where('workspace_id', '=', workspaceId).execute(),
      db
        .selectFrom('tasks')
        .select(['id', 'name', 'project_id', 'parent_task_id'])
        .where('workspace_id', '=', workspaceId)
        .execute(),
      db.selectFrom('tags').select(['id', 'name']).where('workspace_id', '=', workspaceId).orderBy('id').execute(),
      db
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['u.id', 'u.email'])
        .where('m.workspace_id', '=', workspaceId)
        .where('m.status', '=', 'active')
        .execute(),
      db.selectFrom('tag_lists').select(['id', 'name']).where('workspace_id', '=', workspaceId).execute(),
      db
        .selectFrom('project_members')
        .select(['task_id', 'user_id'])
        .where('workspace_id', '=', workspaceId)
        .where('task_id', 'is not', null)
        .where('user_id', 'is not', null)
        .execute(),
    ]);
    return { clients, projects, tasks, tags, members, lists, assignments };
  },

  /** Those of `userIds` who are active members of the workspace. */
  async activeMembers(db: Db, workspaceId: string, userIds: string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await db
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'active')
      .where('user_id', 'in', userIds)
      .execute();
    return rows.map((r) => r.user_id);
  },

  async create(db: Db, values: { id: string; workspace_id: string; created_by_user_id: string; source: string }) {
    const now = new Date();
    await db
      .insertInto('imports')
      .values({ ...values, status: 'reading', created_at: now, updated_at: now })
      .execute();
  },

  async find(db: Db, workspaceId: string, id: string) {
    return db
      .selectFrom('imports')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** Until `tx` ends, one writer per import (a transaction-scoped advisory lock on its id). */
  async lockForWriting(tx: Db, id: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${id}, 0))`.execute(tx);
  },

  /** Changes an import, when it is still in one of `from` (answers whether it was). */
  async update(
    db: Db,
    id: string,
    from: ImportStatus[],
    set: Omit<Updateable<ImportsTable>, 'id' | 'detail'> & { detail?: unknown },
  ): Promise<boolean> {
    const { detail, ...rest } = set;
    const result = await db
      .updateTable('imports')
      .set({ ...rest, ...(detail === undefined ? {} : { detail: JSON.stringify(detail) }), updated_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async remove(db: Db, id: string): Promise<void> {
    await db.deleteFrom('imports').where('id', '=', id).execute();
  },

  async stage(db: Db, importId: string, rows: { line: number }[]): Promise<void> {
    await inChunks(rows, (c) =>
      db
        .insertInto('import_rows')
        .values(c.map((r) => ({ import_id: importId, line: r.line, row: JSON.stringify(r) })))
        .execute(),
    );
  },

  /** Staged rows after `afterLine`, in file order. */
  async staged(db: Db, importId: string, afterLine: number, limit: number): Promise<{ line: number; row: unknown }[]> {
    return db
      .selectFrom('import_rows')
      .select(['line', 'row'])
      .where('import_id', '=', importId)
      .where('line', '>', afterLine)
      .orderBy('line')
      .limit(limit)
      .execute();
  },

  async unstage(db: Db, importId: string): Promise<void> {
    await db.deleteFrom('import_rows').where('import_id', '=', importId).execute();
  },

  /** Imports started before `before` and not under way (their staged rows go with them). */
  async purge(db: Db, before: Date): Promise<void> {
    await db
      .deleteFrom('imports')
      .where('updated_at', '<', before)
      .where('status', 'not in', ['queued', 'importing'])
      .execute();
  },
};
