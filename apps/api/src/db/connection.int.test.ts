import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/harness.js';

describe.skipIf(!process.env.DATABASE_URL)('the PostgreSQL pool', () => {
  it('survives the server dropping its idle connections, and reconnects on the next query', async () => {
    const { db, close } = await openTestDb();
    try {
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
      const name = rows[0]?.name;
      // Several idle connections in the pool, as after a busy moment.
      await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(db)));
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      const killed = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await admin.end();
      expect(killed.rowCount).toBeGreaterThan(0);
      // Give the dropped sockets time to report; an unhandled pool 'error' would fail this file.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(after.rows[0]?.one).toBe(1);
    } finally {
      await close();
    }
  });
});
