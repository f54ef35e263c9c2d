import { z } from 'zod';
import type { Db } from '../db/connection.js';
import { defineJob, type JobRunner } from './jobs.js';
import { OUTBOX_KEEP_DAYS } from './mail.js';
import { rateLimiter } from './rate-limits.js';
import type { SessionStore } from './sessions.js';

const DAY_MS = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

export const purgeSessionsJob = defineJob('sessions.purge', z.object({}));
export const purgeRateLimitsJob = defineJob('rate-limits.purge', z.object({}));
export const purgeOutboxJob = defineJob('outbox.purge', z.object({}));
export const purgeJobsJob = defineJob('jobs.purge', z.object({}));

/** The deletes behind the platform's scheduled purges; each takes the instant to measure from. */
export const purgeRepository = {
  /** Outbox rows, sent or not, older than OUTBOX_KEEP_DAYS. */
  async outbox(db: Db, now: Date): Promise<void> {
    await db.deleteFrom('outbox').where('created_at', '<', daysBefore(now, OUTBOX_KEEP_DAYS)).execute();
  },
};

/**
 * Registers and schedules the platform's own housekeeping: expired sessions every 15 minutes,
 * ended rate-limit windows hourly, old outbox rows and finished jobs daily (minutes chosen off the
 * hour so they do not meet other schedules). The sign-in records are the auth module's to purge
 * (`scheduleAuthPurge`).
 */
export function schedulePlatformPurges(jobs: JobRunner, deps: { db: Db; sessions: SessionStore }): void {
  jobs.register(purgeSessionsJob, () => deps.sessions.purgeExpired());
  jobs.schedule(purgeSessionsJob, '*/15 * * * *', {});
  jobs.register(purgeRateLimitsJob, () => rateLimiter.prune(deps.db));
  jobs.schedule(purgeRateLimitsJob, '7 * * * *', {});
  jobs.register(purgeOutboxJob, (_payload, { now }) => purgeRepository.outbox(deps.db, now));
  jobs.schedule(purgeOutboxJob, '23 3 * * *', {});
  jobs.register(purgeJobsJob, (_payload, { now }) => jobs.purgeFinished(now));
  jobs.schedule(purgeJobsJob, '41 3 * * *', {});
}
