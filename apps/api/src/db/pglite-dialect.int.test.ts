import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DbHandle, openDb } from './connection.js';

let handle: DbHandle | undefined;
afterEach(() => handle?.close());

describe('the embedded database driver', () => {
  it("never runs another caller's query inside an open transaction", async () => {
    handle = openDb({ dataDir: 'memory://' });
    const { db } = handle;
    await sql`create table t (n int)`.execute(db);
    let outside: Promise<unknown> = Promise.resolve();
    await db
      .transaction()
      .execute(async (tx) => {
        await sql`insert into t values (1)`.execute(tx);
        // Another request's write, sent while the transaction is open: it must not join it.
        outside = sql`insert into t values (2)`.execute(db);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await outside;
    const { rows } = await sql<{ n: number }>`select n from t order by n`.execute(db);
    expect(rows).toEqual([{ n: 2 }]);
  });

  it('runs queries sent at once one after another, each seeing the ones before', async () => {
    handle = openDb({ dataDir: 'memory://' });
    const { db } = handle;
    await sql`create table t (n int)`.execute(db);
    const writes = Array.from({ length: 20 }, () =>
      db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ c: number }>`select count(*)::int as c from t`.execute(tx);
        await sql`insert into t values (${rows[0]?.c ?? 0})`.execute(tx);
      }),
    );
    await Promise.all(writes);
    const { rows } = await sql<{ n: number }>`select n from t order by n`.execute(db);
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
