import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';

/** The e-mailed single-use links: a password reset, and the confirmation of an address (same shape). */
export type LinkTable = 'password_resets' | 'email_verifications';

export const authRepository = {
  /** Records a log-in attempt; answers its id. */
  async recordAttempt(db: Db, attempt: { email: string; ip: string; success: boolean }): Promise<number> {
    const row = await db.insertInto('login_attempts').values(attempt).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  },

  async markAttemptSucceeded(db: Db, id: number): Promise<void> {
    await db.updateTable('login_attempts').set({ success: true }).where('id', '=', id).execute();
  },

  async deleteAttempt(db: Db, id: number): Promise<void> {
    await db.deleteFrom('login_attempts').where('id', '=', id).execute();
  },

  /**
   * The failed attempts for one e-mail that still count (leaving out one, when given): since a
   * moment, and since the account's last completed password reset; with the milliseconds since
   * the latest of them, measured by the database's clock.
   */
  async countAccountFailures(db: Db, input: { email: string; since: Date; exceptId?: number }) {
    const lastReset = db
      .selectFrom('password_resets as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select((eb) => eb.fn.max('r.used_at').as('used_at'))
      .where((eb) => eb(eb.fn('lower', ['u.email']), '=', input.email));
    const row = await db
      .selectFrom('login_attempts')
      .select((eb) => [
        eb.fn.countAll<number>().as('failures'),
        sql<number | null>`extract(epoch from now() - max(created_at)) * 1000`.as('msSinceLast'),
      ])
      .where('email', '=', input.email)
      .where('success', '=', false)
      .where('created_at', '>', sql<Date>`greatest(${input.since}::timestamptz, (${lastReset}))`)
      .$if(input.exceptId !== undefined, (q) => q.where('id', '!=', input.exceptId ?? 0))
      .executeTakeFirstOrThrow();
    return {
      failures: Number(row.failures),
      msSinceLast: row.msSinceLast === null ? undefined : Number(row.msSinceLast),
    };
  },

  /**
   * Counts a password guess against a known device of the user, when the token is one and its
   * failure budget is not used up; answers whether it was (the device is trusted for this guess).
   */
  async countDeviceAttempt(db: Db, input: { tokenHash: string; userId: string; budget: number }): Promise<boolean> {
    const row = await db
      .updateTable('known_devices')
      .set((eb) => ({ failures: eb('failures', '+', 1) }))
      .where('token_hash', '=', input.tokenHash)
      .where('user_id', '=', input.userId)
      .where('failures', '<', input.budget)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('token_hash')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** After a successful log-in from a known device: its failures start again and it lives longer. */
  async refreshDevice(db: Db, input: { tokenHash: string; userId: string; expiresAt: Date }): Promise<boolean> {
    const row = await db
      .updateTable('known_devices')
      .set({ failures: 0, last_used_at: sql<Date>`now()`, expires_at: input.expiresAt })
      .where('token_hash', '=', input.tokenHash)
      .where('user_id', '=', input.userId)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('token_hash')
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Remembers a new device of the user, and forgets the user's devices that have expired. */
  async insertDevice(db: Db, input: { tokenHash: string; userId: string; expiresAt: Date }): Promise<void> {
    await db
      .deleteFrom('known_devices')
      .where('user_id', '=', input.userId)
      .where('expires_at', '<=', sql<Date>`now()`)
      .execute();
    await db
      .insertInto('known_devices')
      .values({ token_hash: input.tokenHash, user_id: input.userId, expires_at: input.expiresAt })
      .execute();
  },

  async insertLink(db: Db, table: LinkTable, link: { tokenHash: string; userId: string; expiresAt: Date }) {
    await db
      .insertInto(table)
      .values({ token_hash: link.tokenHash, user_id: link.userId, expires_at: link.expiresAt })
      .execute();
  },

  /** The link's row; with `lock`, locked for the rest of the transaction so a link is used once only. */
  findLink(db: Db, table: LinkTable, tokenHash: string, options: { lock?: boolean } = {}) {
    return db
      .selectFrom(table)
      .select(['token_hash', 'user_id', 'expires_at', 'used_at'])
      .where('token_hash', '=', tokenHash)
      .$if(options.lock === true, (q) => q.forUpdate())
      .executeTakeFirst();
  },

  /** Uses the link up, and every other unused link of the same kind of the user with it. */
  async markLinkUsed(db: Db, table: LinkTable, userId: string): Promise<void> {
    await db
      .updateTable(table)
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  },
};

/**
 * Log-in attempts count for 24 hours (docs/decisions/0004-abuse-limits.md) and a completed reset
 * forgives older failures; rows kept two days outlive both rules.
 */
const LOGIN_MEMORY_DAYS = 2;

/** Log-in attempts, reset and address-confirmation links past their time, expired known devices. */
export async function purgeSignInRecords(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - LOGIN_MEMORY_DAYS * 86_400_000);
  await db.deleteFrom('login_attempts').where('created_at', '<', before).execute();
  await db.deleteFrom('password_resets').where('expires_at', '<', before).execute();
  await db.deleteFrom('email_verifications').where('expires_at', '<', before).execute();
  await db.deleteFrom('known_devices').where('expires_at', '<', now).execute();
}

export const purgeSignInRecordsJob = defineJob('sign-in-records.purge', z.object({}));

/** The sign-in records' purge, hourly (its own minute, off the platform's). */
export function scheduleAuthPurge(jobs: JobRunner, db: Db): void {
  jobs.register(purgeSignInRecordsJob, (_payload, { now }) => purgeSignInRecords(db, now));
  jobs.schedule(purgeSignInRecordsJob, '13 * * * *', {});
}
