// Computer time's Activities (issue 35) over a month of a 100-person workspace, on PostgreSQL: the
// owner signs up through the API and turns "managers see activity" on (so they read everyone);
// 99 more people, a computer each and their spans are written with set-based SQL (100 people x the
// month's working days x 1,500 spans a day from 08:00, each person using about 25 of 80
// applications), and `activity_daily` is filled from those spans as uploads would have (whole
// seconds, no span across midnight), with a year of rollups before the month (copies of it). Then, with the compiled API (`npm run build` first):
//   - GET /workspaces/:id/computer-time/activities for the month, as the owner (everyone), per
//     person and `together=true` (added up per day and application, as the page asks): median and
//     p90 of 10 after a warm-up, interleaved, each against its statement alone (EXPLAIN ANALYZE);
//   - the Activities page for that month in Chromium: from the response arriving (Resource Timing
//     responseEnd) to the frame after the table's rows are in the DOM, and from the page's start.
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:ct-activities
//   [-- --people 100 --spans-per-day 1500 --runs 10] (-- --reuse: the database of the last run, not seeded again; -- --shot file.png: the page). It makes its own database
//   sundial_bench_ct_activities. The goal: under 500 ms.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { freshDatabase, observeLongTasks, PASSWORD, quantile, signUp, startCompiled } from './lib/ct.mjs';
import { signInCookie } from './lib/sign-in.mjs';

const { values: args } = parseArgs({
  options: {
    people: { type: 'string', default: '100' },
    'spans-per-day': { type: 'string', default: '1500' },
    runs: { type: 'string', default: '10' },
    reuse: { type: 'boolean', default: false },
    shot: { type: 'string' },
  },
});
const PEOPLE = Number(args.people);
const SPANS_PER_DAY = Number(args['spans-per-day']);
const RUNS = Number(args.runs);
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error(
    'Set DATABASE_URL to a PostgreSQL server; the bench makes its own database sundial_bench_ct_activities.',
  );
  process.exit(1);
}

// The month before this one.
const now = new Date();
const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
const [from, to] = [first, last].map((d) => d.toISOString().slice(0, 10));

const dbUrl = args.reuse
  ? Object.assign(new URL(adminUrl), { pathname: '/sundial_bench_ct_activities' }).toString()
  : await freshDatabase(adminUrl, 'sundial_bench_ct_activities');
