// The report engine (issue 14) on the large workspace: the Summary report over a year, through
// the API (HTTP, auth, validation, the engine's one SQL statement, JSON), against the raw SQL that
// computes the same figures on the same database, alternated in one run; and the Detailed report's
// page 1 against page 1,000 (keyset paging), 100 entries a page.
//
// PostgreSQL: seed first, then run on that database:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_reports npm run bench:seed-large
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_reports npm run bench:reports
// PGlite (in memory, seeded here with the same shape, 200,000 entries unless -- --entries N):
//   npm run bench:reports -- --pglite
// The raw SQL sums duration_seconds per project: the same figures as the engine's only because the
// seeded entries are finished, have no breaks, never cross midnight (UTC) and the workspace does not
// round; the bench checks the two agree before timing them.
import { sql } from 'kysely';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const onPglite = process.argv.includes('--pglite');
const ROUNDS = arg('rounds', 5);
const PORT = Number(process.env.BENCH_PORT ?? 4304);
const OWNER = { email: 'owner@large.example.org', password: 'Sunny-days-2026!' };

let databaseUrl;
if (!onPglite) {
  if (!process.env.DATABASE_URL) {
    console.error('Set DATABASE_URL (and BENCH_DB, the database bench:seed-large made), or pass --pglite.');
    process.exit(1);
  }
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${process.env.BENCH_DB ?? 'sundial_bench_reports'}`;
  databaseUrl = url.href;
}

const handle = openDb(onPglite ? { dataDir: 'memory://' } : { databaseUrl });
const { db } = handle;
await migrateToLatest(db);
const config = loadConfig({
  NODE_ENV: 'test',
  PUBLIC_URL: `http://localhost:${PORT}`,
  WEB_DIST: '/nonexistent',
});
const app = await buildApp({ config, db, logger: false });
await app.listen({ port: PORT, host: '127.0.0.1' });
const base = `http://127.0.0.1:${PORT}/api/v1`;

