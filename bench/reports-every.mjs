// Every Summary grouping against the raw SQL a DBA would write (issue 33), on the large workspace:
// for each grouping (one, two and three levels), over a year and the last 30 days, the API's
// every group and total (seconds, billable seconds, billable and cost cents) must equal the raw
// SQL's (GROUPING SETS over time_entries) exactly, and each round times both, alternated: the
// answer (HTTP, production mode, the API in a child process) and the raw SQL (run to its end in
// the database, no transfer). Three states:
//   cold   the first answer of a server process just started, on connections just opened (plans and
//          Node's caches empty). PostgreSQL's shared buffers and the OS page cache stay warm: without
//          root they cannot be emptied, so "cold" here is the application's cold, not the disk's;
//   warm   the median of the following rounds;
//   burst  right after 5,000 entries were written (one statement, as an import does), before the
//          rollups job folds their days: the reports read the pending days from the entries.
// The raw SQL equals the engine only because the seeded entries are finished, have no breaks, never
// cross midnight (UTC) and the workspace does not round, as bench/reports.mjs says.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_reports npm run bench:seed-large
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_reports npm run bench:reports-every
// (-- --rounds N, default 3; BENCH_GROUPINGS="project;user,project" picks some)
import pg from 'pg';
import { startServer } from './lib/server.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', 3);
if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL (and BENCH_DB, the database bench:seed-large made).');
  process.exit(1);
}
const url = new URL(process.env.DATABASE_URL);
url.pathname = `/${process.env.BENCH_DB ?? 'sundial_bench_reports'}`;

/** Each dimension as the API keys it, over time_entries e (and its project p), in UTC, weeks from Monday. */
const KEY = {
  project: 'e.project_id::text',
  client: 'p.client_id::text',
  task: 'e.task_id::text',
  user: 'e.user_id::text',
  billable: 'e.billable::text',
  invoiced: '(e.invoiced_at is not null)::text',
  day: "to_char(e.start_at at time zone 'UTC', 'YYYY-MM-DD')",
  week: "to_char(date_trunc('week', e.start_at at time zone 'UTC'), 'YYYY-MM-DD')",
  month: "to_char(e.start_at at time zone 'UTC', 'YYYY-MM')",
  year: "to_char(e.start_at at time zone 'UTC', 'YYYY')",
};
const GROUPINGS = process.env.BENCH_GROUPINGS?.split(';') ?? [
  'project',
  'client',
  'task',
  'user',
  'billable',
  'invoiced',
  'day',
  'week',
  'month',
  'year',
  'project,user',
  'client,project',
  'project,task',
  'user,project',
  'month,user',
  'week,project',
  'user,project,task',
  'project,user,day',
];
const MEASURES = 'trackedSeconds,billableSeconds,billableAmount,costAmount';

const db = new pg.Client({ connectionString: url.href });
await db.connect();
const owner = (
  await db.query(`select u.current_workspace_id as ws from users u where u.email = 'owner@large.example.org'`)
).rows[0];
const ws = owner.ws;
const last = (await db.query('select max(start_at) as at from time_entries where workspace_id = $1', [ws])).rows[0].at;
const dayOf = (offset) => new Date(new Date(last).getTime() + offset * 86_400_000).toISOString().slice(0, 10);
const to = dayOf(0);
const RANGES = [
  ['a year', dayOf(-364)],
  ['30 days', dayOf(-29)],
];

function rawSql(dims, from) {
  const keys = dims.map((d) => KEY[d]);
  const sets = [[], ...dims.map((_, i) => keys.slice(0, i + 1))].map((set) => `(${set.join(', ')})`);
  return `select ${keys.map((k, i) => `${k} as k${i + 1}`).join(', ')}${keys.length ? ',' : ''}
      grouping(${keys.length ? keys.join(', ') : '1'}) as g,
      sum(e.duration_seconds) as tracked,
      sum(case when e.billable then e.duration_seconds else 0 end) as billable_seconds,
      sum(case when e.billable then coalesce((e.billable_rate_cents::bigint * e.duration_seconds + 1800) / 3600, 0) else 0 end) as billable_cents,
      sum(coalesce((e.cost_rate_cents::bigint * e.duration_seconds + 1800) / 3600, 0)) as cost_cents
    from time_entries e left join projects p on p.workspace_id = e.workspace_id and p.id = e.project_id
    where e.workspace_id = '${ws}' and e.start_at >= '${from}T00:00:00Z' and e.start_at < '${to}T00:00:00Z'::timestamptz + interval '1 day'
    group by grouping sets (${sets.join(', ')})`;
}

