// What the report rollups cost a write (issues 14 and 33). Since issue 33 a write only marks the
// (person, local day) it touched pending; the rollups job folds pending days in the background.
//
// Fresh database (default): N finished entries inserted in chunks of 500 rows in one transaction, as an
// import does, with the rollup triggers on time_entries enabled and then disabled, alternately, on a
// fresh database each time; then the fold of what the import left pending, timed on its own.
//   PGlite (in memory): npm run bench:rollups-insert [-- --entries 20000 --rounds 3]
//   PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:rollups-insert -- --pg
//     (creates and drops its own database, sundial_bench_rollups_insert)
// A seeded database (`--url`, e.g. the 1M entries of bench:seed-large): single-entry inserts, each in a
// transaction of its own as the API's create, with the triggers on and off in alternate order, paired per round;
// the entries it adds are deleted again and their days folded, so the database is left as it was.
//   npm run bench:rollups-insert -- --url postgres://postgres@127.0.0.1:5432/sundial_bench_large [--single 300 --rounds 7]
// With `--burst 5000`: then that many single-entry writes over everyone's last 30 days, and before the fold, Summaries
// read through the rollups (and the pending days) against the engine on the entries and the SQL a DBA would write,
// paired per round (issue 33: "a Summary right after 5,000 writes within 1.3x of the raw SQL").
import { sql } from 'kysely';
import pg from 'pg';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';
import { reportsRepository } from '../apps/api/src/modules/reports/reports.repository.ts';
import { PENDING_SHARE } from '../apps/api/src/modules/reports/reports.scope.ts';
import { compileReport } from '../apps/api/src/modules/reports/reports.time-source.ts';
import { newId } from '../apps/api/src/platform/ids.ts';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ENTRIES = Number(arg('entries', 20_000));
const SINGLE = Number(arg('single', 300));
const BURST = Number(arg('burst', 0));
const ROUNDS = Number(arg('rounds', 3));
const seeded = arg('url', undefined);
const onPg = process.argv.includes('--pg');
const dbName = 'sundial_bench_rollups_insert';
const EVENTS = ['insert', 'update', 'delete'];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const spread = (values) =>
  `min ${Math.min(...values).toFixed(2)} / median ${median(values).toFixed(2)} / max ${Math.max(...values).toFixed(2)}`;
const triggers = (db, on) =>
  Promise.all(
    EVENTS.map((event) =>
      sql
        .raw(`alter table time_entries ${on ? 'enable' : 'disable'} trigger time_entries_rollups_${event}`)
        .execute(db),
    ),
  );
const fold = async (db, ws) => {
  const t0 = performance.now();
  for (let n = -1; n !== 0; )
    n = Number((await sql`select report_rollups_fold_pending(${ws}::uuid, 2000) as n`.execute(db)).rows[0].n);
  await sql`select report_rollups_compact(${ws}::uuid)`.execute(db);
  return performance.now() - t0;
};

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

/** Ten members' entries back to back, 50 minutes each, ~9 hours a day from `from`. */
function entries(ws, users, projects, count, from = Date.parse('2026-01-01T06:00:00Z')) {
  return Array.from({ length: count }, (_, i) => {
    const user = i % users.length;
    const n = Math.floor(i / users.length);
    const start = from + Math.floor(n / 10) * 86_400_000 + (n % 10) * 3_300_000;
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
}

/** One workspace, ten members, ten projects; then the entries' insert, timed, and the fold. */
async function importRun(withTriggers) {
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
  if (!withTriggers) await triggers(db, false);
  const rows = entries(ws, users, projects, ENTRIES);
  const t0 = performance.now();
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < rows.length; i += 500)
      await tx
        .insertInto('time_entries')
        .values(rows.slice(i, i + 500))
        .execute();
  });
  const ms = performance.now() - t0;
  const foldMs = withTriggers ? await fold(db, ws) : 0;
  const rollupRows = (await sql`select count(*)::int as n from report_rollups`.execute(db)).rows[0].n;
  await handle.close();
  return { ms, foldMs, rollupRows };
}

async function importBench() {
  const ratios = [];
  const on = [];
  const off = [];
  const folds = [];
  let rows = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const a = await importRun(true);
    const b = await importRun(false);
    on.push(a.ms);
    off.push(b.ms);
    folds.push(a.foldMs);
    ratios.push(a.ms / b.ms);
    rows = a.rollupRows;
  }
  console.log(
    `${onPg ? 'PostgreSQL' : 'PGlite'}: ${ENTRIES} entries in chunks of 500, one transaction (${ROUNDS} rounds): ` +
      `with the rollup triggers ${median(on).toFixed(0)} ms, without ${median(off).toFixed(0)} ms; ` +
      `paired ratio ${spread(ratios)}; then the job's fold of its days ${median(folds).toFixed(0)} ms (${rows} rollup rows)`,
  );
  if (onPg) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

