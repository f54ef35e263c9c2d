import type { Db } from '../db/connection.js';
import type { Session } from '../db/tables.js';
import { hashSecret, newSecret } from './ids.js';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

const REMEMBER_DAYS = 30;
const minutes = (n: number) => n * 60_000;

export interface StartedSession {
  secret: string;
  expiresAt: Date;
  remember: boolean;
}

/** Server-side sessions: the browser holds a random secret, the table only its hash. */
export function createSessionStore(db: Db, policy: SessionPolicy) {
  const lifetime = (remember: boolean) =>
    remember ? minutes(REMEMBER_DAYS * 24 * 60) : minutes(policy.absoluteHours * 60);
  const idle = (remember: boolean) => (remember ? lifetime(true) : minutes(policy.idleMinutes));

  return {
    async start(input: {
      userId: string;
      remember: boolean;
      userAgent?: string;
      ip?: string;
      db?: Db;
    }): Promise<StartedSession> {
      const secret = newSecret();
      const now = Date.now();
      const expiresAt = new Date(now + lifetime(input.remember));
      await (input.db ?? db)
        .insertInto('sessions')
        .values({
          id_hash: hashSecret(secret),
          user_id: input.userId,
          remember: input.remember,
          user_agent: input.userAgent?.slice(0, 300) ?? null,
          ip: input.ip ?? null,
          idle_expires_at: new Date(Math.min(now + idle(input.remember), expiresAt.getTime())),
          expires_at: expiresAt,
        })
        .execute();
      return { secret, expiresAt, remember: input.remember };
    },

    /** The live session for a secret, renewing its idle deadline (at most once a minute). */
    async resume(secret: string): Promise<Session | undefined> {
      const idHash = hashSecret(secret);
      const now = new Date();
      const session = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id_hash', '=', idHash)
        .where('expires_at', '>', now)
        .where('idle_expires_at', '>', now)
        .executeTakeFirst();
      if (!session) return undefined;
      if (now.getTime() - new Date(session.last_seen_at).getTime() > 60_000) {
        const idleUntil = new Date(Math.min(now.getTime() + idle(session.remember), session.expires_at.getTime()));
        await db
          .updateTable('sessions')
          .set({ last_seen_at: now, idle_expires_at: idleUntil })
          .where('id_hash', '=', idHash)
          .execute();
      }
      return session;
    },

    async end(secret: string): Promise<void> {
      await db.deleteFrom('sessions').where('id_hash', '=', hashSecret(secret)).execute();
    },

    /** Ends every session of a user, but the one whose secret is kept. */
    async endAllForUser(userId: string, options: { keepSecret?: string; db?: Db } = {}): Promise<void> {
      let query = (options.db ?? db).deleteFrom('sessions').where('user_id', '=', userId);
      if (options.keepSecret) query = query.where('id_hash', '!=', hashSecret(options.keepSecret));
      await query.execute();
    },

    async purgeExpired(): Promise<void> {
      const now = new Date();
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('idle_expires_at', '<=', now)]))
        .execute();
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
