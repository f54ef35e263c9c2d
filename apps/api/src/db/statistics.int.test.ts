import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sendCsv, signUp, useTestApp } from '../../test/harness.js';

/**
 * Planner statistics after a large write (issue 29): an import of at least ANALYZE_AFTER_ROWS
 * rows (3 here) analyses the time tables once it commits, so pg_class holds their row counts; the
 * rollups' fold of its days does the same for the rollups. PGlite
 * never analyses by itself (and the hourly job does it there); PostgreSQL's autovacuum would, later.
 */
const ctx = useTestApp({ ANALYZE_AFTER_ROWS: '3' });

const reltuples = async (table: string) =>
  Number(
    (
      await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = ${table}::regclass`.execute(
        ctx.t.db,
      )
    ).rows[0]?.n,
  );

describe('statistics', () => {
  it('are fresh after a large import', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const csv = [
      'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount ()',
      ...[2, 3, 4, 5].map(
        (day) =>
          `Ann,${owner.email},Acme,Website,,Work,No,2026-11-0${day},09:00:00,2026-11-0${day},10:00:00,01:00:00,,`,
      ),
    ].join('\n');
    expect(await reltuples('time_entries')).not.toBe(4);
    const read = await sendCsv(ctx.t.app, `${ws}/imports?source=toggl`, owner.cookie, csv);
    expect(read.statusCode, read.body).toBe(201);
    const started = await ctx.call('POST', `${ws}/imports/${read.json().id}/run`, owner.cookie);
    expect(started.statusCode, started.body).toBe(202);
    await ctx.t.app.services.jobs.drain();
    expect((await ctx.call('GET', `${ws}/imports/${read.json().id}`, owner.cookie)).json().status).toBe('done');
    expect(await reltuples('time_entries')).toBe(4);
    // The import's days wait for the rollups' fold, which analyses the rollups once it has folded them.
    expect(await reltuples('report_rollups_pending')).toBe(4);
    expect(await reltuples('report_rollups')).not.toBe(4);
    expect(await ctx.t.app.services.reports.foldRollups()).toBe(4);
    expect(await reltuples('report_rollups')).toBe(4);
  });
});
