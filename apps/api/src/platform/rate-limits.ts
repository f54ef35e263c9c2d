import { waitText } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { AppError } from './errors.js';
import { hashSecret } from './ids.js';

export interface RateLimit {
  /** What is counted, e.g. `signup:ip:203.0.113.7`; use `hashedKey` for e-mail addresses. */
  bucket: string;
  /** How many hits a window allows; the next one is refused. */
  limit: number;
  /** The length of the fixed window, in whole seconds' worth of milliseconds. */
  windowMs: number;
  /** The 429 message, given the wait in words ("42 minutes"). */
  message: (wait: string) => string;
  /** The error code of the 429; `too_many_requests` when unset. */
  code?: string;
}

/** A counted hit, to give back with `release` when it turned out not to count (a log-in that succeeded). */
export interface RateLimitHit {
  bucket: string;
  windowStart: Date;
  hits: number;
}

/** One in this many hits also deletes the counters of windows that have ended. */
const PRUNE_EVERY = 200;

/** A bucket key that keeps the value (an e-mail address) out of the table. */
export const hashedKey = (value: string): string => hashSecret(value.trim().toLowerCase());

/**
 * The one abuse limiter: fixed windows counted in the database, so every API process (and
 * PGlite as well as PostgreSQL) shares the counts. The hit is added and read back in one atomic
 * statement, so requests sent at once can never all pass the count.
 */
export const rateLimiter = {
  /**
   * Counts one hit in the rule's current window; throws 429 (the rule's code, its message and
   * Retry-After in seconds until the window ends) when that makes more than `limit`.
   */
  async hit(db: Db, rule: RateLimit): Promise<RateLimitHit> {
    const seconds = Math.max(1, Math.round(rule.windowMs / 1000));
    const { rows } = await sql<{ hits: number; window_start: Date; retry_after: number }>`
      insert into rate_limit_hits as r (bucket, window_start, window_end, hits)
      select ${rule.bucket}, w.start, w.start + make_interval(secs => ${seconds}::int), 1
      from (
        select to_timestamp((floor(extract(epoch from now()) / ${seconds}::int) * ${seconds}::int)::float8) as start
      ) as w
      on conflict (bucket, window_start) do update set hits = r.hits + 1
      returning r.hits, r.window_start, ceil(extract(epoch from r.window_end - now()))::int as retry_after
    `.execute(db);
    const row = rows[0];
    if (!row) throw new Error(`rate limit ${rule.bucket} was not counted`);
    if (Math.random() * PRUNE_EVERY < 1) await rateLimiter.prune(db);
    if (row.hits > rule.limit) {
      const retryAfter = Math.max(1, Number(row.retry_after));
      throw new AppError(rule.code ?? 'too_many_requests', rule.message(waitText(retryAfter)), {
        status: 429,
        headers: { 'retry-after': String(retryAfter) },
      });
    }
    return { bucket: rule.bucket, windowStart: new Date(row.window_start), hits: Number(row.hits) };
  },

  /** Takes a hit back, e.g. a log-in attempt counted before its password was checked and found right. */
  async release(db: Db, hit: RateLimitHit): Promise<void> {
    await db
      .updateTable('rate_limit_hits')
      .set((eb) => ({ hits: eb('hits', '-', 1) }))
      .where('bucket', '=', hit.bucket)
      .where('window_start', '=', hit.windowStart)
      .where('hits', '>', 0)
      .execute();
  },

  /** Deletes the counters of windows that have ended. */
  async prune(db: Db): Promise<void> {
    await db.deleteFrom('rate_limit_hits').where('window_end', '<', sql<Date>`now()`).execute();
  },
};
