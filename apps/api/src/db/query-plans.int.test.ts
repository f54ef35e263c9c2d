import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/harness.js';
import type { Db } from './connection.js';
import { migrateToLatest } from './migrate.js';

/**
 * The statements that must never walk the whole entries table have an index to take. With
 * sequential scans priced out, the planner names the index it would use: a missing index shows
 * as a Seq Scan here, on PGlite and PostgreSQL alike, whatever the table's size.
 */
describe('query plans of time entries', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    await migrateToLatest(db);
  });
  afterAll(async () => close?.());

  async function plan(statement: string): Promise<string> {
    return db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      const { rows } = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${statement}`).execute(tx);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  const ws = `'0190c0de-0000-7000-8000-000000000001'`;
  const task = `'0190c0de-0000-7000-8000-000000000002'`;

  it('finds a task’s entries through (workspace_id, task_id), as deleting a task does', async () => {
    const text = await plan(`delete from time_entries where workspace_id = ${ws} and task_id = ${task}`);
    expect(text).toContain('time_entries_task_idx');
    expect(text).not.toMatch(/Seq Scan on time_entries/);
  });

  it('detaches a set of tasks through the same index', async () => {
    const text = await plan(
      `update time_entries set task_id = null where workspace_id = ${ws} and task_id in (${task}, ${ws})`,
    );
    expect(text).toContain('time_entries_task_idx');
  });
});