/** Single-entry inserts into a seeded workspace, triggers on and off in alternate order, paired per round. */
async function singleBench() {
  const { db, close } = await openDb({ databaseUrl: seeded });
  const { rows: found } =
    await sql`select w.id, (select count(*)::int from time_entries e where e.workspace_id = w.id) as n
    from workspaces w order by n desc limit 1`.execute(db);
  const ws = found[0].id;
  const users = (await sql`select user_id from memberships where workspace_id = ${ws} limit 10`.execute(db)).rows.map(
    (r) => r.user_id,
  );
  const projects = (await sql`select id from projects where workspace_id = ${ws} limit 10`.execute(db)).rows.map(
    (r) => r.id,
  );
  // Days after every seeded entry, a block of its own each batch, so no two inserts overlap.
  let day = Date.parse('2031-01-01T06:00:00Z');
  const ids = [];
  // The insert trigger on the functions of migration 202611280402 (recompute the day in the writer's
  // transaction, before issue 33) or on today's (mark the day pending).
  const insertTrigger = (fn) =>
    sql
      .raw(`drop trigger time_entries_rollups_insert on time_entries;
        create trigger time_entries_rollups_insert after insert on time_entries
        referencing new table as new_rows for each statement execute function ${fn}()`)
      .execute(db);
  const batch = async (on, recompute = false) => {
    await triggers(db, on);
    if (recompute) await insertTrigger('report_rollups_on_entries_insert');
    const rows = entries(ws, users, projects, SINGLE, day);
    day += 86_400_000 * Math.ceil(SINGLE / 100 + 1);
    ids.push(...rows.map((r) => r.id));
    const t0 = performance.now();
    for (const row of rows) await db.transaction().execute((tx) => tx.insertInto('time_entries').values(row).execute());
    const ms = (performance.now() - t0) / SINGLE;
    if (recompute) await insertTrigger('report_rollups_mark_entries_insert');
    return ms;
  };
  const ratios = [];
  const before = [];
  const on = [];
  const off = [];
  const old = [];
  const folds = [];
  await batch(true);
  await fold(db, ws);
  for (let round = 0; round < ROUNDS; round++) {
    // Each round in another order of the three (pending, none, recompute).
    const order = [
      ['on', () => batch(true)],
      ['off', () => batch(false)],
      ['old', () => batch(true, true)],
    ];
    for (let i = 0; i < round % 3; i++) order.push(order.shift());
    const ms = {};
    for (const [name, run] of order) ms[name] = await run();
    await triggers(db, true);
    folds.push(await fold(db, ws));
    on.push(ms.on);
    off.push(ms.off);
    old.push(ms.old);
    ratios.push(ms.on / ms.off);
    before.push(ms.old / ms.off);
  }
  await triggers(db, true);
  if (BURST > 0) await burst(db, ws, ids);
  // Those with triggers off never marked their days: deleted with them on, every day they touched is folded again.
  for (let i = 0; i < ids.length; i += 1000)
    await db
      .deleteFrom('time_entries')
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute();
  await fold(db, ws);
  await close();
  console.log(
    `PostgreSQL, ${found[0].n} entries: ${SINGLE} single-entry inserts a batch, each its own transaction (${ROUNDS} rounds): ` +
      `${median(on).toFixed(2)} ms an insert marking its day pending, ${median(off).toFixed(2)} ms without rollup triggers, ` +
      `${median(old).toFixed(2)} ms recomputing the day in the insert (before issue 33); paired ratio to none: ` +
      `pending ${spread(ratios)}, recompute ${spread(before)}; the job's fold of a batch's days ${median(folds).toFixed(0)} ms`,
  );
}

