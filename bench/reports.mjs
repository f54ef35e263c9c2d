// The report engine (issue 14) on the large workspace: the Summary report over a year, through
// the API (HTTP, auth, validation, the engine's one SQL statement, JSON), against the raw SQL that
// computes the same figures on the same database, alternated in one run; and the Detailed report's
// page 1 against page 1,000 (keyset paging), 100 entries a page. The Summary is timed twice through
// the API: reading the daily rollups (report_rollups, the default) and with REPORT_ROLLUPS=false
// (the engine over the entries), each against the raw SQL in the same rounds. `-- --groupings`
// also times other Summaries (every grouping the Summary page offers, its default and common pairs, over
// the year and the last 30 days) both ways (`-- --rollups-only`: through the rollups only).
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
import { freePort } from './lib/ports.mjs';
import { seedPglite } from './lib/seed-pglite.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const onPglite = process.argv.includes('--pglite');
const ROUNDS = arg('rounds', 5);
const PORT = Number(process.env.BENCH_PORT) || (await freePort()); // never another run's server
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
const migrating = performance.now();
await migrateToLatest(db);
console.log(
  `migrations: ${((performance.now() - migrating) / 1000).toFixed(1)} s (the rollups' backfill runs in them once)`,
);
const appOf = async (port, rollups) => {
  const config = loadConfig({
    // As deployed: production writes responses with the compiled writer (tests check each with zod).
    NODE_ENV: 'production',
    PUBLIC_URL: `http://localhost:${port}`,
    WEB_DIST: '/nonexistent',
    REPORT_ROLLUPS: String(rollups),
  });
  const built = await buildApp({ config, db, logger: false });
  await built.listen({ port, host: '127.0.0.1' });
  return built;
};
const app = await appOf(PORT, true);
const RAW_PORT = await freePort();
const rawApp = await appOf(RAW_PORT, false);
const base = `http://127.0.0.1:${PORT}/api/v1`;
const rawBase = `http://127.0.0.1:${RAW_PORT}/api/v1`;

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
  await seedPglite(db, { ownerEmail: OWNER.email, entries });
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

async function summary(root, q = query) {
  const response = await fetch(`${root}/workspaces/${ws}/reports/summary?${q}`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`summary: ${response.status} ${await response.text()}`);
  return response.json();
}
const viaApi = () => summary(base);
const viaApiRaw = () => summary(rawBase);

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
const apiRaw = await viaApiRaw();
if (JSON.stringify(apiRaw) !== JSON.stringify(api)) throw new Error('the rollups and the entries disagree');
const rollupRows = (
  await sql`select count(*)::int as n from report_rollups where workspace_id = ${ws}
    and day between ${from}::date and ${to}::date`.execute(db)
).rows[0].n;
const entriesInYear = (
  await sql`select count(*)::int as n from time_entries where workspace_id = ${ws}
    and start_at >= ${`${from}T00:00:00Z`}::timestamptz and start_at < ${`${to}T00:00:00Z`}::timestamptz + interval '1 day'`.execute(
    db,
  )
).rows[0].n;
console.log(
  `${onPglite ? 'PGlite' : 'PostgreSQL'}: ${entriesInYear} entries (${rollupRows} rollup rows) in ${from}..${to}; totals agree`,
  api.totals,
);

const apiMs = [];
const apiRawMs = [];
const sqlMs = [];
for (let round = 0; round < ROUNDS; round++) {
  apiMs.push((await time(viaApi)).ms);
  apiRawMs.push((await time(viaApiRaw)).ms);
  sqlMs.push((await time(viaSql)).ms);
}
const a = median(apiMs);
const ar = median(apiRawMs);
const s = median(sqlMs);
console.log(
  `Summary by project, a year: API with rollups ${a.toFixed(0)} ms (${(a / s).toFixed(2)}x), API without (REPORT_ROLLUPS=false) ${ar.toFixed(0)} ms (${(ar / s).toFixed(2)}x), raw SQL ${s.toFixed(0)} ms (median of ${ROUNDS})`,
);

if (process.argv.includes('--groupings')) {
  // Every grouping the Summary page offers alone, the page's default (project, person) and common
  // pairs, over the year and the last 30 days, through the API reading the rollups (the default);
  // the entries (REPORT_ROLLUPS=false) too unless -- --rollups-only (at 10M each takes seconds).
  // `-- --check` compares each answer with the entries' once (slow at 10M); BENCH_GROUPINGS="a,b;c" picks some.
  const rollupsOnly = process.argv.includes('--rollups-only');
  const check = process.argv.includes('--check');
  const groupings = process.env.BENCH_GROUPINGS?.split(';') ?? [
    'project',
    'client',
    'task',
    'user',
    'group',
    'billable',
    'invoiced',
    'day',
    'week',
    'month',
    'year',
    'project,user',
    'client,project',
    'project,task',
    'project,month',
    'user,project',
    'month,user',
    'week,project',
    'user,project,task',
  ];
  for (const [label, rangeFrom] of [
    ['a year', from],
    ['last 30 days', day(-30)],
  ]) {
    const range = `preset=custom&from=${rangeFrom}&to=${to}&timeZone=UTC&measures=trackedSeconds,billableSeconds,billableAmount,costAmount`;
    for (const groupBy of groupings) {
      const q = `${range}&groupBy=${groupBy}`;
      const on = [];
      const off = [];
      let groups = 0;
      if (check && JSON.stringify(await summary(base, q)) !== JSON.stringify(await summary(rawBase, q)))
        throw new Error(`by ${groupBy}, ${label}: the rollups and the entries disagree`);
      for (let round = 0; round < 3; round++) {
        const timed = await time(() => summary(base, q));
        on.push(timed.ms);
        const count = (list) => list.reduce((n, g) => n + 1 + count(g.children ?? []), 0);
        groups = count(timed.result.groups);
        if (!rollupsOnly) off.push((await time(() => summary(rawBase, q))).ms);
      }
      console.log(
        `Summary by ${groupBy}, ${label}: rollups ${median(on).toFixed(0)} ms${rollupsOnly ? '' : `, entries ${median(off).toFixed(0)} ms`} (${groups} groups, median of 3${check ? ', same as the entries' : ''})`,
      );
    }
  }
}

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
await rawApp.close();
await handle.close();