const server = await startCompiled(dbUrl);
const db = new pg.Pool({ connectionString: dbUrl, max: 2 });
let browser;
const lap = (() => {
  let at = performance.now();
  return (what) => {
    const t = performance.now();
    console.log(`${what}: ${((t - at) / 1000).toFixed(1)} s`);
    at = t;
  };
})();
/** The owner signed up, their workspace's people, computers, spans and rollups: the owner. */
async function seed() {
  const owner = await signUp(server.origin, `ct.activities.${Date.now()}@example.com`);
  const saved = await fetch(`${server.origin}/api/v1/workspaces/${owner.workspaceId}/computer-time/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie: owner.cookie },
    body: JSON.stringify({
      keep: 'titles',
      idleSeconds: 180,
      retentionDays: null,
      managersSeeActivity: true,
      exclusions: [],
    }),
  });
  if (!saved.ok) throw new Error(`settings: ${saved.status} ${await saved.text()}`);

  // ---- people, computers and spans, set-based
  await db.query(
    `insert into users (id, email, password_hash, name, time_zone, current_workspace_id)
     select gen_random_uuid(), 'ct' || i || '@activities.example.org', 'x', 'Person ' || i, 'UTC', $1
     from generate_series(1, $2::int - 1) i;
     `.trim(),
    [owner.workspaceId, PEOPLE],
  );
  await db.query(
    `insert into memberships (workspace_id, user_id, role)
     select $1, id, 'member' from users where email like 'ct%@activities.example.org'`,
    [owner.workspaceId],
  );
  await db.query(
    `insert into agent_devices (id, workspace_id, user_id, name, platform, agent_version, token_hash)
     select gen_random_uuid(), workspace_id, user_id, 'bench', 'linux', '0.1.0', md5(random()::text)
     from memberships m where workspace_id = $1
       and not exists (select from agent_devices d where d.user_id = m.user_id)`,
    [owner.workspaceId],
  );
  lap(`${PEOPLE} people and their computers`);
  await db.query('select setseed(0.35)');
  // Person n, working day d, span i: from 08:00, 20 s apart, 4 to 18 s long; the application is one
  // of about 25 near the person's own number (of 80), the first ones most often.
  await db.query(
    `insert into activity_spans (id, workspace_id, user_id, device_id, kind, started_at, ended_at, app, title)
     select gen_random_uuid(), d.workspace_id, d.user_id, d.id, 'active',
            day + time '08:00' + i * interval '20 seconds',
            day + time '08:00' + i * interval '20 seconds' + (4 + (i * 7 + n) % 15) * interval '1 second',
            'app-' || ((n + floor(random() * random() * 25)::int) % 80),
            'Window ' || (i % 40)
     from (select *, row_number() over (order by user_id) as n from agent_devices where workspace_id = $1) d
     cross join generate_series($2::date, $3::date, interval '1 day') as day
     cross join generate_series(0, $4::int - 1) as i
     where extract(isodow from day) < 6`,
    [owner.workspaceId, from, to, SPANS_PER_DAY],
  );
  lap('spans');
  const { rowCount } = await db.query(
    `insert into activity_daily (workspace_id, user_id, day, app, seconds)
     select workspace_id, user_id, (started_at at time zone 'UTC')::date, app,
            sum(round(extract(epoch from ended_at - started_at)))::int
     from activity_spans where workspace_id = $1 group by 1, 2, 3, 4`,
    [owner.workspaceId],
  );
  // A year of history before the month, rollups only (the month’s rows again every 5 weeks back):
  // the month is then about an eleventh of the table, as in a workspace that has run for a year.
  const { rowCount: history } = await db.query(
    `insert into activity_daily (workspace_id, user_id, day, app, seconds)
     select workspace_id, user_id, day - 35 * k, app, seconds
     from activity_daily cross join generate_series(1, 10) as k
     where workspace_id = $1`,
    [owner.workspaceId],
  );
  await db.query('vacuum analyze activity_spans');
  await db.query('vacuum analyze activity_daily');
  const { rows: counted } = await db.query('select count(*)::int as n from activity_spans');
  lap(`${rowCount} rollup rows from ${counted[0].n} spans, ${history} of history before, vacuum analyze`);

  return owner;
}

try {
  let owner;
  if (args.reuse) {
    const { rows } = await db.query(
      `select u.email, u.id, m.workspace_id from users u join memberships m on m.user_id = u.id where u.email like 'ct.activities.%'`,
    );
    owner = { email: rows[0].email, userId: rows[0].id, workspaceId: rows[0].workspace_id };
    owner.cookie = await signInCookie(`${server.origin}/api/v1`, { email: owner.email, password: PASSWORD });
  } else {
    owner = await seed();
  }
  const ws = `/api/v1/workspaces/${owner.workspaceId}`;
  const asOwner = (path) => fetch(`${server.origin}${ws}${path}`, { headers: { cookie: owner.cookie } });

  // ---- the route, per person and added up (what the page asks for), and each statement alone
  const shapes = {
    'per person': {
      query: '',
      statement: `select user_id, day::text as day, app, seconds from activity_daily
        where workspace_id = $1 and day >= $2 and day <= $3 order by user_id, day, seconds desc, app`,
    },
    'together (the page)': {
      query: '&together=true',
      statement: `select null::uuid as user_id, day::text as day, app, sum(seconds)::int as seconds from activity_daily
        where workspace_id = $1 and day >= $2 and day <= $3 group by day, app order by day, seconds desc, app`,
    },
  };
  const read = async (shape) => {
    const started = performance.now();
    const response = await asOwner(`/computer-time/activities?from=${from}&to=${to}${shape.query}`);
    const body = await response.text();
    if (!response.ok) throw new Error(`activities: ${response.status} ${body}`);
    return { ms: performance.now() - started, items: JSON.parse(body).items.length, bytes: body.length };
  };
  const explain = async (shape) => {
    const { rows } = await db.query(`explain (analyze, buffers, format json) ${shape.statement}`, [
      owner.workspaceId,
      from,
      to,
    ]);
    return rows[0]['QUERY PLAN'][0];
  };
  for (const shape of Object.values(shapes)) {
    shape.reads = [];
    shape.plans = [];
    await read(shape); // warm-up
    await explain(shape);
  }
  // Interleaved, so the machine's noise hits both shapes alike.
  for (let i = 0; i < RUNS; i++) {
    for (const shape of Object.values(shapes)) {
      shape.reads.push(await read(shape));
      shape.plans.push(await explain(shape));
    }
  }
  const nodesOf = (plan) => {
    const nodes = [];
    const walk = (node) => {
      nodes.push(`${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ''}`);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan);
    return nodes.join(' → ');
  };

  // ---- the page
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const context = await browser.newContext({ baseURL: server.origin, viewport: { width: 1440, height: 900 } });
  const login = await context.request.post('/api/v1/auth/login', { data: { email: owner.email, password: PASSWORD } });
  if (!login.ok()) throw new Error(`log-in failed: ${login.status()}`);
  const renders = [];
  for (let run = 0; run <= Math.min(RUNS, 5); run++) {
    const page = await context.newPage();
    await page.addInitScript(observeLongTasks);
    // Rows of the table, watched from the page's start: the frame after they first show.
    await page.addInitScript(() => {
      const wait = () => {
        if (document.querySelector('table[aria-label="Time per application and day"] tbody tr')) {
          requestAnimationFrame(() => {
            window.rowsPaintedAt = performance.now();
          });
          return;
        }
        requestAnimationFrame(wait);
      };
      requestAnimationFrame(wait);
    });
    await page.goto(`/homepage/computer-time/activities?preset=custom&from=${from}&to=${to}`);
    await page.waitForFunction(() => window.rowsPaintedAt !== undefined, null, { timeout: 60_000 });
    await page.waitForTimeout(300);
    const measured = await page.evaluate(() => {
      const response = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/computer-time/activities?'))
        .at(-1);
      const tasks = window.longTasks.filter((task) => task.start >= response.responseEnd);
      return {
        responseToPaint: window.rowsPaintedAt - response.responseEnd,
        loadToPaint: window.rowsPaintedAt,
        longestTask: Math.max(0, ...tasks.map((task) => task.ms)),
        rows: document.querySelectorAll('table[aria-label="Time per application and day"] tbody tr').length,
        cells: document.querySelectorAll('table[aria-label="Time per application and day"] td').length,
      };
    });
    if (args.shot && run === 1) await page.screenshot({ path: args.shot });
    await page.close();
    if (run > 0) renders.push(measured);
  }

  const median = (xs) => quantile(xs, 0.5);
  const table = {};
  for (const [name, shape] of Object.entries(shapes)) {
    const ms = shape.reads.map((r) => r.ms);
    const sqlMs = shape.plans.map((p) => p['Execution Time']);
    const plan = shape.plans.at(-1).Plan;
    table[`GET …/activities, ${name}`] = {
      'median ms': median(ms).toFixed(0),
      'p90 ms': quantile(ms, 0.9).toFixed(0),
      items: shape.reads[0].items,
      'JSON KiB': Math.round(shape.reads[0].bytes / 1024),
    };
    table[`  its statement alone`] = {
      'median ms': median(sqlMs).toFixed(1),
      'p90 ms': quantile(sqlMs, 0.9).toFixed(1),
      items: plan['Actual Rows'],
      buffers: plan['Shared Hit Blocks'] + plan['Shared Read Blocks'],
    };
    console.table(table);
    for (const key of Object.keys(table)) delete table[key];
    console.log(`  plan: ${nodesOf(plan)}`);
    shape.median = median(ms);
    shape.ratio = median(ms) / median(sqlMs);
  }
  const renderMs = median(renders.map((r) => r.responseToPaint));
  const loadMs = median(renders.map((r) => r.loadToPaint));
  console.table(
    renders.map((r) => ({
      'response → painted ms': Math.round(r.responseToPaint),
      'page start → painted ms': Math.round(r.loadToPaint),
      'longest task ms': Math.round(r.longestTask),
      rows: r.rows,
      cells: r.cells,
    })),
  );
  const [each, together] = Object.values(shapes);
  console.log(
    `Activities of ${PEOPLE} people over ${from}..${to} (median of ${RUNS}): per person ${each.median.toFixed(0)} ms ` +
      `(${(each.median / 500).toFixed(2)}x the 500 ms goal, ${each.ratio.toFixed(1)}x its statement), together ` +
      `${together.median.toFixed(0)} ms (${(together.median / 500).toFixed(2)}x, ${together.ratio.toFixed(1)}x its statement); ` +
      `the page: response → painted ${renderMs.toFixed(0)} ms, page start → painted ${loadMs.toFixed(0)} ms`,
  );
  if (Math.max(each.median, together.median) >= 500) process.exitCode = 1;
} finally {
  await browser?.close();
  await db.end();
  await server.stop();
}
