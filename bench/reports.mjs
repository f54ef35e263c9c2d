// The report engine (issue 14) on the large workspace: the Summary report over a year, through
// the API (HTTP, auth, validation, the engine's one SQL statement, JSON), against the raw SQL that
// computes the same figures on the same database, alternated in one run; and the Detailed report's
// page 1 against page 1,000 (keyset paging), 100 entries a page. The Summary is timed twice through
// the API: reading the daily rollups (report_rollups, the default) and with REPORT_ROLLUPS=false
// (the engine over the entries), each against the raw SQL in the same rounds. On PostgreSQL it then
// checks every grouping the Summary page offers, alone and in common pairs and triples, group by
// group against a DBA's SQL and times both, warm, cold and right after a burst of writes
// (`checkedGroupings`); it exits 1 when a Summary differs.
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
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';
import { numberArg, seededDatabaseUrl } from './lib/args.mjs';
import { freePort } from './lib/ports.mjs';
import { seedPglite } from './lib/seed-pglite.mjs';

const onPglite = process.argv.includes('--pglite');
const ROUNDS = numberArg('rounds', 5);
const PORT = Number(process.env.BENCH_PORT) || (await freePort()); // never another run's server
const OWNER = { email: 'owner@large.example.org', password: 'Sunny-days-2026!' };

let databaseUrl;
if (!onPglite) databaseUrl = seededDatabaseUrl('sundial_bench_reports', ', or pass --pglite');

const handle = openDb(onPglite ? { dataDir: 'memory://' } : { databaseUrl });
const { db } = handle;
const migrating = performance.now();
await migrateToLatest(db);
console.log(
  `migrations: ${((performance.now() - migrating) / 1000).toFixed(1)} s (the rollups' backfill runs in them once)`,
);
const appOf = async (port, rollups, appDb = db) => {
  const config = loadConfig({
    // No rollups job: the burst of writes (checkedGroupings) stays unfolded while it is measured.
    JOBS_ENABLED: 'false',
    // As deployed: production writes responses with the compiled writer (tests check each with zod).
    NODE_ENV: 'production',
    PUBLIC_URL: `http://localhost:${port}`,
    WEB_DIST: '/nonexistent',
    REPORT_ROLLUPS: String(rollups),
  });
  const built = await buildApp({ config, db: appDb, logger: false });
  await built.listen({ port, host: '127.0.0.1' });
  return built;
};
let app = await appOf(PORT, true);
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
  const entries = numberArg('entries', 200_000);
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

