import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDb } from '../../test/harness.js';
import type { Db } from '../db/connection.js';
import { backoffDelay, createJobRunner, defineJob, type JobRunner } from './jobs.js';

let db: Db;
let closeDb: () => Promise<void>;

beforeAll(async () => {
  ({ db, close: closeDb } = await openTestDb({ migrated: true }));
});
afterAll(() => closeDb());
beforeEach(async () => {
  await db.deleteFrom('jobs').execute();
  await db.deleteFrom('job_schedules').execute();
});

/** A clock the test moves by hand. */
function testClock(start = '2026-11-24T10:30:00Z') {
  let at = new Date(start).getTime();
  return {
    now: () => new Date(at),
    advance(ms: number) {
      at += ms;
    },
    set(iso: string) {
      at = new Date(iso).getTime();
    },
  };
}

const ping = defineJob('test.ping', z.object({ n: z.number().int() }));

const runnerOn = (clock: ReturnType<typeof testClock>, options: { lockMs?: number } = {}): JobRunner =>
  createJobRunner({ db, now: clock.now, ...options });

describe('job runner', () => {
  it('runs jobs of a kind marked parallel side by side, up to its number, and every other job alone', async () => {
    const clock = testClock();
    const runner = runnerOn(clock);
    const wide = defineJob('test.wide', z.object({ n: z.number().int() }));
    const gauge = { wide: 0, narrow: 0, widest: 0, narrowest: 0 };
    const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
    runner.register(
      wide,
      async () => {
        gauge.wide++;
        gauge.widest = Math.max(gauge.widest, gauge.wide);
        await pause();
        gauge.wide--;
      },
      { parallel: 3 },
    );
    runner.register(ping, async () => {
      gauge.narrow++;
      gauge.narrowest = Math.max(gauge.narrowest, gauge.narrow);
      await pause();
      gauge.narrow--;
    });
    for (let n = 0; n < 8; n++) await runner.enqueue(db, wide, { n });
    for (let n = 0; n < 8; n++) await runner.enqueue(db, ping, { n });
    // The drain returns once every job it started has finished.
    expect(await runner.drain()).toBe(16);
    expect(gauge).toEqual({ wide: 0, narrow: 0, widest: 3, narrowest: 1 });
    expect((await runner.list({ state: 'done' })).length).toBe(16);
  });

  it('retries a failing job with doubling waits, running nothing before its time', async () => {
    const clock = testClock();
    const runner = runnerOn(clock);
    const attempts: number[] = [];
    runner.register(
      ping,
      async (_payload, { attempt }) => {
        attempts.push(attempt);
        if (attempt < 3) throw new Error(`refused ${attempt}`);
      },
      { backoffMs: 10_000 },
    );
    const id = await runner.enqueue(db, ping, { n: 1 });

    expect(await runner.drain()).toBe(1);
    const [afterFirst] = await runner.list({ name: ping.name });
    expect(afterFirst).toMatchObject({ id, state: 'queued', attempts: 1, lastError: 'refused 1' });
    expect(afterFirst?.runAt.getTime()).toBe(clock.now().getTime() + 10_000);

    clock.advance(9_999);
    expect(await runner.drain()).toBe(0);
    clock.advance(1);
    expect(await runner.drain()).toBe(1);
    const [afterSecond] = await runner.list({ name: ping.name });
    expect(afterSecond?.runAt.getTime()).toBe(clock.now().getTime() + 20_000);

    clock.advance(20_000);
    expect(await runner.drain()).toBe(1);
    expect(attempts).toEqual([1, 2, 3]);
    expect(await runner.list({ name: ping.name })).toMatchObject([{ id, state: 'done', attempts: 3 }]);
    expect(await runner.drain()).toBe(0);
  });

  it('caps the wait between attempts', () => {
    expect([1, 2, 3, 4].map((a) => backoffDelay(a, 1000, 5000))).toEqual([1000, 2000, 4000, 5000]);
  });

  it('keeps a job that failed every attempt as a dead letter, which can be queued again', async () => {
    const clock = testClock();
    const runner = runnerOn(clock);
    let runs = 0;
    runner.register(
      ping,
      async () => {
        runs++;
        throw new Error('the far side is down');
      },
      { maxAttempts: 2, backoffMs: 1000 },
    );
    const id = await runner.enqueue(db, ping, { n: 2 });
    await runner.drain();
    clock.advance(1000);
    await runner.drain();
    clock.advance(3_600_000);
    expect(await runner.drain()).toBe(0);
    expect(runs).toBe(2);
    const dead = await runner.list({ state: 'dead' });
    expect(dead).toMatchObject([
      { id, name: 'test.ping', payload: { n: 2 }, attempts: 2, lastError: 'the far side is down' },
    ]);
    expect(dead[0]?.finishedAt).toBeInstanceOf(Date);

    expect(await runner.retry(id ?? '')).toBe(true);
    expect(await runner.drain()).toBe(1);
    expect(runs).toBe(3);
  });

  it('dead-letters a job whose stored payload no longer fits its schema, without running it', async () => {
    const clock = testClock();
    const runner = runnerOn(clock);
    let runs = 0;
    runner.register(ping, async () => {
      runs++;
    });
    const id = await runner.enqueue(db, ping, { n: 3 });
    await db
      .updateTable('jobs')
      .set({ payload: JSON.stringify({ n: 'three' }) })
      .where('id', '=', id ?? '')
      .execute();
    await runner.drain();
    expect(runs).toBe(0);
    expect((await runner.list({ state: 'dead' }))[0]?.lastError).toMatch(/^invalid payload/);
  });

  it('refuses a payload that does not fit its schema at enqueue', async () => {
    const runner = runnerOn(testClock());
    await expect(runner.enqueue(db, ping, { n: 1.5 })).rejects.toThrow();
    expect(await runner.list()).toEqual([]);
  });

  it('enqueues a job only when the transaction it was enqueued in commits', async () => {
    const clock = testClock();
    const runner = runnerOn(clock);
    const seen: number[] = [];
    runner.register(ping, async ({ n }) => {
      seen.push(n);
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await runner.enqueue(trx, ping, { n: 1 });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await db.transaction().execute(async (trx) => {
      await runner.enqueue(trx, ping, { n: 2 });
    });
    await runner.drain();
    expect(seen).toEqual([2]);
  });

  it('queues one job per singleton key while it waits, and another once it has run', async () => {
    const clock = testClock();
    const runner = runnerOn(clock);
    const seen: number[] = [];
    runner.register(ping, async ({ n }) => {
      seen.push(n);
    });
    const first = await runner.enqueue(db, ping, { n: 1 }, { singletonKey: 'k' });
    const second = await runner.enqueue(db, ping, { n: 2 }, { singletonKey: 'k' });
    expect(first).toBeDefined();
    expect(second).toBeUndefined();
    await runner.drain();
    expect(await runner.enqueue(db, ping, { n: 3 }, { singletonKey: 'k' })).toBeDefined();
    await runner.drain();
    expect(seen).toEqual([1, 3]);
  });

  it('waits for runAt', async () => {
    const clock = testClock();
    const runner = runnerOn(clock);
    let runs = 0;
    runner.register(ping, async () => {
      runs++;
    });
    await runner.enqueue(db, ping, { n: 1 }, { runAt: new Date(clock.now().getTime() + 60_000) });
    expect(await runner.drain()).toBe(0);
    clock.advance(60_000);
    expect(await runner.drain()).toBe(1);
    expect(runs).toBe(1);
  });

  it('runs a queued job in a new runner on the same database, as after a restart', async () => {
    const clock = testClock();
    const before = runnerOn(clock);
    before.register(ping, async () => {
      throw new Error('this process never got to run it');
    });
    await before.enqueue(db, ping, { n: 7 });
    await before.stop();

    const after = runnerOn(clock);
    const seen: number[] = [];
    after.register(ping, async ({ n }) => {
      seen.push(n);
    });
    expect(await after.drain()).toBe(1);
    expect(seen).toEqual([7]);
  });

  it('gives a job whose worker stopped answering to another worker once its lease lapses', async () => {
    const clock = testClock();
    const stuck = runnerOn(clock, { lockMs: 60_000 });
    let entered: () => void = () => undefined;
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => undefined;
    stuck.register(ping, async () => {
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const rescuer = runnerOn(clock, { lockMs: 60_000 });
    const rescued: number[] = [];
    rescuer.register(ping, async (_payload, { attempt }) => {
      rescued.push(attempt);
    });

    const id = await stuck.enqueue(db, ping, { n: 1 });
    const stuckDrain = stuck.drain();
    await inHandler;
    expect(await rescuer.drain()).toBe(0);
    clock.advance(59_999);
    expect(await rescuer.drain()).toBe(0);
    clock.advance(1);
    expect(await rescuer.drain()).toBe(1);
    expect(rescued).toEqual([2]);

    // The first worker finally finishes: its late word does not overwrite the rescuer's.
    release();
    await stuckDrain;
    expect(await rescuer.list()).toMatchObject([{ id, state: 'done', attempts: 2 }]);
  });

  it('renews the lease of a job that runs longer than it, so no other worker runs it beside', async () => {
    const real = { now: () => new Date() };
    const slow = createJobRunner({ db, ...real, lockMs: 400, renewMs: 100 });
    const runs: string[] = [];
    slow.register(ping, async () => {
      runs.push('slow');
      await new Promise((resolve) => setTimeout(resolve, 1200));
    });
    const other = createJobRunner({ db, ...real, lockMs: 400 });
    other.register(ping, async () => {
      runs.push('other');
    });
    const id = await slow.enqueue(db, ping, { n: 1 });
    const slowDrain = slow.drain();
    // Three leases' length into the run, the lease is still held: the other worker finds nothing to do.
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await other.drain()).toBe(0);
    }
    await slowDrain;
    expect(runs).toEqual(['slow']);
    expect(await slow.list()).toMatchObject([{ id, state: 'done', attempts: 1 }]);
  });

  it('dead-letters a job whose worker stopped during its last attempt', async () => {
    const clock = testClock();
    const runner = runnerOn(clock, { lockMs: 1000 });
    let runs = 0;
    runner.register(ping, async () => {
      runs++;
    });
    const id = await runner.enqueue(db, ping, { n: 1 }, { maxAttempts: 1 });
    await db
      .updateTable('jobs')
      .set({ state: 'running', attempts: 1, locked_by: 'gone', locked_until: clock.now() })
      .where('id', '=', id ?? '')
      .execute();
    await runner.drain();
    expect(runs).toBe(0);
    expect(await runner.list()).toMatchObject([{ id, state: 'dead', lastError: /worker stopped/ }]);
  });

  it("runs only queued jobs when told to leave the schedules alone (a request's jobs, no cron slot)", async () => {
    const clock = testClock('2026-11-24T10:30:00Z');
    const ran: string[] = [];
    const hourly = defineJob('test.leave-schedules', z.object({ what: z.string() }));
    const runner = runnerOn(clock);
    runner.register(hourly, async ({ what }) => {
      ran.push(what);
    });
    runner.schedule(hourly, '0 * * * *', { what: 'slot' });
    await runner.drain();
    clock.set('2026-11-24T11:00:05Z');
    await runner.enqueue(db, hourly, { what: 'queued' });
    expect(await runner.drain({ schedules: false })).toBe(1);
    expect(ran).toEqual(['queued']);
    expect(await runner.drain()).toBe(1);
    expect(ran).toEqual(['queued', 'slot']);
  });

  it('runs a cron slot once even when two processes tick at the same moment', async () => {
    const clock = testClock('2026-11-24T10:30:00Z');
    const slots: string[] = [];
    const hourly = defineJob('test.hourly', z.object({ what: z.string() }));
    const runners = [runnerOn(clock), runnerOn(clock)];
    for (const runner of runners) {
      runner.register(hourly, async ({ what }, { now }) => {
        slots.push(`${what}@${now.toISOString()}`);
      });
      runner.schedule(hourly, '0 * * * *', { what: 'tidy' });
    }
    await Promise.all(runners.map((r) => r.drain()));
    expect(slots).toEqual([]);

    clock.set('2026-11-24T11:00:05Z');
    await Promise.all(runners.map((r) => r.drain()));
    await Promise.all(runners.map((r) => r.drain()));
    expect(slots).toEqual(['tidy@2026-11-24T11:00:05.000Z']);

    // Three hours without any process: the missed slots run once, late, not three times.
    clock.set('2026-11-24T14:20:00Z');
    await Promise.all(runners.map((r) => r.drain()));
    await Promise.all(runners.map((r) => r.drain()));
    expect(slots).toHaveLength(2);
    const [row] = await db.selectFrom('job_schedules').selectAll().where('name', '=', 'test.hourly').execute();
    expect(row?.next_run_at.toISOString()).toBe('2026-11-24T15:00:00.000Z');
  });

  it('refuses to schedule a job without a handler or with a wrong cron expression', () => {
    const runner = runnerOn(testClock());
    expect(() => runner.schedule(ping, '* * * * *', { n: 1 })).toThrow(/before it is registered/);
    runner.register(ping, async () => undefined);
    expect(() => runner.schedule(ping, 'every hour', { n: 1 })).toThrow();
  });

  it('polls by itself once started, wakes at once when asked, and stops cleanly', async () => {
    const runner = createJobRunner({ db, pollMs: 60_000 });
    const seen: number[] = [];
    let done: () => void = () => undefined;
    const ran = new Promise<void>((resolve) => {
      done = resolve;
    });
    runner.register(ping, async ({ n }) => {
      seen.push(n);
      done();
    });
    runner.start();
    await runner.enqueue(db, ping, { n: 5 });
    runner.wake();
    await ran;
    await runner.stop();
    expect(seen).toEqual([5]);
  });
});
