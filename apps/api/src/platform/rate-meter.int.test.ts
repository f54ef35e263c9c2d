import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/harness.js';
import type { Db } from '../db/connection.js';
import { createRateMeter } from './rate-meter.js';

/**
 * The request meter of the API keys' limits: counted in memory, shared through the database. Two
 * meters on one database stand for two processes of a deployment; their clock is the test's.
 */
let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await openTestDb({ migrated: true }));
});
afterAll(() => close?.());

describe('the rate meter', () => {
  it('counts each bucket in its window and tells the seconds until the window ends', async () => {
    let at = Date.UTC(2026, 10, 30, 9, 0, 15);
    const meter = createRateMeter(db, { now: () => at, flushMs: 3_600_000 });
    expect(meter.hit(['a', 'b'])).toEqual({ hits: [1, 1], resetSeconds: 45 });
    expect(meter.hit(['a'])).toEqual({ hits: [2], resetSeconds: 45 });
    at += 44_500;
    expect(meter.hit(['a', 'b'])).toEqual({ hits: [3, 2], resetSeconds: 1 });
    // The next minute starts afresh.
    at += 1_000;
    expect(meter.hit(['a'])).toEqual({ hits: [1], resetSeconds: 60 });
    await meter.close();
  });

  it('shares the counts of every process through the database at each flush', async () => {
    const at = Date.UTC(2026, 10, 30, 10, 0, 5);
    const one = createRateMeter(db, { now: () => at, flushMs: 3_600_000 });
    const two = createRateMeter(db, { now: () => at, flushMs: 3_600_000 });
    for (let i = 0; i < 3; i++) one.hit(['shared']);
    // Before the flush, the second process knows only its own.
    expect(two.hit(['shared']).hits).toEqual([1]);
    await one.flush();
    await two.flush();
    // The second now knows all four, and the first learns of the second's at its next flush.
    expect(two.hit(['shared']).hits).toEqual([5]);
    expect(one.hit(['shared']).hits).toEqual([4]);
    await one.flush();
    // One's flush learnt the total stored (five); two's fifth hit is not stored yet.
    expect(one.hit(['shared']).hits).toEqual([6]);
    const stored = await db
      .selectFrom('rate_limit_hits')
      .select('hits')
      .where('bucket', '=', 'shared')
      .where('window_start', '=', new Date(Date.UTC(2026, 10, 30, 10, 0, 0)))
      .executeTakeFirstOrThrow();
    expect(stored.hits).toBe(5);
    // Closing hands over what is left: 5 + one's 7th + two's 5th.
    await one.close();
    await two.close();
    const after = await db.selectFrom('rate_limit_hits').select('hits').where('bucket', '=', 'shared').execute();
    expect(after.map((row) => row.hits)).toEqual([7]);
  });

  it('keeps the hits a failed flush could not store, to count them at the next', async () => {
    const at = Date.UTC(2026, 10, 30, 11, 0, 5);
    // A database without the table: every flush fails, as one that is away would.
    const empty = await openTestDb();
    try {
      const meter = createRateMeter(empty.db, { now: () => at, flushMs: 3_600_000 });
      meter.hit(['kept']);
      await expect(meter.flush()).rejects.toThrow(/rate_limit_hits/);
      expect(meter.hit(['kept']).hits).toEqual([2]);
      await expect(meter.flush()).rejects.toThrow(/rate_limit_hits/);
      expect(meter.hit(['kept']).hits).toEqual([3]);
    } finally {
      await empty.close();
    }
  });
});