/** A group's place (its keys, outermost first) -> its four figures, for the API's tree and the raw rows alike. */
function flattenApi(view) {
  const out = new Map([['', figures(view.totals)]]);
  const walk = (groups, path) => {
    for (const g of groups) {
      const here = [...path, g.key.key];
      out.set(JSON.stringify(here), figures(g.measures));
      walk(g.children ?? [], here);
    }
  };
  walk(view.groups, []);
  return out;
}
const figures = (m) => [m.trackedSeconds, m.billableSeconds, m.billableAmount, m.costAmount].map(Number).join('/');
function flattenRaw(rows, levels) {
  const out = new Map();
  for (const row of rows) {
    // grouping() has a bit per key left out: the level is how many keys are in.
    let level = levels;
    for (let i = 0; i < levels; i++) if ((Number(row.g) >> (levels - 1 - i)) & 1) level--;
    const keys = [row.k1, row.k2, row.k3].slice(0, level);
    const fig = [row.tracked, row.billable_seconds, row.billable_cents, row.cost_cents].map(Number).join('/');
    out.set(level === 0 ? '' : JSON.stringify(keys), fig);
  }
  return out;
}
function compare(api, raw, what) {
  if (api.size !== raw.size) throw new Error(`${what}: ${api.size} groups through the API, ${raw.size} by the raw SQL`);
  for (const [place, fig] of raw)
    if (api.get(place) !== fig)
      throw new Error(`${what}: ${place || 'total'} is ${api.get(place)} through the API, ${fig} by SQL`);
  return api.size - 1;
}

const timed = async (work) => {
  const t0 = performance.now();
  const result = await work();
  return { ms: performance.now() - t0, result };
};
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0].toFixed(2)} / ${s[Math.floor(s.length / 2)].toFixed(2)} / ${s.at(-1).toFixed(2)}`;
};

async function run(server, state, rounds) {
  const me = await (await server.call('/api/v1/me')).json();
  if (me.currentWorkspaceId !== ws) throw new Error('the owner is not in the seeded workspace');
  for (const [label, from] of RANGES)
    for (const grouping of GROUPINGS) {
      const dims = grouping.split(',');
      const api = () =>
        server
          .call(
            `/api/v1/workspaces/${ws}/reports/summary?preset=custom&from=${from}&to=${to}&timeZone=UTC&measures=${MEASURES}&groupBy=${grouping}`,
          )
          .then(async (r) => {
            if (r.status !== 200) throw new Error(`summary ${grouping}: ${r.status} ${await r.text()}`);
            return r.json();
          });
      const raw = () => db.query(rawSql(dims, from)).then((r) => r.rows);
      const ratios = [];
      let groups = 0;
      let apiMs = 0;
      let sqlMs = 0;
      for (let round = 0; round < rounds; round++) {
        const a = await timed(api);
        const s = await timed(raw);
        groups = compare(flattenApi(a.result), flattenRaw(s.result, dims.length), `${state}, by ${grouping}, ${label}`);
        ratios.push(a.ms / s.ms);
        apiMs = a.ms;
        sqlMs = s.ms;
      }
      console.log(
        `${state.padEnd(5)} ${label.padEnd(7)} by ${grouping.padEnd(18)} ${String(groups).padStart(7)} groups equal; API / SQL ${
          rounds > 1 ? stats(ratios) : ratios[0].toFixed(2)
        } (last: ${apiMs.toFixed(0)} ms / ${sqlMs.toFixed(0)} ms)`,
      );
    }
}

const shape = await db.query(
  `select (select count(*) from memberships where workspace_id = $1)::int as people,
     (select count(*) from projects where workspace_id = $1)::int as projects,
     (select count(*) from time_entries where workspace_id = $1)::int as entries,
     (select count(*) from group_members where workspace_id = $1)::int as in_teams`,
  [ws],
);
console.log(`seed ${url.pathname.slice(1)}:`, shape.rows[0], `last day ${to}; ${ROUNDS} rounds`);

// Cold: a server just started, one round each (its first answers).
let server = await startServer(url.href);
try {
  await run(server, 'cold', 1);
  await run(server, 'warm', ROUNDS);
} finally {
  server.stop();
}

// Burst: 5,000 entries in the last 30 days, written at once, then every grouping at once.
const burst = await db.query(
  `insert into time_entries (id, workspace_id, user_id, project_id, task_id, start_at, end_at, duration_seconds,
     created_by_user_id, billable, billable_rate_cents, cost_rate_cents, note)
   select gen_random_uuid(), e.workspace_id, e.user_id, e.project_id, e.task_id,
     e.start_at + interval '17 minutes', e.start_at + interval '17 minutes' + interval '20 minutes', 1200,
     e.created_by_user_id, e.billable, e.billable_rate_cents, e.cost_rate_cents, 'Burst'
   from (select * from time_entries where workspace_id = $1 and start_at >= $2::date
         and extract(hour from start_at at time zone 'UTC') < 20 order by start_at desc limit 5000) e
   returning id`,
  [ws, dayOf(-29)],
);
const pending = (await db.query('select count(*)::int as n from report_rollups_pending where workspace_id = $1', [ws]))
  .rows[0].n;
console.log(`burst: ${burst.rowCount} entries written, ${pending} person-days pending`);
server = await startServer(url.href);
try {
  await run(server, 'burst', 1);
} finally {
  server.stop();
  await db.query('delete from time_entries where workspace_id = $1 and id = any($2::uuid[])', [
    ws,
    burst.rows.map((r) => r.id),
  ]);
  await db.end();
}
