// A large Toggl Track import against the compiled server on PostgreSQL (issue 13): upload, read,
// import, while a second loop asks /healthz every 20 ms. Reports the import's time and rows per
// second, and healthz latency (p50/p99/max) during the import against the same server idle.
// Usage: npm run bench:import [-- --rows 100000] [-- --no-build]
// DATABASE_URL_ADMIN (default postgres://postgres@127.0.0.1:5432/postgres) is used to drop and
// create the bench's own database `sundial_bench_import`; the generated file goes to os.tmpdir().
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const rows = Number(arg('rows', 100_000));
const port = Number(arg('port', 3291));
const adminUrl = process.env.DATABASE_URL_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = 'sundial_bench_import';
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
const base = `http://127.0.0.1:${port}`;

async function recreateDatabase() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  await admin.end();
}

/** A Toggl Track detailed export: 100 projects over 10 clients, 3 tasks each, 8 tags, ~150 bytes a row. */
async function writeToggl(file) {
  const out = createWriteStream(file);
  const write = (line) => (out.write(line) ? undefined : new Promise((r) => out.once('drain', r)));
  await write(
    'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags\n',
  );
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2023, 0, 1) + Math.floor(i / 8) * 86_400_000).toISOString().slice(0, 10);
    const hour = String(8 + (i % 8)).padStart(2, '0');
    await write(
      `Ann,bench@example.test,Client ${i % 10},Project ${i % 100},Task ${i % 3},Work on item ${i},${i % 2 ? 'Yes' : 'No'},${day},${hour}:00:00,${day},${hour}:45:00,00:45:00,"tag${i % 8}, tag${(i + 3) % 8}"\n`,
    );
  }
  await new Promise((r) => out.end(r));
}

async function waitReady(deadline) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('server did not become ready');
}

/** Asks /healthz every 20 ms until stopped; answers the latencies in ms. */
function probe() {
  const times = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      const ms = performance.now() - started;
      times.push(ms);
      await new Promise((r) => setTimeout(r, Math.max(0, 20 - ms)));
    }
  })();
  return async () => {
    running = false;
    await done;
    return times;
  };
}

const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const stats = (xs) => ({ n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99), max: Math.max(...xs) });
const fmt = (s) => `n=${s.n} p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;

if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, ['scripts/build-api.mjs'], { cwd: root, stdio: 'inherit' });
}
const file = path.join(tmpdir(), `sundial-bench-toggl-${rows}.csv`);
await writeToggl(file);
const bytes = statSync(file).size;
await recreateDatabase();
const server = spawn(
  process.execPath,
  [
    ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROF] : []),
    '--enable-source-maps',
    'apps/api/dist/main.mjs',
  ],
  {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', process.env.BENCH_LOG ? 'inherit' : 'ignore', 'inherit'],
  },
);
try {
  await waitReady(Date.now() + 60_000);
  const email = `bench-${Date.now()}@example.test`;
  const signup = await fetch(`${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Sunny-days-2026!' }),
  });
  if (signup.status !== 201) throw new Error(`sign-up: ${signup.status} ${await signup.text()}`);
  const cookie = signup.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const me = await (await fetch(`${base}/api/v1/me`, { headers: { cookie } })).json();
  const ws = `${base}/api/v1/workspaces/${me.currentWorkspaceId}`;

  let stop = probe();
  await new Promise((r) => setTimeout(r, 3000));
  const idle = stats(await stop());

  stop = probe();
  const started = performance.now();
  const uploaded = await fetch(`${ws}/imports?source=toggl`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'text/csv', 'content-length': String(bytes) },
    body: createReadStream(file),
    duplex: 'half',
  });
  const read = await uploaded.json();
  if (uploaded.status !== 201 || read.status !== 'ready') throw new Error(`upload: ${JSON.stringify(read)}`);
  const readMs = performance.now() - started;
  const run = await fetch(`${ws}/imports/${read.id}/run`, { method: 'POST', headers: { cookie } });
  if (run.status !== 202) throw new Error(`run: ${run.status} ${await run.text()}`);
  let view;
  let polls = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    view = await (await fetch(`${ws}/imports/${read.id}`, { headers: { cookie } })).json();
    polls += 1;
    if (!['queued', 'importing'].includes(view.status)) break;
  }
  const totalMs = performance.now() - started;
  const during = stats(await stop());
  if (view.status !== 'done') throw new Error(`import: ${JSON.stringify(view)}`);

  console.log(
    `file: ${rows.toLocaleString('en-US')} rows, ${(bytes / 1e6).toFixed(1)} MB (Toggl Track detailed export)`,
  );
  console.log(
    `upload + read: ${(readMs / 1000).toFixed(1)} s; import job: ${((totalMs - readMs) / 1000).toFixed(1)} s`,
  );
  console.log(
    `total: ${(totalMs / 1000).toFixed(1)} s, ${Math.round(rows / (totalMs / 1000)).toLocaleString('en-US')} rows/s; ` +
      `${view.rowsImported} rows imported, ${polls} progress polls, summary ${JSON.stringify(view.summary)}`,
  );
  console.log(`healthz idle:   ${fmt(idle)}`);
  console.log(`healthz import: ${fmt(during)}`);
  console.log(
    `healthz p99 during/idle: ${(during.p99 / idle.p99).toFixed(2)}x; goal p99 < 100 ms: ${during.p99 < 100 ? 'met' : 'NOT met'}`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(file, { force: true });
}
