import type { Db } from '../db/connection.js';
import type { Session } from '../db/tables.js';
import { hashSecret, newSecret } from './ids.js';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

const REMEMBER_DAYS = 30;
const minutes = (n: number) => n * 60_000;
const RENEW_EVERY_MS = 60_000;

/** How the sessions table knows a secret: by its hash only. */
export const sessionIdHash = (secret: string) => hashSecret(secret);

/**
 * The live session of a secret's hash (`sessionIdHash`; not past its absolute or idle deadline), as a select the app joins
 * the session's user (and membership) onto: a request is authenticated in one query.
 */
export function liveSessions(db: Db, idHash: string, now: Date) {
  return db
    .selectFrom('sessions as s')
    .where('s.id_hash', '=', idHash)
    .where('s.expires_at', '>', now)
    .where('s.idle_expires_at', '>', now);
}

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
      /** May only set up two-factor authentication (a workspace of the user requires it). */
      enrolmentOnly?: boolean;
      /** The workspace whose identity provider proved the sign-in (that workspace's "require SSO" admits it). */
      viaWorkspaceId?: string | undefined;
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
          enrolment_only: input.enrolmentOnly ?? false,
          via_workspace_id: input.viaWorkspaceId ?? null,
          idle_expires_at: new Date(Math.min(now + idle(input.remember), expiresAt.getTime())),
          expires_at: expiresAt,
        })
        .execute();
      return { secret, expiresAt, remember: input.remember };
    },

    /**
     * Slides the idle deadline of a session the request just proved live (`liveSessions`). At most
     * one write a minute per session: between those the stored deadline is less than a minute
     * short of the sliding one, so an idle session ends at most a minute early, never late.
     */
    async renew(
      secret: string,
      session: Pick<Session, 'remember' | 'last_seen_at' | 'expires_at'>,
      now = new Date(),
    ): Promise<void> {
      if (now.getTime() - new Date(session.last_seen_at).getTime() <= RENEW_EVERY_MS) return;
      const idleUntil = new Date(Math.min(now.getTime() + idle(session.remember), session.expires_at.getTime()));
      await db
        .updateTable('sessions')
        .set({ last_seen_at: now, idle_expires_at: idleUntil })
        .where('id_hash', '=', hashSecret(secret))
        .execute();
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

    /** The live sessions of a user, most recently seen first; `current` marks the one of `secret`. */
    async listForUser(userId: string, secret: string | undefined, now = new Date()) {
      const rows = await db
        .selectFrom('sessions')
        .select(['id', 'id_hash', 'user_agent', 'ip', 'created_at', 'last_seen_at'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .where('idle_expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .execute();
      const currentHash = secret ? hashSecret(secret) : undefined;
      return rows.map(({ id_hash, ...row }) => ({ ...row, current: id_hash === currentHash }));
    },

    /** Ends one session of a user by its public id; false when the user has no such session. */
    async endById(userId: string, id: string, options: { db?: Db } = {}): Promise<boolean> {
      const ended = await (options.db ?? db)
        .deleteFrom('sessions')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(ended.numDeletedRows) > 0;
    },

    /** Lifts the enrolment-only limit from every session of a user (they set up two-factor authentication). */
    async liftEnrolmentOnly(userId: string, options: { db?: Db } = {}): Promise<void> {
      await (options.db ?? db)
        .updateTable('sessions')
        .set({ enrolment_only: false })
        .where('user_id', '=', userId)
        .where('enrolment_only', '=', true)
        .execute();
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