/** BURST single-entry writes over the last 30 days of everyone, then Summaries before the fold. */
async function burst(db, ws, ids) {
  const settings = (
    await sql`select report_time_zone as tz, rounding_mode as mode, rounding_minutes as minutes
      from time_settings where workspace_id = ${ws}`.execute(db)
  ).rows[0];
  const people = (await sql`select user_id from memberships where workspace_id = ${ws}`.execute(db)).rows.map(
    (r) => r.user_id,
  );
  const projects = (await sql`select id from projects where workspace_id = ${ws}`.execute(db)).rows.map((r) => r.id);
  const today = new Date(new Date().toISOString().slice(0, 10));
  for (let i = 0; i < BURST; i++) {
    // 23:00-23:59 UTC, after the seeded day's slots: a new entry on a day of the last 30, someone's, some project.
    const start = new Date(
      today.getTime() - (1 + (Math.floor(i / people.length) % 30)) * 86_400_000 + 23 * 3_600_000 + (i % 59) * 1000,
    );
    const row = {
      id: newId(),
      workspace_id: ws,
      user_id: people[i % people.length],
      project_id: projects[(i * 7) % projects.length],
      start_at: start,
      end_at: new Date(start.getTime() + 60_000),
      duration_seconds: 60,
      created_by_user_id: people[i % people.length],
      billable: i % 2 === 0,
      billable_rate_cents: 10_000,
      cost_rate_cents: 4_000,
    };
    ids.push(row.id);
    await db.insertInto('time_entries').values(row).execute();
  }
  const pending = (
    await sql`select count(*)::int as n from report_rollups_pending where workspace_id = ${ws}`.execute(db)
  ).rows[0].n;
  const filter = (days, rollups) => {
    const fromAt = new Date(today.getTime() - days * 86_400_000);
    return {
      workspaceId: ws,
      fromAt,
      toAt: today,
      fromDay: fromAt.toISOString().slice(0, 10),
      toDay: new Date(today.getTime() - 86_400_000).toISOString().slice(0, 10),
      timeZone: settings.tz,
      weekStart: 'monday',
      rounding: { mode: settings.mode, minutes: settings.minutes },
      now: new Date(),
      scope: null,
      tagMode: 'any',
      rollups,
      allPeople: true,
    };
  };
  const reports = [
    { name: 'by project, 30 days', days: 30, dimensions: ['project'] },
    { name: 'by project then person, 30 days', days: 30, dimensions: ['project', 'user'] },
    { name: 'by day, 30 days', days: 30, dimensions: ['day'] },
    { name: 'by project then person, 365 days', days: 365, dimensions: ['project', 'user'] },
  ];
  // The SQL a DBA would write: finished entries starting in range, by start day in the zone (the seed's and the
  // burst's entries stay inside their day; the zone is the workspace's, UTC in the seed).
  const dba = (days, dimensions) => {
    const f = filter(days, false);
    const keys = dimensions.map((d) =>
      d === 'day' ? sql`(start_at at time zone ${f.timeZone})::date` : sql.ref(d === 'user' ? 'user_id' : 'project_id'),
    );
    return sql`select ${sql.join(keys)}, sum(duration_seconds)::bigint as seconds from time_entries
      where workspace_id = ${ws} and end_at is not null
        and start_at >= ${f.fromAt} and start_at < ${f.toAt}
      group by ${sql.raw(keys.map((_, i) => i + 1).join(', '))}`;
  };
  const time = async (statement) => {
    const t0 = performance.now();
    const { rows } = await db.transaction().execute(async (tx) => {
      // As the app runs its report statements (REPORT_SETTINGS in reports.repository.ts).
      await sql`select set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`.execute(tx);
      return statement.execute(tx);
    });
    return { ms: performance.now() - t0, rows };
  };
  const lines = [];
  for (const r of reports) {
    const sets = r.dimensions.map((_, i) => r.dimensions.slice(0, i + 1));
    // As the app reads it: the rollups unless too many of the range's days are pending (reports.scope.ts).
    const f = filter(r.days, true);
    const pays = await reportsRepository.rollupsPay(db, ws, f.fromDay, f.toDay, PENDING_SHARE);
    const engine = (rollups) =>
      compileReport(filter(r.days, rollups), { sets: [[], ...sets], dimensions: r.dimensions, countEntries: false });
    const toRaw = [];
    const toEngine = [];
    const took = [];
    for (let round = 0; round < Math.max(ROUNDS, 5); round++) {
      const order = [
        ['rolled', () => time(engine(pays))],
        ['entries', () => time(engine(false))],
        ['dba', () => time(dba(r.days, r.dimensions))],
      ];
      for (let i = 0; i < round % 3; i++) order.push(order.shift());
      const ms = {};
      const rows = {};
      for (const [name, run] of order) {
        const result = await run();
        ms[name] = result.ms;
        rows[name] = result.rows;
      }
      // The same total three ways: the rollups with the pending days, the engine on the entries, plain SQL.
      const total = (list) => list.reduce((sum, row) => sum + Number(row.seconds ?? row.tracked ?? 0), 0);
      const rolledTotal = rows.rolled.filter((row) => row.level === 0).reduce((s, row) => s + Number(row.tracked), 0);
      const entriesTotal = rows.entries.filter((row) => row.level === 0).reduce((s, row) => s + Number(row.tracked), 0);
      if (rolledTotal !== entriesTotal || (settings.mode === 'none' && rolledTotal !== total(rows.dba)))
        throw new Error(`${r.name}: totals differ: ${rolledTotal} ${entriesTotal} ${total(rows.dba)}`);
      toRaw.push(ms.rolled / ms.dba);
      toEngine.push(ms.rolled / ms.entries);
      took.push(ms.rolled);
    }
    lines.push(
      `  ${r.name} (${pays ? 'rollups' : 'entries'}, ${median(took).toFixed(0)} ms): to the DBA's SQL ${spread(toRaw)}; to the engine on the entries ${spread(toEngine)}`,
    );
  }
  console.log(
    `After ${BURST} single-entry writes (${pending} pending days, not folded), Summaries through the rollups, paired ratios:\n${lines.join('\n')}`,
  );
}

await (seeded ? singleBench() : importBench());
