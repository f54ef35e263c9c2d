import { z } from 'zod';
import type { Db } from '../db/connection.js';
import { defineJob, type JobRunner } from './jobs.js';
import { OUTBOX_KEEP_DAYS } from './mail.js';
import { rateLimiter } from './rate-limits.js';
import type { SessionStore } from './sessions.js';

const DAY_MS = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/**
 * Log-in attempts count for 24 hours (docs/decisions/0004-abuse-limits.md) and a completed reset
 * forgives older failures; rows kept two days outlive both rules.
 */
const LOGIN_MEMORY_DAYS = 2;

export const purgeSessionsJob = defineJob('sessions.purge', z.object({}));
export const purgeSignInRecordsJob = defineJob('sign-in-records.purge', z.object({}));
export const purgeOutboxJob = defineJob('outbox.purge', z.object({}));
export const purgeJobsJob = defineJob('jobs.purge', z.object({}));

/** The deletes behind the platform's scheduled purges; each takes the instant to measure from. */
export const purgeRepository = {
  /** Log-in attempts, reset and address-confirmation links past their time, expired known devices, ended rate-limit windows. */
  async signInRecords(db: Db, now: Date): Promise<void> {
    const before = daysBefore(now, LOGIN_MEMORY_DAYS);
    await db.deleteFrom('login_attempts').where('created_at', '<', before).execute();
    await db.deleteFrom('password_resets').where('expires_at', '<', before).execute();
    await db.deleteFrom('email_verifications').where('expires_at', '<', before).execute();
    await db.deleteFrom('known_devices').where('expires_at', '<', now).execute();
    await rateLimiter.prune(db);
  },

  /** Outbox rows, sent or not, older than OUTBOX_KEEP_DAYS. */
  async outbox(db: Db, now: Date): Promise<void> {
    await db.deleteFrom('outbox').where('created_at', '<', daysBefore(now, OUTBOX_KEEP_DAYS)).execute();
  },
};

/**
 * Registers and schedules the platform's own housekeeping: expired sessions every 15 minutes,
 * sign-in records hourly, old outbox rows and finished jobs daily (minutes chosen off the hour so
 * they do not meet other schedules).
 */
export function schedulePlatformPurges(jobs: JobRunner, deps: { db: Db; sessions: SessionStore }): void {
  jobs.register(purgeSessionsJob, () => deps.sessions.purgeExpired());
  jobs.schedule(purgeSessionsJob, '*/15 * * * *', {});
  jobs.register(purgeSignInRecordsJob, (_payload, { now }) => purgeRepository.signInRecords(deps.db, now));
  jobs.schedule(purgeSignInRecordsJob, '7 * * * *', {});
  jobs.register(purgeOutboxJob, (_payload, { now }) => purgeRepository.outbox(deps.db, now));
  jobs.schedule(purgeOutboxJob, '23 3 * * *', {});
  jobs.register(purgeJobsJob, (_payload, { now }) => jobs.purgeFinished(now));
  jobs.schedule(purgeJobsJob, '41 3 * * *', {});
}
