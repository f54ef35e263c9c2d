// The large workspace of issue 13, on PostgreSQL: 100 members, 200 projects (150 with a client,
// 100 with five tasks each) and 1,000,000 finished time entries over three years, with set-based
// SQL. It (re)creates its own database next to the one DATABASE_URL names and never touches that
// one. The owner signs up through the real API (so the password is hashed as the app does), the
// rest is bulk SQL; the app's migrations run when its server starts.
//
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:seed-large
//        (-- --entries 100000 for a smaller run, -- --users 1000 for the issue's 1,000 members,
//        -- --users 1000 --entries 10000000 for the issue's 10M: at most 20 entries a member a day;
//        BENCH_DB names the database, default sundial_bench_large; -- --teams for members in teams of
//        projects, as a real workspace works: see TEAMS below)
// Prints the bench database's URL, the owner's email and password, and the time each step took.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './lib/ports.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('Set DATABASE_URL to a PostgreSQL server (the bench creates its own database there).');
  process.exit(1);
}
const dbName = process.env.BENCH_DB ?? 'sundial_bench_large';
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`BENCH_DB must be a plain name, not ${dbName}`);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ENTRIES = arg('entries', 1_000_000);
const USERS = arg('users', 100);
const PROJECTS = 200;
const DAYS = 3 * 365;
// A member's day holds at most 20 slots of 50 minutes from 07:00 (the last ends before midnight UTC).
if (!(ENTRIES > 0 && USERS > 1) || Math.ceil(ENTRIES / USERS) > DAYS * 20) {
  console.error(
    `${ENTRIES} entries need at least ${Math.ceil(ENTRIES / (DAYS * 20))} members (at most 20 a day each over three years): pass --users.`,
  );
  process.exit(1);
}
const BATCH = 100_000;
// By default entry n goes to project (37n + k) % 200: every member works on almost every project
// within a month (a 1,000-member year by person and project is ~200,000 groups), the worst case
// for a report but no team's shape. With --teams each member belongs to one of 25 teams (member
// number % 25) of eight projects (the team's number times eight, onwards), and an entry's billable
// flag is its project's default, as when people track to the projects their team is staffed on; a
// member's successive entries go round the team's projects and each project's tasks.
const TEAMS = process.argv.includes('--teams') ? 25 : 0;
if (TEAMS && PROJECTS % TEAMS !== 0) throw new Error('the projects must split evenly into teams');
export const OWNER = { email: 'owner@large.example.org', password: 'Sunny-days-2026!' };

const benchUrl = new URL(adminUrl);
benchUrl.pathname = `/${dbName}`;
const started = performance.now();
const lap = (() => {
  let last = started;
  return (what) => {
    const now = performance.now();
    console.log(`${what}: ${((now - last) / 1000).toFixed(1)} s`);
    last = now;
  };
})();

// 1. A fresh database of its own.
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${dbName} with (force)`);
await admin.query(`create database ${dbName}`);
await admin.end();
lap(`database ${dbName} created`);

// 2. The app migrates it and signs the owner up (through the API: the password is hashed as the app does).
const port = Number(process.env.BENCH_SEED_PORT) || (await freePort()); // never another run's server
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
  cwd: root,
  env: { ...process.env, DATABASE_URL: benchUrl.href, PORT: String(port), PUBLIC_URL: `http://localhost:${port}` },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://localhost:${port}/readyz`)).ok) break;
    } catch {}
    if (i > 900) throw new Error('the API did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  const signup = await fetch(`http://localhost:${port}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://localhost:${port}` },
    body: JSON.stringify({ ...OWNER, timeZone: 'UTC' }),
  });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
} finally {
  server.kill('SIGTERM');
}
lap('migrated and owner signed up');

// 3. Everything else, set-based.
const db = new pg.Client({ connectionString: benchUrl.href });
await db.connect();
const { rows } = await db.query(
  `select u.id as user_id, m.workspace_id, u.password_hash
   from users u join memberships m on m.user_id = u.id where u.email = $1`,
  [OWNER.email],
);
const owner = rows[0];
const ws = owner.workspace_id;
await db.query('begin');
// Members share the owner's password (one hash, copied), so any of them can sign in for a test.
await db.query(
  `insert into users (id, email, password_hash, name, time_zone, current_workspace_id)
   select gen_random_uuid(), 'member' || i || '@large.example.org', $1, 'Member ' || i, 'UTC', $2
   from generate_series(1, $3::int - 1) i`,
  [owner.password_hash, ws, USERS],
);
await db.query(
  `insert into memberships (workspace_id, user_id, role)
   select $1, id, case when email like 'member1@%' then 'admin' when email like 'member2@%' then 'manager' else 'member' end
   from users where email like 'member%@large.example.org'`,
  [ws],
);
await db.query(
  `insert into clients (id, workspace_id, name, archived_at, created_at, updated_at)
   select gen_random_uuid(), $1, 'Client ' || lpad(i::text, 2, '0'), null, now(), now() from generate_series(1, 40) i`,
  [ws],
);
// Projects 1-150 have a client (Client 01 … 40 in turn), every other one of 1-200 has five tasks.
await db.query(
  `insert into projects (id, workspace_id, client_id, owner_user_id, name, is_public, billable_default, archived_at, created_at, updated_at)
   select gen_random_uuid(), $1,
     case when i <= 150 then (select id from clients where workspace_id = $1 and name = 'Client ' || lpad((1 + (i - 1) % 40)::text, 2, '0')) end,
     $2, 'Project ' || lpad(i::text, 3, '0'), true, i % 3 = 0, null, now(), now()
   from generate_series(1, $3::int) i`,
  [ws, owner.user_id, PROJECTS],
);
await db.query(
  `insert into tasks (id, workspace_id, project_id, parent_task_id, name, archived_at, created_at, updated_at)
   select gen_random_uuid(), p.workspace_id, p.id, null, 'Task ' || k, null, now(), now()
   from projects p cross join generate_series(1, 5) k
   where p.workspace_id = $1 and right(p.name, 3)::int % 2 = 1`,
  [ws],
);
await db.query('commit');
lap(`${USERS} members, 40 clients, ${PROJECTS} projects, their tasks`);

