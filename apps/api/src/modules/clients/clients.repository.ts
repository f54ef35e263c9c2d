import { sql } from 'kysely';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/connection.js';
import type { Client } from '../../db/tables/projects.js';
import { nameOrCreatedOrder, pageAfter } from '../../platform/keyset.js';

export interface ClientRow extends Client {
  project_count: number;
}

export interface ClientListFilter {
  search?: string;
  archived: 'true' | 'false' | 'all';
  sort: 'name' | 'created';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** Go on after the row this cursor names (keyset paging). */
  cursor?: string;
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

function withCount(db: Db, workspaceId: string) {
  return db
    .selectFrom('clients as c')
    .where('c.workspace_id', '=', workspaceId)
    .selectAll('c')
    .select((eb) =>
      eb
        .selectFrom('projects as p')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('p.workspace_id', '=', 'c.workspace_id')
        .whereRef('p.client_id', '=', 'c.id')
        .where('p.archived_at', 'is', null)
        .as('project_count'),
    );
}

export const clientsRepository = {
  /** The clients an import creates, with the ids its plan chose, in the import's transaction. */
  async insertImported(tx: Db, workspaceId: string, clients: readonly { id: string; name: string }[]): Promise<void> {
    const now = new Date();
    await inChunks(clients, (c) =>
      tx
        .insertInto('clients')
        .values(
          c.map((x) => ({
            ...x,
            workspace_id: workspaceId,
            address: null,
            currency: null,
            note: null,
            created_at: now,
            updated_at: now,
            archived_at: null,
          })),
        )
        .execute(),
    );
  },

  async list(
    db: Db,
    workspaceId: string,
    f: ClientListFilter,
  ): Promise<{ rows: ClientRow[]; total: number; nextCursor: string | null }> {
    let q = db.selectFrom('clients as c').where('c.workspace_id', '=', workspaceId);
    let rowsQ = withCount(db, workspaceId);
    if (f.archived !== 'all') {
      const op = f.archived === 'true' ? 'is not' : 'is';
      q = q.where('c.archived_at', op, null);
      rowsQ = rowsQ.where('c.archived_at', op, null);
    }
    if (f.search) {
      q = q.where('c.name', 'ilike', likePattern(f.search));
      rowsQ = rowsQ.where('c.name', 'ilike', likePattern(f.search));
    }
    const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const order = nameOrCreatedOrder('c', f.sort, f.order);
    if (f.cursor) rowsQ = rowsQ.where(order.after(f.cursor, f.offset));
    const rows = await rowsQ
      .select(order.select)
      .orderBy(order.orderBy)
      .limit(f.limit + 1)
      .offset(f.offset)
      .execute();
    const page = pageAfter(rows, f.limit);
    return { rows: page.rows as ClientRow[], total: total.n, nextCursor: page.nextCursor };
  },

  async find(db: Db, workspaceId: string, id: string): Promise<ClientRow | undefined> {
    return (await withCount(db, workspaceId).where('c.id', '=', id).executeTakeFirst()) as ClientRow | undefined;
  },

  async insert(
    db: Db,
    v: {
      id: string;
      workspace_id: string;
      name: string;
      address: string | null;
      currency: string | null;
      note: string | null;
    },
  ): Promise<void> {
    await db
      .insertInto('clients')
      .values({ ...v, archived_at: null, created_at: new Date(), updated_at: new Date() })
      .execute();
  },

  async update(
    db: Db,
    workspaceId: string,
    id: string,
    v: {
      name?: string;
      address?: string | null;
      currency?: string | null;
      note?: string | null;
      archived_at?: Date | null;
    },
  ): Promise<void> {
    await db
      .updateTable('clients')
      .set({ ...v, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async delete(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('clients').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },
};
