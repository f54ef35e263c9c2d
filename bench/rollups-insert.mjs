// What the report rollups' triggers cost a write (issue 14): N finished entries inserted in chunks
// of 500 rows in one transaction, as an import does (insertStopped), with the rollup triggers on
// time_entries enabled and then disabled, alternately, on a fresh database each time; and with
// report_rollups' own triggers (the coarse rollups, migration 202612040200) disabled, the cost before them.
// PGlite (in memory): npm run bench:rollups-insert [-- --entries 20000 --rounds 3]
// PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:rollups-insert -- --pg
//   (creates and drops its own database, sundial_bench_rollups_insert)
import { sql } from 'kysely';
import pg from 'pg';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';
import { newId } from '../apps/api/src/platform/ids.ts';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ENTRIES = arg('entries', 20_000);
const ROUNDS = arg('rounds', 3);
const onPg = process.argv.includes('--pg');
const dbName = 'sundial_bench_rollups_insert';

async function freshDb() {
  if (!onPg) return openDb({ dataDir: 'memory://' });
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${dbName}`;
  return openDb({ databaseUrl: url.href });
}

/** One workspace, ten members, ten projects; then the entries' insert, timed. */
async function run(mode) {
  const withTriggers = mode !== 'none';
  const handle = await freshDb();
  const { db } = handle;
  await migrateToLatest(db);
  const ws = newId();
  const users = Array.from({ length: 10 }, () => newId());
  const projects = Array.from({ length: 10 }, () => newId());
  await db.insertInto('workspaces').values({ id: ws, name: 'Bench', plan: 'free', trial_ends_at: null }).execute();
  for (const [i, id] of users.entries()) {
    await db
      .insertInto('users')
      .values({ id, email: `u${i}@bench.test`, name: `U${i}`, password_hash: 'x', time_zone: 'Europe/Paris' })
      .execute();
    await db
      .insertInto('memberships')
      .values({ workspace_id: ws, user_id: id, role: i === 0 ? 'owner' : 'member' })
      .execute();
  }
  await db
    .insertInto('time_settings')
    .values({ workspace_id: ws, report_time_zone: 'Europe/Paris', updated_at: new Date() })
    .execute();
  for (const [i, id] of projects.entries())
    await db
      .insertInto('projects')
      .values({ id, workspace_id: ws, name: `P${i}`, color: '#2f80ed' })
      .execute();
  if (!withTriggers)
    for (const event of ['insert', 'update', 'delete'])
      await sql.raw(`alter table time_entries disable trigger time_entries_rollups_${event}`).execute(db);
  if (mode === 'daily')
    for (const event of ['insert', 'update', 'delete'])
      await sql.raw(`alter table report_rollups disable trigger report_rollups_coarse_${event}`).execute(db);
  // Each member's entries back to back, 50 minutes each, over ~9 hours a day from 2026-01-01.
  const rows = Array.from({ length: ENTRIES }, (_, i) => {
    const user = i % users.length;
    const n = Math.floor(i / users.length);
    const start = Date.parse('2026-01-01T06:00:00Z') + Math.floor(n / 10) * 86_400_000 + (n % 10) * 3_300_000;
    return {
      id: newId(),
      workspace_id: ws,
      user_id: users[user],
      project_id: projects[i % projects.length],
      start_at: new Date(start),
      end_at: new Date(start + 3_000_000),
      duration_seconds: 3000,
      created_by_user_id: users[user],
      billable: i % 3 === 0,
      billable_rate_cents: 10_000,
      cost_rate_cents: 4_000,
    };
  });
  const t0 = performance.now();
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < rows.length; i += 500)
      await tx
        .insertInto('time_entries')
        .values(rows.slice(i, i + 500))
        .execute();
  });
  const ms = performance.now() - t0;
  const rollupRows = (await sql`select count(*)::int as n from report_rollups`.execute(db)).rows[0].n;
  await handle.close();
  return { ms, rollupRows };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const on = [];
const daily = [];
const off = [];
let rows = 0;
for (let round = 0; round < ROUNDS; round++) {
  const a = await run('all');
  on.push(a.ms);
  rows = a.rollupRows;
  daily.push((await run('daily')).ms);
  off.push((await run('none')).ms);
}
const a = median(on);
const d = median(daily);
const b = median(off);
console.log(
  `${onPg ? 'PostgreSQL' : 'PGlite'}: ${ENTRIES} entries in chunks of 500, one transaction: with rollup triggers ${a.toFixed(0)} ms (${rows} rollup rows), with report_rollups only (no coarse rollups) ${d.toFixed(0)} ms, without ${b.toFixed(0)} ms: ${(a / b).toFixed(2)}x, ${(d / b).toFixed(2)}x before the coarse ones (median of ${ROUNDS})`,
);
if (onPg) {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
}