// Lookup tables: users and projects by number, a project's tasks by number.
await db.query(
  `create temp table bench_users as
     select row_number() over (order by email) - 1 as rn, user_id as id
     from memberships m join users u on u.id = m.user_id where m.workspace_id = $1;
   create temp table bench_projects as
     select row_number() over (order by name) - 1 as rn, id, billable_default from projects where workspace_id = $1;
   create temp table bench_tasks as
     select project_id, row_number() over (partition by project_id order by name) - 1 as rn, id
     from tasks where workspace_id = $1;
   create index on bench_tasks (project_id, rn);`.replaceAll('$1', `'${ws}'`),
);

// Entry n belongs to user n % USERS; that user's k-th entry (k = n / USERS) falls on day
// floor(k * DAYS / perUser) of the three years ending yesterday (so this week has entries), in slot j of that day (07:00 + 50 min
// a slot), and lasts 15-45 minutes: never two at once for a user, never over the maximum length.
const perUser = Math.ceil(ENTRIES / USERS);
for (let from = 0; from < ENTRIES; from += BATCH) {
  const to = Math.min(ENTRIES, from + BATCH) - 1;
  // Numbers only (from this file), written in: the planner sees constants.
  await db.query(
    `insert into time_entries (id, workspace_id, user_id, project_id, task_id, note, billable, start_at, end_at,
                               duration_seconds, created_by_user_id, created_at, updated_at,
                               billable_rate_cents, cost_rate_cents)
     select gen_random_uuid(), $1, u.id, p.id, t.id, 'Seeded work ' || s.n, ${TEAMS ? 'p.billable_default' : 's.n % 3 = 0'}, x.start_at,
            x.start_at + x.seconds * interval '1 second', x.seconds, u.id, x.start_at, x.start_at,
            5000 + (s.n % 5) * 1000, 3000 + (uk.user_rn % 4) * 500
     from generate_series(${from}, ${to}) s(n)
     cross join lateral (select s.n % ${USERS} as user_rn, s.n / ${USERS} as k) uk
     cross join lateral (select (uk.k::bigint * ${DAYS} / ${perUser})::int as day) d
     cross join lateral (
       select (current_date - ${DAYS} + d.day)::timestamp at time zone 'UTC' + interval '7 hours'
                + (uk.k - (d.day::bigint * ${perUser} + ${DAYS - 1}) / ${DAYS}) * interval '50 minutes' as start_at,
              (900 + (s.n::bigint * 7919) % 1800)::int as seconds
     ) x
     join bench_users u on u.rn = uk.user_rn
     join bench_projects p on p.rn = ${
       TEAMS
         ? `(uk.user_rn % ${TEAMS}) * ${PROJECTS / TEAMS} + (s.n * 37 + uk.k) % ${PROJECTS / TEAMS}`
         : `(s.n * 37 + uk.k) % ${PROJECTS}`
     }
     left join bench_tasks t on t.project_id = p.id and t.rn = ${TEAMS ? 'uk.k' : 's.n'} % 5`,
    [ws],
  );
  process.stdout.write(`\r${to + 1} entries`);
}
process.stdout.write('\n');
lap(`${ENTRIES} time entries`);
// The days the inserts marked pending, folded into the rollups as the app's job does (issue 33), so
// the reports read a workspace as it is a minute after its writes.
for (let folded = -1; folded !== 0; )
  folded = (await db.query('select report_rollups_fold_pending($1, 20000) as n', [ws])).rows[0].n;
await db.query('select report_rollups_compact($1)', [ws]);
lap('the rollups folded');
await db.query('analyze');
lap('analyze');
// The invariants, checked on the owner's history: no two entries at once, none longer than allowed.
const check = await db.query(
  `select count(*)::int as owner_entries,
     count(*) filter (where prev_end > start_at)::int as owner_overlaps,
     max(duration_seconds)::int as longest_seconds, min(start_at) as first, max(end_at) as last
   from (select start_at, end_at, duration_seconds, lag(end_at) over (order by start_at) as prev_end
         from time_entries where workspace_id = $1 and user_id = $2) e`,
  [ws, owner.user_id],
);
await db.end();
console.log(check.rows[0]);
console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`DATABASE_URL=${benchUrl.href}`);
console.log(
  `owner: ${OWNER.email} / ${OWNER.password} (members: member1..${USERS - 1}@large.example.org, same password)`,
);