// Every Summary grouping checked against the SQL a DBA would write over time_entries, and timed
// against it (issue 33): each group's seconds and cents must be equal, not only the totals. The
// DBA's SQL sums duration_seconds and round(rate * seconds / 3600.0) per key with ROLLUP: right
// for this seed only (finished entries inside one UTC day, no breaks, no rounding), which the
// engine must not assume. Warm: the server and connections as they are after the check. Cold: a
// new app and a new connection pool before each API round (its first connection opened by
// /readyz), a new connection after DISCARD ALL before each SQL round; PostgreSQL's shared buffers
// and the OS page cache stay warm (PostgreSQL 15 cannot evict a relation's buffers, the server is
// shared, and there is no root to drop the page cache). Then a burst of writes (updates, inserts,
// deletes in SQL, as many pending days as the rollups job has not folded yet) and the same again.
// `-- --groupings-rounds N` (default 3) warm and cold rounds each; BENCH_GROUPINGS="a,b;c" picks some.
async function checkedGroupings() {
  const rounds = numberArg('groupings-rounds', 3);
  const failures = [];
  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return client;
  };
  let dba = await connect();
  const count = async (text, values) => Number((await dba.query(text, values)).rows[0].n);
  // The seed's shape (bench/seed-large.mjs): members on every project, or teams of eight projects.
  const shape = (
    await dba.query(
      `select count(*)::int as entries, count(distinct user_id)::int as members,
         (select round(avg(n), 1) from (select count(distinct project_id) as n from time_entries
            where workspace_id = $1 group by user_id) x) as projects_a_member
       from time_entries where workspace_id = $1`,
      [ws],
    )
  ).rows[0];
  const seedShape = `${shape.entries} entries, ${shape.members} members, ${
    Number(shape.projects_a_member) <= 8 ? 'teams shape (--teams)' : 'every-project shape (default)'
  }: ${shape.projects_a_member} projects a member`;
  console.log(`\nseed: ${seedShape}`);

  const DBA = {
    project: { key: 'e.project_id::text' },
    client: { key: 'p.client_id::text', join: 'left join projects p on p.id = e.project_id' },
    task: { key: 'e.task_id::text' },
    user: { key: 'e.user_id::text' },
    group: { key: 'gm.group_id::text', join: 'left join group_members gm on gm.user_id = e.user_id' },
    tag: { key: 'tt.tag_id::text', join: 'left join time_entry_tags tt on tt.entry_id = e.id' },
    billable: { key: 'e.billable::text' },
    invoiced: { key: '(e.invoiced_at is not null)::text' },
    day: { key: `to_char(e.start_at at time zone 'UTC', 'YYYY-MM-DD')` },
    week: { key: `to_char(date_trunc('week', e.start_at at time zone 'UTC'), 'YYYY-MM-DD')` },
    month: { key: `to_char(e.start_at at time zone 'UTC', 'YYYY-MM')` },
    year: { key: `to_char(e.start_at at time zone 'UTC', 'YYYY')` },
  };
  const MEASURES = ['trackedSeconds', 'billableSeconds', 'billableAmount', 'costAmount'];
  const dbaSql = (dims, rangeFrom) => {
    const keys = dims.map((d, i) => `${DBA[d].key} as k${i + 1}`).join(', ');
    const joins = [...new Set(dims.map((d) => DBA[d].join).filter(Boolean))].join(' ');
    const ks = dims.map((_, i) => `k${i + 1}`).join(', ');
    return `select grouping(${ks}) as g, ${ks},
        sum(duration_seconds) as "trackedSeconds",
        sum(case when billable then duration_seconds else 0 end) as "billableSeconds",
        coalesce(sum(case when billable then round(billable_rate_cents * duration_seconds / 3600.0) else 0 end), 0) as "billableAmount",
        coalesce(sum(round(cost_rate_cents * duration_seconds / 3600.0)), 0) as "costAmount"
      from (select ${keys}, e.duration_seconds, e.billable, e.billable_rate_cents, e.cost_rate_cents
            from time_entries e ${joins}
            where e.workspace_id = '${ws}' and e.start_at >= '${rangeFrom}T00:00:00Z'
              and e.start_at < '${to}T00:00:00Z'::timestamptz + interval '1 day') x
      group by rollup (${ks})`;
  };
  // path (the keys from the top) -> measures, for both answers.
  const ofApi = (view) => {
    const out = new Map([['[]', view.totals]]);
    const walk = (groups, prefix) => {
      for (const g of groups) {
        const path = [...prefix, g.key.key];
        out.set(JSON.stringify(path), g.measures);
        if (g.children) walk(g.children, path);
      }
    };
    walk(view.groups, []);
    return out;
  };
  const ofSql = (rows, n) => {
    const out = new Map();
    for (const row of rows) {
      let level = n;
      for (let bit = 0; bit < n; bit++) if (row.g & (1 << bit)) level--;
      const path = Array.from({ length: level }, (_, i) => row[`k${i + 1}`]);
      out.set(JSON.stringify(path), Object.fromEntries(MEASURES.map((m) => [m, Number(row[m])])));
    }
    return out;
  };
  const compare = (what, api, dbaRows, n) => {
    const a = ofApi(api);
    const b = ofSql(dbaRows, n);
    const wrong = [];
    for (const [path, m] of b) {
      const got = a.get(path);
      if (!got) wrong.push(`${path}: missing from the API (SQL ${JSON.stringify(m)})`);
      else if (MEASURES.some((k) => got[k] !== m[k]))
        wrong.push(`${path}: API ${JSON.stringify(got)}, SQL ${JSON.stringify(m)}`);
    }
    for (const [path, m] of a) if (!b.has(path)) wrong.push(`${path}: only in the API ${JSON.stringify(m)}`);
    if (wrong.length) {
      failures.push(`${what}: ${wrong.length} groups differ`);
      console.log(
        `MISMATCH ${what}: ${wrong.length} of ${b.size} groups differ, e.g.\n  ${wrong.slice(0, 5).join('\n  ')}`,
      );
    }
    return b.size;
  };
  const restart = async () => {
    await app.close();
    await appHandle?.close();
    appHandle = openDb({ databaseUrl });
    app = await appOf(PORT, true, appHandle.db);
    if (!(await fetch(`http://127.0.0.1:${PORT}/readyz`)).ok) throw new Error('the restarted API is not ready');
  };
  let appHandle;
  const stats = (xs) => {
    const sorted = [...xs].sort((p, q) => p - q);
    return { min: sorted[0], med: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
  };
  const line = (label, api, dbaMs) => {
    const ratios = api.map((ms, i) => ms / dbaMs[i]);
    const r = stats(ratios);
    return `${label} API ${stats(api).med.toFixed(0)} ms, SQL ${stats(dbaMs).med.toFixed(0)} ms, API/SQL ${r.min.toFixed(2)}/${r.med.toFixed(2)}/${r.max.toFixed(2)}`;
  };
  const groupings = process.env.BENCH_GROUPINGS?.split(';') ?? [
    'project',
    'client',
    'task',
    'user',
    'group',
    'tag',
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
    'billable,client',
    'user,project,task',
    'client,project,month',
  ];
  // `-- --year-only`: the year alone (half the run).
  const ranges = [
    ['a year', from],
    ['last 30 days', day(-30)],
  ].slice(0, process.argv.includes('--year-only') ? 1 : 2);
  const whichSource = async (rangeFrom) => {
    const pending = await count(
      'select count(*) as n from report_rollups_pending where workspace_id = $1 and day between $2 and $3',
      [ws, rangeFrom, to],
    );
    const members = await count('select count(*) as n from memberships where workspace_id = $1', [ws]);
    const personDays = members * (Math.round((Date.parse(to) - Date.parse(rangeFrom)) / 86_400_000) + 1);
    return `${pending} of ${personDays} person-days pending: ${pending * 8 <= personDays ? 'the rollups and the pending days’ entries' : 'the entries (more than 1 in 8 pending)'}`;
  };
  const measureAll = async (phase, { cold }) => {
    for (const [label, rangeFrom] of ranges) {
      console.log(`\n${phase}, ${label} (${rangeFrom}..${to}); ${await whichSource(rangeFrom)}; seed: ${seedShape}`);
      for (const grouping of groupings) {
        const dims = grouping.split(',');
        const q = `preset=custom&from=${rangeFrom}&to=${to}&timeZone=UTC&weekStart=monday&measures=${MEASURES.join(',')}&groupBy=${grouping}`;
        const text = dbaSql(dims, rangeFrom);
        const groups = compare(
          `${phase}, by ${grouping}, ${label}`,
          await summary(base, q),
          (await dba.query(text)).rows,
          dims.length,
        );
        const apiMs = [];
        const sqlMs = [];
        for (let round = 0; round < rounds; round++) {
          // Alternate which goes first, so neither always follows the other's cache effects.
          const runApi = async () => apiMs.push((await time(() => summary(base, q))).ms);
          const runSql = async () => sqlMs.push((await time(() => dba.query(text))).ms);
          for (const run of round % 2 ? [runSql, runApi] : [runApi, runSql]) await run();
        }
        let coldLine = '';
        if (cold) {
          const apiCold = [];
          const sqlCold = [];
          for (let round = 0; round < rounds; round++) {
            await restart();
            apiCold.push((await time(() => summary(base, q))).ms);
            await dba.end();
            dba = await connect();
            await dba.query('discard all');
            sqlCold.push((await time(() => dba.query(text))).ms);
          }
          coldLine = `; cold: ${line('', apiCold, sqlCold)}`;
        }
        console.log(
          `by ${grouping}: ${groups} groups equal; warm: ${line('', apiMs, sqlMs)}${coldLine} (min/median/max of ${rounds})`,
        );
      }
    }
  };

  await measureAll('folded rollups', { cold: true });

  // A burst of writes, as SQL (the rollups' triggers mark their person-days pending; the job is off).
  const burst = performance.now();
  const inYear = `workspace_id = '${ws}' and start_at >= '${from}T00:00:00Z' and start_at < '${to}T00:00:00Z'::timestamptz + interval '1 day'`;
  await dba.query('begin');
  const updated = await dba.query(
    `update time_entries e set
       project_id = (select id from projects p where p.workspace_id = e.workspace_id order by p.name
                     offset abs(hashtext(e.id::text)) % 200 limit 1),
       task_id = null, billable = not e.billable, billable_rate_cents = e.billable_rate_cents + 100,
       end_at = e.end_at - interval '60 seconds', duration_seconds = e.duration_seconds - 60,
       invoiced_at = case when e.invoiced_at is null then now() end, updated_at = now()
     where e.id in (select id from time_entries where ${inYear} order by md5(id::text) limit 3000)`,
  );
  const inserted = await dba.query(
    `insert into time_entries (id, workspace_id, user_id, project_id, task_id, note, billable, start_at, end_at,
       duration_seconds, created_by_user_id, created_at, updated_at, billable_rate_cents, cost_rate_cents)
     select gen_random_uuid(), '${ws}', u.id, pr.id, null, 'Burst ' || i, i % 2 = 0, x.start_at,
       x.start_at + x.seconds * interval '1 second', x.seconds, u.id, now(), now(), 7000 + i % 3 * 5, 4001
     from generate_series(0, 1499) i
     cross join lateral (select ('${from}'::date + (i * 37) % 365)::timestamp at time zone 'UTC'
         + interval '3 hours' + (i / 100 % 3) * interval '50 minutes' as start_at, 1200 + i * 7 % 1800 as seconds) x
     join (select user_id as id, row_number() over (order by user_id) - 1 as rn from memberships where workspace_id = '${ws}') u
       on u.rn = i % (select count(*) from memberships where workspace_id = '${ws}')
     join (select id, row_number() over (order by name) - 1 as rn from projects where workspace_id = '${ws}') pr on pr.rn = i % 200
     where x.start_at < '${to}T00:00:00Z'::timestamptz + interval '1 day'`,
  );
  const deleted = await dba.query(
    `delete from time_entries where id in (select id from time_entries where ${inYear} and note like 'Seeded%'
       order by md5(id::text) desc limit 500)`,
  );
  await dba.query('commit');
  console.log(
    `\nburst: ${updated.rowCount} entries updated (project, billable, rate, end, invoiced), ${inserted.rowCount} inserted, ${deleted.rowCount} deleted in ${((performance.now() - burst) / 1000).toFixed(1)} s`,
  );
  await measureAll('right after the burst (unfolded)', { cold: false });
  // Then folded as the job does: equal again.
  for (let folded = -1; folded !== 0; )
    folded = Number((await dba.query('select report_rollups_fold_pending($1, 20000) as n', [ws])).rows[0].n);
  await dba.query('select report_rollups_compact($1)', [ws]);
  for (const [label, rangeFrom] of ranges)
    for (const grouping of groupings) {
      const q = `preset=custom&from=${rangeFrom}&to=${to}&timeZone=UTC&weekStart=monday&measures=${MEASURES.join(',')}&groupBy=${grouping}`;
      const dims = grouping.split(',');
      compare(
        `after the fold, by ${grouping}, ${label}`,
        await summary(base, q),
        (await dba.query(dbaSql(dims, rangeFrom))).rows,
        dims.length,
      );
    }
  console.log(`\nafter the burst was folded: ${failures.length ? 'see MISMATCH above' : 'every grouping equal again'}`);
  await dba.end();
  // Back on the first pool for the Detailed report.
  await app.close();
  await appHandle?.close();
  app = await appOf(PORT, true);
  if (failures.length) {
    console.log(`\n${failures.length} Summaries differ from the SQL:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
}

// A DBA's SQL through its own connections: PostgreSQL only.
if (!onPglite) await checkedGroupings();

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
