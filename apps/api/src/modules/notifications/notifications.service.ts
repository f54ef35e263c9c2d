import type { NotificationListView } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { Actor } from '../../platform/actor.js';
import { notFound } from '../../platform/errors.js';
import { type NewNotification, notificationsRepository as repo } from './notifications.repository.js';

const SHOWN = 50;

/**
 * In-app notifications: each member reads and marks read their own (no role needed beyond being a
 * member); other modules add them inside their own transaction with `add`.
 */
export function createNotificationsService(db: Db) {
  return {
    /** Adds one notification for each of `userIds` (members of the workspace), in the caller's transaction. */
    add(tx: Db, workspaceId: string, userIds: string[], notification: NewNotification): Promise<void> {
      return repo.insert(tx, workspaceId, userIds, notification);
    },

    /** The actor's newest notifications and their unread count. */
    async list(actor: Actor): Promise<NotificationListView> {
      const { rows, unread } = await repo.list(db, actor.membership.workspace.id, actor.userId, SHOWN);
      return {
        unread,
        items: rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          title: r.title,
          body: r.body,
          link: r.link,
          read: r.read_at !== null,
          createdAt: new Date(r.created_at).toISOString(),
        })),
      };
    },

    /** Marks one of the actor's notifications read; 404 for another's or an unknown one. */
    async markRead(actor: Actor, id: string): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      if (!(await repo.exists(db, workspaceId, actor.userId, id))) throw notFound('Notification not found.');
      await repo.markRead(db, workspaceId, actor.userId, id);
    },

    /** Marks all of the actor's notifications read. */
    async markAllRead(actor: Actor): Promise<void> {
      await repo.markRead(db, actor.membership.workspace.id, actor.userId);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
