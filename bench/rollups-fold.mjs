// How long the rollups job's fold holds PGlite's one connection after a large write (issue 33): N entries of
// 100 members over 200 projects inserted in one statement (PER a member's day: 9 by default, 1 spreads them over
// three years), then the pending days folded in batches as the job does, the coarse tables folded every 8 batches
// (`--compact-each`) or once at the end. Prints the longest transaction and the totals.
//   npm run bench:rollups-fold -- 100000 250 --compact-each       (PER=1 for three years)
import { sql } from 'kysely';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';
import { newId } from '../apps/api/src/platform/ids.ts';

const { db, close } = await openDb({ dataDir: 'memory://' });
await migrateToLatest(db);
const ws = newId();
await db.insertInto('workspaces').values({ id: ws, name: 'B', plan: 'free', trial_ends_at: null }).execute();
const users = Array.from({ length: 100 }, () => newId());
for (const [i, id] of users.entries()) {
  await db
    .insertInto('users')
    .values({ id, email: `u${i}@b.t`, name: `U${i}`, password_hash: 'x', time_zone: 'UTC' })
    .execute();
  await db
    .insertInto('memberships')
    .values({ workspace_id: ws, user_id: id, role: i ? 'member' : 'owner' })
    .execute();
}
await db
  .insertInto('time_settings')
  .values({ workspace_id: ws, report_time_zone: 'UTC', updated_at: new Date() })
  .execute();
const projects = Array.from({ length: 200 }, () => newId());
for (const [i, id] of projects.entries())
  await db
    .insertInto('projects')
    .values({ id, workspace_id: ws, name: `P${i}`, color: '#2f80ed' })
    .execute();
const N = Number(process.argv[2] ?? 100000);
const PER = sql.lit(Number(process.env.PER ?? 9));
const t0 = performance.now();
await sql`insert into time_entries (id, workspace_id, user_id, project_id, start_at, end_at, duration_seconds, created_by_user_id, billable)
  select gen_random_uuid(), ${ws}, (${users}::uuid[])[n % 100 + 1], (${projects}::uuid[])[(n * 37) % 200 + 1],
    timestamptz '2024-01-01 07:00Z' + (n / 100 / ${PER}) * interval '1 day' + (n / 100 % ${PER}) * interval '50 minutes',
    timestamptz '2024-01-01 07:00Z' + (n / 100 / ${PER}) * interval '1 day' + (n / 100 % ${PER}) * interval '50 minutes' + interval '30 minutes',
    1800, (${users}::uuid[])[n % 100 + 1], n % 3 = 0 from generate_series(0, ${N - 1}) n`.execute(db);
console.log(
  `insert ${N}: ${(performance.now() - t0).toFixed(0)} ms; pending ${(await sql`select count(*)::int n from report_rollups_pending`.execute(db)).rows[0].n}`,
);
const batch = Number(process.argv[3] ?? 250);
const compactEach = process.argv.includes('--compact-each');
let worst = 0;
let total = 0;
let batches = 0;
for (let n = batch; n === batch; ) {
  const a = performance.now();
  n = (await sql`select report_rollups_fold_pending(${ws}, ${batch}) as n`.execute(db)).rows[0].n;
  if (compactEach && batches % 8 === 7) await sql`select report_rollups_compact(${ws})`.execute(db);
  const ms = performance.now() - a;
  worst = Math.max(worst, ms);
  total += ms;
  batches++;
}
const c = performance.now();
await sql`select report_rollups_compact(${ws})`.execute(db);
const compactMs = performance.now() - c;
console.log(
  `fold: ${batches} batches of ${batch}${compactEach ? ' (compact each)' : ''}, total ${total.toFixed(0)} ms, worst ${worst.toFixed(0)} ms; final compact ${compactMs.toFixed(0)} ms`,
);
await close();
