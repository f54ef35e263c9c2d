import { describeUserAgent, type SessionView } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { User } from '../../db/tables.js';
import { audit } from '../../platform/audit.js';
import { notFound } from '../../platform/errors.js';
import type { SessionStore } from '../../platform/sessions.js';

/** A signed-in user's own sessions: listed on the profile, ended one by one or all but this one. */
export function createAccountSessionsService(deps: { db: Db; sessions: SessionStore }) {
  const { db, sessions } = deps;
  return {
    async list(user: User, currentSecret: string | undefined): Promise<SessionView[]> {
      const rows = await sessions.listForUser(user.id, currentSecret);
      return rows.map((row) => ({
        id: row.id,
        device: describeUserAgent(row.user_agent),
        ip: row.ip,
        createdAt: new Date(row.created_at).toISOString(),
        lastSeenAt: new Date(row.last_seen_at).toISOString(),
        current: row.current,
      }));
    },

    /** Ends one of the user's sessions (this one too, if asked); 404 when it is not theirs or has ended. */
    async revoke(user: User, sessionId: string): Promise<void> {
      await db.transaction().execute(async (tx) => {
        if (!(await sessions.endById(user.id, sessionId, { db: tx }))) throw notFound('Session not found.');
        await audit(tx, { action: 'session.revoked', actorUserId: user.id, subjectId: user.id, detail: { sessionId } });
      });
    },

    /** Ends every session of the user but the asking one. */
    async revokeOthers(user: User, currentSecret: string | undefined): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await sessions.endAllForUser(user.id, { keepSecret: currentSecret, db: tx });
        await audit(tx, { action: 'session.others_revoked', actorUserId: user.id, subjectId: user.id });
      });
    },
  };
}

export type AccountSessionsService = ReturnType<typeof createAccountSessionsService>;