async function post(path, body, cookie) {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

if (onPglite) {
  const entries = arg('entries', 200_000);
  const started = performance.now();
  const signup = await post('/auth/signup', { ...OWNER, timeZone: 'UTC' });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${await signup.text()}`);
  await seedPglite(entries);
  console.log(`PGlite seeded with ${entries} entries in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const login = await post('/auth/login', OWNER);
if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
const cookie = login.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ');
const me = await (await fetch(`${base}/me`, { headers: { cookie } })).json();
const ws = me.currentWorkspaceId;

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const from = day(-365);
const to = day(-1);
const query = `preset=custom&from=${from}&to=${to}&timeZone=UTC&groupBy=project&measures=trackedSeconds,billableSeconds,billableAmount,costAmount`;

async function viaApi() {
  const response = await fetch(`${base}/workspaces/${ws}/reports/summary?${query}`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`summary: ${response.status} ${await response.text()}`);
  return response.json();
}

async function viaSql() {
  const { rows } = await sql`
    select project_id, sum(duration_seconds) as tracked,
      sum(case when billable then duration_seconds else 0 end) as billable_seconds,
      sum(case when billable then round(billable_rate_cents * duration_seconds / 3600.0) else 0 end) as billable_cents,
      sum(round(cost_rate_cents * duration_seconds / 3600.0)) as cost_cents
    from time_entries
    where workspace_id = ${ws} and start_at >= ${`${from}T00:00:00Z`}::timestamptz
      and start_at < ${`${to}T00:00:00Z`}::timestamptz + interval '1 day'
    group by rollup (project_id)`.execute(db);
  return rows;
}

const time = async (work) => {
  const t0 = performance.now();
  const result = await work();
  return { ms: performance.now() - t0, result };
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Same figures first.
const api = await viaApi();
const raw = await viaSql();
const rawTotal = raw.find((r) => r.project_id === null);
const expected = {
  trackedSeconds: Number(rawTotal.tracked),
  billableSeconds: Number(rawTotal.billable_seconds),
  billableAmount: Number(rawTotal.billable_cents),
  costAmount: Number(rawTotal.cost_cents),
};
if (JSON.stringify(api.totals) !== JSON.stringify(expected))
  throw new Error(`the API and the raw SQL disagree: ${JSON.stringify(api.totals)} vs ${JSON.stringify(expected)}`);
const entriesInYear = (
  await sql`select count(*)::int as n from time_entries where workspace_id = ${ws}
    and start_at >= ${`${from}T00:00:00Z`}::timestamptz and start_at < ${`${to}T00:00:00Z`}::timestamptz + interval '1 day'`.execute(
    db,
  )
).rows[0].n;
console.log(
  `${onPglite ? 'PGlite' : 'PostgreSQL'}: ${entriesInYear} entries in ${from}..${to}; totals agree`,
  api.totals,
);

const apiMs = [];
const sqlMs = [];
for (let round = 0; round < ROUNDS; round++) {
  apiMs.push((await time(viaApi)).ms);
  sqlMs.push((await time(viaSql)).ms);
}
const a = median(apiMs);
const s = median(sqlMs);
console.log(
  `Summary by project, a year: API ${a.toFixed(0)} ms, raw SQL ${s.toFixed(0)} ms, ratio ${(a / s).toFixed(2)}x (median of ${ROUNDS})`,
);

// Detailed: page 1 and page 1,000 of 100 entries (the cursor of page 1,000 is the one the API
// writes after the 99,900th entry, newest first).
const detailed = (cursor) => async () => {
  const response = await fetch(
    `${base}/workspaces/${ws}/reports/detailed?preset=custom&from=${from}&to=${to}&timeZone=UTC&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    { headers: { cookie } },
  );
  if (response.status !== 200) throw new Error(`detailed: ${response.status} ${await response.text()}`);
  return response.json();
};
const deepPage = Math.min(1000, Math.floor(entriesInYear / 100));
const deep = (
  await sql`select start_at, id from time_entries where workspace_id = ${ws}
    and start_at < ${`${to}T00:00:00Z`}::timestamptz + interval '1 day'
    order by start_at desc, id desc offset ${(deepPage - 1) * 100 - 1} limit 1`.execute(db)
).rows[0];
const cursor = Buffer.from(JSON.stringify(['', new Date(deep.start_at).toISOString(), deep.id])).toString('base64url');
const first = await detailed()();
const thousandth = await detailed(cursor)();
if (first.items.length !== 100 || thousandth.items.length !== 100) throw new Error('a page is not full');
const p1 = [];
const p1000 = [];
for (let round = 0; round < ROUNDS; round++) {
  p1.push((await time(detailed())).ms);
  p1000.push((await time(detailed(cursor))).ms);
}
console.log(
  `Detailed, 100 a page: page 1 ${median(p1).toFixed(1)} ms, page ${deepPage} ${median(p1000).toFixed(1)} ms (median of ${ROUNDS})`,
);

await app.close();
await handle.close();

/** The shape of bench:seed-large (members, clients, projects, finished entries 15-45 minutes, daytime UTC), smaller. */
async function seedPglite(entries) {
  const users = 100;
  const days = 3 * 365;
  const owner = (
    await sql`select u.id, m.workspace_id, u.password_hash from users u join memberships m on m.user_id = u.id
      where u.email = ${OWNER.email}`.execute(db)
  ).rows[0];
  const w = owner.workspace_id;
  await sql`insert into users (id, email, password_hash, name, time_zone, current_workspace_id)
    select gen_random_uuid(), 'member' || i || '@large.example.org', ${owner.password_hash}, 'Member ' || i, 'UTC', ${w}
    from generate_series(1, ${users - 1}) i`.execute(db);
  await sql`insert into memberships (workspace_id, user_id, role)
    select ${w}, id, 'member' from users where email like 'member%@large.example.org'`.execute(db);
  await sql`insert into projects (id, workspace_id, owner_user_id, name, is_public, created_at, updated_at)
    select gen_random_uuid(), ${w}, ${owner.id}, 'Project ' || lpad(i::text, 3, '0'), true, now(), now()
    from generate_series(1, 200) i`.execute(db);
  await sql`create temp table bench_users as select row_number() over (order by user_id) - 1 as rn, user_id as id
    from memberships where workspace_id = ${w}`.execute(db);
  await sql`create temp table bench_projects as select row_number() over (order by name) - 1 as rn, id
    from projects where workspace_id = ${w}`.execute(db);
  const perUser = Math.ceil(entries / users);
  await sql`insert into time_entries (id, workspace_id, user_id, project_id, note, billable, start_at, end_at,
      duration_seconds, created_by_user_id, billable_rate_cents, cost_rate_cents)
    select gen_random_uuid(), ${w}, u.id, p.id, 'Seeded work ' || s.n, s.n % 3 = 0, x.start_at,
      x.start_at + x.seconds * interval '1 second', x.seconds, u.id, 5000 + (s.n % 5) * 1000, 3000 + (uk.user_rn % 4) * 500
    from generate_series(0, ${entries - 1}::int) s(n)
    cross join lateral (select s.n % ${users}::int as user_rn, s.n / ${users}::int as k) uk
    cross join lateral (select (uk.k::bigint * ${days}::int / ${perUser}::int)::int as day) d
    cross join lateral (
      select (current_date - ${days}::int + d.day)::timestamp at time zone 'UTC' + interval '7 hours'
        + (uk.k - (d.day::bigint * ${perUser}::int + ${days - 1}::int) / ${days}::int) * interval '50 minutes' as start_at,
        (900 + (s.n::bigint * 7919) % 1800)::int as seconds
    ) x
    join bench_users u on u.rn = uk.user_rn
    join bench_projects p on p.rn = (s.n * 37 + uk.k) % 200`.execute(db);
  await sql`analyze`.execute(db);
}
