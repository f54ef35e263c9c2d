import {
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationListView,
  type NotificationSettingsView,
  type UpdateNotificationSettingsBody,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { notFound } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail.js';
import { notificationsRepository as repo } from './notifications.repository.js';

const SHOWN = 50;

/** Someone a notification goes to. */
export interface Recipient {
  id: string;
  email: string;
}

/** A notification of one kind for some members: in the bell, and by e-mail. */
export interface Delivery {
  workspaceId: string;
  kind: NotificationKind;
  to: Recipient[];
  title: string;
  body: string;
  /** Where in the app it leads (a path), or null. */
  link: string | null;
  mail: { subject: string; text: string };
}

/**
 * Notifications: each member reads and marks read their own, and says which kinds reach them in
 * the bell and by e-mail (no role needed beyond being a member); other modules deliver them inside
 * their own transaction with `deliver`, which keeps to those settings.
 */
export function createNotificationsService({ db, mailer }: { db: Db; mailer: Mailer }) {
  /** The actor's settings, every kind (on unless they turned it off). */
  async function settings(actor: Actor): Promise<NotificationSettingsView> {
    const rows = await repo.mySettings(db, actor.membership.workspace.id, actor.userId);
    const saved = new Map(rows.map((r) => [r.kind, r]));
    return {
      items: NOTIFICATION_KINDS.map((kind) => ({
        kind,
        inApp: saved.get(kind)?.in_app ?? true,
        email: saved.get(kind)?.email ?? true,
      })),
    };
  }

  return {
    /**
     * Adds the notification to the bell of each recipient who has not turned the kind off there, and
     * queues its e-mail (outbox, `tx`) to each who has not turned its e-mail off; in the caller's
     * transaction, so all of it happens with the change or not at all.
     */
    async deliver(tx: Db, d: Delivery): Promise<void> {
      const people = [...new Map(d.to.map((p) => [p.id, p])).values()];
      if (people.length === 0) return;
      const off = new Map(
        (
          await repo.settingsOf(
            tx,
            d.workspaceId,
            people.map((p) => p.id),
            d.kind,
          )
        ).map((r) => [r.user_id, r]),
      );
      const inApp = people.filter((p) => off.get(p.id)?.in_app !== false);
      await repo.insert(
        tx,
        d.workspaceId,
        inApp.map((p) => p.id),
        { kind: d.kind, title: d.title, body: d.body, link: d.link },
      );
      for (const person of people) {
        if (off.get(person.id)?.email !== false) await mailer.send({ to: person.email, ...d.mail }, { db: tx });
      }
    },

    /** The actor's settings, every kind (on unless they turned it off). */
    settings,

    /** Saves the actor's settings for the kinds given; answers all of them. */
    async updateSettings(actor: Actor, input: UpdateNotificationSettingsBody): Promise<NotificationSettingsView> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        await repo.saveSettings(tx, workspaceId, actor.userId, input.items);
        await audit(tx, {
          action: 'notification_settings.updated',
          actorUserId: actor.userId,
          workspaceId,
          detail: { items: input.items },
        });
      });
      return settings(actor);
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
