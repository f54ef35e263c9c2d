// The embedded database on the main thread (PGlite as the app ran it before) against PGlite in a
// worker thread (apps/api/src/db/pglite-thread.ts), in one run: how late a 10 ms timer fires
// (what a health check would wait) while a long import-like INSERT ... SELECT and a report-like
// aggregate run, their duration, and the cost of the extra hop on many small queries.
// Then the API itself on each: how long GET /healthz takes, asked every 10 ms from another
// process, while a Toggl export is imported and while the projects list sums every entry.
// Usage: npm run bench:pglite [-- rows small entries] (defaults 1000000, 3000 per round for
// 3 rounds, 20000)
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';
import { PGliteThread } from '../apps/api/src/db/pglite-thread.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
const small = Number(process.argv[3] ?? 3000);
const entries = Number(process.argv[4] ?? 20_000);
const rounds = 3;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

/** Runs `work` while a 10 ms timer ticks; how late each tick fired, and how long `work` took. */
async function underLoad(work) {
  const lateness = [];
  let stop = false;
  let expected = performance.now() + 10;
  const tick = () => {
    const now = performance.now();
    lateness.push(Math.max(0, now - expected));
    expected = now + 10;
    if (!stop) setTimeout(tick, 10);
  };
  setTimeout(tick, 10);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  stop = true;
  await new Promise((resolve) => setTimeout(resolve, 15));
  return {
    ms,
    ticks: lateness.length,
    p50: percentile(lateness, 50),
    p99: percentile(lateness, 99),
    max: Math.max(...lateness),
  };
}

async function smallQueries(db) {
  const started = performance.now();
  for (let i = 0; i < small; i++) await db.query('select $1::int as n, now() as at', [i]);
  return performance.now() - started;
}

const databases = {
  main: () => new PGlite(),
  worker: () => new PGliteThread(),
};

const results = {};
const opened = {};
for (const [name, open] of Object.entries(databases)) {
  const started = performance.now();
  opened[name] = open();
  await opened[name].waitReady;
  results[name] = { startMs: performance.now() - started, small: [] };
  await opened[name].query('create table t (k int, v text, at timestamptz)');
}
// Alternate rounds so machine noise hits both alike.
for (let round = 0; round < rounds; round++) {
  for (const name of Object.keys(databases)) results[name].small.push(await smallQueries(opened[name]));
}
for (const [name, db] of Object.entries(opened)) {
  results[name].import = await underLoad(() =>
    db.query(`insert into t select g, md5(g::text), now() from generate_series(1, ${rows}) g`),
  );
  results[name].report = await underLoad(() =>
    db.query(
      'select k % 1000 as b, count(*)::int as n, max(v) as v, min(at) as at from t group by 1 order by 2 desc, 1',
    ),
  );
  await db.close();
}

/** Asks GET /healthz every 10 ms from a child process until stopped; the times it waited. */
function healthChecks(url) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const times = []; let stop = false;
      process.stdin.on('end', () => { stop = true; }); process.stdin.resume();
      while (!stop) {
        const started = performance.now();
        await fetch(${JSON.stringify(url)});
        times.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      process.stdout.write(JSON.stringify(times));`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const done = new Promise((resolve) => child.on('exit', resolve));
  return async () => {
    child.stdin.end();
    await done;
    return JSON.parse(out);
  };
}

/** Runs `work` while /healthz is asked; its duration and the health checks' waits. */
async function withHealthChecks(url, work) {
  const stop = healthChecks(url);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const times = await stop();
  return { ms, checks: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times) };
}

function togglExport(email) {
  const header =
    'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount ()';
  const lines = [header];
  for (let i = 0; i < entries; i++) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 8) * 86_400_000).toISOString().slice(0, 10);
    const hour = String(8 + (i % 8)).padStart(2, '0');
    lines.push(
      `Ann,${email},Client ${i % 10},Project ${i % 100},Task ${i % 7},Work ${i},Yes,${day},${hour}:00:00,${day},${hour}:45:00,00:45:00,tag${i % 5},`,
    );
  }
  return lines.join('\n');
}

async function appRun(pgliteOnMainThread) {
  const handle = openDb({ dataDir: 'memory://', pgliteOnMainThread });
  await migrateToLatest(handle.db);
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000', WEB_DIST: '/nonexistent' });
  const app = await buildApp({ config, db: handle.db, logger: false });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const email = `bench.${Date.now()}@example.com`;
  const signup = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { email, password: 'Tidal-wave-42' },
  });
  const sid = signup.cookies.find((c) => c.name === 'sundial_sid' || c.name === '__Host-sid');
  const cookie = `${sid.name}=${sid.value}`;
  const me = (await app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } })).json();
  const ws = `/api/v1/workspaces/${me.currentWorkspaceId}`;
  const csv = togglExport(email);
  const health = `${address}/healthz`;
  const result = {};
  result.import = await withHealthChecks(health, async () => {
    const response = await app.inject({
      method: 'POST',
      url: `${ws}/imports`,
      headers: { cookie },
      payload: { source: 'toggl', csv },
    });
    if (response.statusCode !== 200) throw new Error(`import failed: ${response.body.slice(0, 300)}`);
  });
  result.projects = await withHealthChecks(health, async () => {
    for (let i = 0; i < 5; i++) {
      const response = await app.inject({ method: 'GET', url: `${ws}/projects?limit=500`, headers: { cookie } });
      if (response.statusCode !== 200) throw new Error(`projects failed: ${response.body.slice(0, 300)}`);
    }
  });
  await app.close();
  await handle.close();
  return result;
}

const app = { main: await appRun(true), worker: await appRun(false) };

const f = (n) => n.toFixed(1);
console.log(`PGlite: main thread vs worker thread; ${rows} rows; ${rounds} x ${small} small selects\n`);
for (const [name, r] of Object.entries(results)) {
  const perQuery = (percentile(r.small, 50) / small) * 1000;
  console.log(`${name}: start ${f(r.startMs)} ms; small select ${f(perQuery)} µs each (median round)`);
  for (const step of ['import', 'report']) {
    const s = r[step];
    console.log(
      `  ${step}: ${f(s.ms)} ms; 10 ms timer late p50 ${f(s.p50)} / p99 ${f(s.p99)} / max ${f(s.max)} ms over ${s.ticks} ticks`,
    );
  }
}
const ratio = (a, b) => (a / b).toFixed(2);
const { main, worker } = results;
console.log(
  `\nworker / main: small select ${ratio(percentile(worker.small, 50), percentile(main.small, 50))}x; import ${ratio(worker.import.ms, main.import.ms)}x; report ${ratio(worker.report.ms, main.report.ms)}x; start ${ratio(worker.startMs, main.startMs)}x`,
);

console.log(`\nAPI on PGlite, GET /healthz every 10 ms from another process; ${entries}-entry Toggl import`);
for (const [name, r] of Object.entries(app)) {
  for (const [step, label] of [
    ['import', 'import'],
    ['projects', '5 x projects?limit=500'],
  ]) {
    const s = r[step];
    console.log(
      `${name}: ${label} ${f(s.ms)} ms; healthz p50 ${f(s.p50)} / p99 ${f(s.p99)} / max ${f(s.max)} ms over ${s.checks} checks`,
    );
  }
}
console.log(
  `worker / main: import ${ratio(app.worker.import.ms, app.main.import.ms)}x, healthz p99 ${ratio(app.worker.import.p99, app.main.import.p99)}x; projects ${ratio(app.worker.projects.ms, app.main.projects.ms)}x, healthz p99 ${ratio(app.worker.projects.p99, app.main.projects.p99)}x`,
);
