import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { NotificationRow } from '../../db/tables/notifications.js';
import { newId } from '../../platform/ids.js';

export interface NewNotification {
  kind: string;
  title: string;
  body: string;
  link: string | null;
}

export const notificationsRepository = {
  async insert(tx: Db, workspaceId: string, userIds: string[], n: NewNotification): Promise<void> {
    if (userIds.length === 0) return;
    await tx
      .insertInto('notifications')
      .values(
        userIds.map((user_id) => ({
          id: newId(),
          workspace_id: workspaceId,
          user_id,
          ...n,
          read_at: null,
          created_at: new Date(),
        })),
      )
      .execute();
  },

  /** The newest `limit` notifications of a member, and how many of all theirs are unread. */
  async list(db: Db, workspaceId: string, userId: string, limit: number) {
    const mine = db.selectFrom('notifications').where('workspace_id', '=', workspaceId).where('user_id', '=', userId);
    const [rows, unread] = await Promise.all([
      mine.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute(),
      mine.select(sql<number>`count(*)::int`.as('n')).where('read_at', 'is', null).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as NotificationRow[], unread: unread.n };
  },

  /** Marks one notification (or, without `id`, all) of a member read; answers how many changed. */
  async markRead(db: Db, workspaceId: string, userId: string, id?: string): Promise<number> {
    let q = db
      .updateTable('notifications')
      .set({ read_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (id) q = q.where('id', '=', id);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  /** The settings rows of these members for one kind (no row: both on). */
  async settingsOf(db: Db, workspaceId: string, userIds: string[], kind: string) {
    if (userIds.length === 0) return [];
    return db
      .selectFrom('notification_settings')
      .select(['user_id', 'in_app', 'email'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', 'in', userIds)
      .where('kind', '=', kind)
      .execute();
  },

  /** One member's settings rows, every kind they changed. */
  mySettings(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom('notification_settings')
      .select(['kind', 'in_app', 'email'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  async saveSettings(
    db: Db,
    workspaceId: string,
    userId: string,
    items: { kind: string; inApp: boolean; email: boolean }[],
  ): Promise<void> {
    await db
      .insertInto('notification_settings')
      .values(
        items.map((i) => ({
          workspace_id: workspaceId,
          user_id: userId,
          kind: i.kind,
          in_app: i.inApp,
          email: i.email,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'user_id', 'kind']).doUpdateSet((eb) => ({
          in_app: eb.ref('excluded.in_app'),
          email: eb.ref('excluded.email'),
          updated_at: new Date(),
        })),
      )
      .execute();
  },

  async exists(db: Db, workspaceId: string, userId: string, id: string): Promise<boolean> {
    const row = await db
      .selectFrom('notifications')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  },
};
