import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { constraintViolation } from '../platform/errors.js';
import { type DbHandle, listenerFor, openDb } from './connection.js';

let handle: DbHandle | undefined;
afterEach(() => handle?.close());

// PGlite whatever DATABASE_URL says: run once, in the PGlite run (issue 31: it ran twice).
describe.skipIf(Boolean(process.env.DATABASE_URL))('the embedded database driver', () => {
  // One database for the checks that need no fresh one (a PGlite start costs ~6 s of the run: issue
  // 31); each uses tables of its own. The restart and exit checks below open their own.
  let shared: DbHandle;
  beforeAll(() => {
    shared = openDb({ dataDir: 'memory://' });
  });
  afterAll(() => shared?.close());

  it("never runs another caller's query inside an open transaction", async () => {
    const { db } = shared;
    await sql`create table isolated (n int)`.execute(db);
    let outside: Promise<unknown> = Promise.resolve();
    await db
      .transaction()
      .execute(async (tx) => {
        await sql`insert into isolated values (1)`.execute(tx);
        // Another request's write, sent while the transaction is open: it must not join it.
        outside = sql`insert into isolated values (2)`.execute(db);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await outside;
    const { rows } = await sql<{ n: number }>`select n from isolated order by n`.execute(db);
    expect(rows).toEqual([{ n: 2 }]);
  });

  it('streams a statement through a cursor in chunks, in a transaction or its own, and lets go when the reader stops', async () => {
    const { db } = shared;
    const numbers = (on: Pick<typeof db, 'selectFrom'>) =>
      on
        .selectFrom(sql<{ n: number }>`generate_series(1, ${25}::int)`.as('g'))
        .select(sql<number>`g`.as('n'))
        .orderBy('n');
    const seen: number[] = [];
    for await (const row of numbers(db).stream(10)) seen.push(row.n);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const inside = await db.transaction().execute(async (tx) => {
      let n = 0;
      for await (const _ of numbers(tx).stream(4)) n++;
      for await (const _ of numbers(tx).stream(7)) n++;
      await sql`select 1`.execute(tx);
      return n;
    });
    expect(inside).toBe(50);
    // A reader that stops early ends the stream's own transaction: the connection answers again.
    for await (const row of numbers(db).stream(3)) if (row.n === 5) break;
    const { rows } = await sql<{ n: number }>`select 1 as n`.execute(db);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('runs queries sent at once one after another, each seeing the ones before', async () => {
    const { db } = shared;
    await sql`create table queued (n int)`.execute(db);
    const writes = Array.from({ length: 20 }, () =>
      db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ c: number }>`select count(*)::int as c from queued`.execute(tx);
        await sql`insert into queued values (${rows[0]?.c ?? 0})`.execute(tx);
      }),
    );
    await Promise.all(writes);
    const { rows } = await sql<{ n: number }>`select n from queued order by n`.execute(db);
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('keeps the event loop turning while a long statement runs', async () => {
    const { db } = shared;
    await sql`select 1`.execute(db);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    // Hundreds of ms: on the main thread (as before) no timer fired before it ended.
    await sql`select count(*) from generate_series(1, 1000000) g where md5(g::text) like 'a%'`.execute(db);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(2);
  });

  it("keeps a database error's code and constraint, so the app can name the conflict", async () => {
    const { db } = shared;
    await sql`create table uniques (n int constraint t_n_key unique)`.execute(db);
    await sql`insert into uniques values (1)`.execute(db);
    const error = await sql`insert into uniques values (1)`.execute(db).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 't_n_key', table: 'uniques' });
    expect(error).toBeInstanceOf(Error);
    const mapped = constraintViolation(error, { t_n_key: { message: 'That number is taken.' } });
    expect(mapped).toMatchObject({ code: 'conflict', message: 'That number is taken.' });
  });

  it('returns dates, bytes and big integers as the same types as before', async () => {
    const { rows } = await sql<{ at: Date; bytes: Uint8Array; big: unknown; json: unknown }>`
      select ${new Date('2026-01-02T03:04:05Z')}::timestamptz as at, decode('0102', 'hex') as bytes,
        (2^40)::int8 as big, ${JSON.stringify({ a: [1] })}::jsonb as json`.execute(shared.db);
    expect(rows[0]?.at).toEqual(new Date('2026-01-02T03:04:05Z'));
    expect(rows[0]?.bytes).toEqual(new Uint8Array([1, 2]));
    expect(rows[0]?.json).toEqual({ a: [1] });
    expect(Number(rows[0]?.big)).toBe(2 ** 40);
  });

  it('delivers NOTIFY to a listener, and stops when it unlistens', async () => {
    const { db } = shared;
    const listen = listenerFor(db);
    if (!listen) throw new Error('no listener for the embedded database');
    const payloads: string[] = [];
    const unlisten = await listen('things', (payload) => payloads.push(payload));
    await sql`select pg_notify('things', 'one')`.execute(db);
    await db.transaction().execute(async (tx) => {
      await sql`select pg_notify('things', 'two')`.execute(tx);
    });
    await unlisten();
    await sql`select pg_notify('things', 'three')`.execute(db);
    await sql`select 1`.execute(db);
    expect(payloads).toEqual(['one', 'two']);
  });

  it('keeps its data in the data folder across a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-pglite-'));
    try {
      handle = openDb({ dataDir });
      await sql`create table t (n int)`.execute(handle.db);
      await sql`insert into t values (7)`.execute(handle.db);
      await handle.close();
      handle = openDb({ dataDir });
      const { rows } = await sql<{ n: number }>`select n from t`.execute(handle.db);
      expect(rows).toEqual([{ n: 7 }]);
      await handle.close();
    } finally {
      handle = undefined;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('lets a process that forgot to close it exit once nothing waits on it', async () => {
    const thread = JSON.stringify(path.resolve(import.meta.dirname, 'pglite-thread.ts'));
    const script = `import { PGliteThread } from ${thread};
      const db = new PGliteThread();
      const { rows } = await db.query('select 41 + 1 as n');
      console.log(rows[0].n);`;
    // A thread that kept the process alive would run into the timeout and fail this.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 100_000 },
    );
    expect(stdout.trim()).toBe('42');
  }, 120_000);
});
