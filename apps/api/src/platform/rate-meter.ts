import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { rateLimiter } from './rate-limits.js';

/** A bucket's count in its current window, and the seconds until the window ends. */
export interface MeterReading {
  hits: number[];
  resetSeconds: number;
}

/**
 * Counts requests in fixed windows for limits every request meets (the API keys'): without a
 * database write per request. Each process counts in memory and adds its counts to the shared
 * `rate_limit_hits` rows every `flushMs`, reading back the totals of every process; a bucket's
 * count is that total plus what this process counted since. So one process counts exactly, and
 * several miss at most each other's last `flushMs` of requests.
 */
export interface RateMeter {
  /** Counts one hit of each bucket now; answers each one's count in the window, this hit included. */
  hit(buckets: readonly string[]): MeterReading;
  /** Adds this process's counts to the shared ones now (the timer does it every `flushMs`). */
  flush(): Promise<void>;
  /** Stops the timer after a last flush. */
  close(): Promise<void>;
}

interface Tally {
  windowStart: number;
  /** Every process's count as of this process's last flush (its own flushed hits included). */
  known: number;
  /** This process's hits not flushed yet. */
  pending: number;
}

/** One in this many flushes also deletes the shared counters of windows that have ended. */
const PRUNE_EVERY = 60;

export function createRateMeter(
  db: Db,
  options: { windowMs?: number; flushMs?: number; now?: () => number; onError?: (error: unknown) => void } = {},
): RateMeter {
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const tallies = new Map<string, Tally>();
  let flushing: Promise<void> | undefined;
  let flushes = 0;

  async function flushOnce(): Promise<void> {
    const taken: [string, Tally, number][] = [];
    const current = Math.floor(now() / windowMs) * windowMs;
    for (const [bucket, tally] of tallies) {
      if (tally.pending > 0) {
        taken.push([bucket, tally, tally.pending]);
        tally.pending = 0;
      } else if (tally.windowStart < current) {
        tallies.delete(bucket);
      }
    }
    if (taken.length === 0) return;
    try {
      const rows = taken.map(
        ([bucket, tally, hits]) =>
          sql`(${bucket}::text, ${new Date(tally.windowStart)}::timestamptz, ${new Date(tally.windowStart + windowMs)}::timestamptz, ${hits}::int)`,
      );
      const { rows: totals } = await sql<{ bucket: string; window_start: Date; hits: number }>`
        insert into rate_limit_hits as r (bucket, window_start, window_end, hits)
        values ${sql.join(rows)}
        on conflict (bucket, window_start) do update set hits = r.hits + excluded.hits
        returning r.bucket, r.window_start, r.hits
      `.execute(db);
      for (const total of totals) {
        const tally = tallies.get(total.bucket);
        if (tally && tally.windowStart === new Date(total.window_start).getTime()) tally.known = Number(total.hits);
      }
      if (++flushes % PRUNE_EVERY === 0) await rateLimiter.prune(db);
    } catch (error) {
      // Not lost: the hits count again at the next flush.
      for (const [, tally, hits] of taken) tally.pending += hits;
      throw error;
    }
  }

  const flush = (): Promise<void> => {
    flushing ??= flushOnce().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };
  const timer = setInterval(() => {
    flush().catch((error) => options.onError?.(error));
  }, options.flushMs ?? 1000);
  timer.unref();

  return {
    hit(buckets) {
      const at = now();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      const hits = buckets.map((bucket) => {
        let tally = tallies.get(bucket);
        if (!tally || tally.windowStart !== windowStart) {
          tally = { windowStart, known: 0, pending: 0 };
          tallies.set(bucket, tally);
        }
        tally.pending += 1;
        return tally.known + tally.pending;
      });
      return { hits, resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000)) };
    },
    flush,
    async close() {
      clearInterval(timer);
      await flushing;
      await flush();
    },
  };
}
