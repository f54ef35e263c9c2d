import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/harness.js';
import type { Db } from '../db/connection.js';
import { AppError } from './errors.js';
import { hashedKey, rateLimiter } from './rate-limits.js';

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openTestDb({ migrated: true }));
});
afterAll(() => close?.());

let counter = 0;
const rule = (limit: number) => ({
  bucket: `test:${++counter}`,
  limit,
  windowMs: 3_600_000,
  message: (wait: string) => `Wait ${wait}.`,
});

describe('rate limiter', () => {
  it('lets exactly the limit through when many hits arrive at once', async () => {
    const limit = rule(5);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => rateLimiter.hit(db, limit)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refused).toHaveLength(15);
    for (const error of refused) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'too_many_requests', status: 429 });
      const seconds = Number(error.headers['retry-after']);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(3600);
      expect(error.message).toMatch(/^Wait \d+ (second|minute|hour)s?\.$/);
    }
  });

  it('gives a released hit back, and keeps buckets apart', async () => {
    const limit = rule(1);
    const hit = await rateLimiter.hit(db, limit);
    await expect(rateLimiter.hit(db, limit)).rejects.toThrow(AppError);
    await rateLimiter.hit(db, { ...limit, bucket: `${limit.bucket}:other` });
    await rateLimiter.release(db, hit);
    await rateLimiter.release(db, hit);
    await rateLimiter.hit(db, limit);
  });

  it('starts a new count in the next window and prunes windows that have ended', async () => {
    const limit = rule(1);
    await rateLimiter.hit(db, limit);
    await db
      .updateTable('rate_limit_hits')
      .set({
        window_start: sql<Date>`window_start - interval '1 hour'`,
        window_end: sql<Date>`window_end - interval '1 hour'`,
      })
      .where('bucket', '=', limit.bucket)
      .execute();
    await rateLimiter.hit(db, limit);
    await rateLimiter.prune(db);
    const rows = await db.selectFrom('rate_limit_hits').select('hits').where('bucket', '=', limit.bucket).execute();
    expect(rows).toEqual([{ hits: 1 }]);
  });

  it('keys e-mail addresses by a hash that ignores case', () => {
    expect(hashedKey(' Ada@Example.com')).toBe(hashedKey('ada@example.com'));
    expect(hashedKey('ada@example.com')).not.toContain('ada');
  });
});
