// Exports (issue 15) through the API: the Detailed report of every entry as CSV (rows/s and the
// process's RSS growth while it streams), the same as XLSX, and a PDF of ~5,000 rows.
//
// PostgreSQL, on the large workspace that bench:seed-large made (the owner signs in):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_DB=sundial_bench_large npm run bench:exports
// PostgreSQL without the large workspace: -- --seed N makes a scratch database sundial_bench_exports
// (dropped first if it is there; BENCH_DB names another) with N entries of the same shape:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:exports -- --seed 100000
// PGlite (in memory, in this process, seeded here with the same shape, 100,000 entries unless -- --entries N):
//   npm run bench:exports -- --pglite
// `-- --skip xlsx,pdf` leaves formats out; `-- --encoding gzip` (or br) asks for a compressed
// answer, as a browser does (default identity: the file as written). RSS is sampled every 50 ms; the server (and PGlite)
// run in this process, so the growth is all of it.
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';
import { freePort } from './lib/ports.mjs';
import { seedPglite } from './lib/seed-pglite.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const onPglite = process.argv.includes('--pglite');
const skip = new Set((arg('skip', '') ?? '').split(','));
const OWNER = { email: 'owner@large.example.org', password: 'Sunny-days-2026!' };

const seedOnPostgres = Number(arg('seed', 0));
let databaseUrl;
if (!onPglite) {
  if (!process.env.DATABASE_URL) {
    console.error('Set DATABASE_URL (and BENCH_DB, the database bench:seed-large made), or pass --pglite.');
    process.exit(1);
  }
  const url = new URL(process.env.DATABASE_URL);
  const name = process.env.BENCH_DB ?? (seedOnPostgres ? 'sundial_bench_exports' : 'sundial_bench_large');
  if (seedOnPostgres) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    await admin.end();
  }
  url.pathname = `/${name}`;
  databaseUrl = url.href;
}

const handle = openDb(onPglite ? { dataDir: 'memory://' } : { databaseUrl });
const { db } = handle;
await migrateToLatest(db);
const port = Number(process.env.BENCH_PORT ?? (await freePort()));
const config = loadConfig({
  NODE_ENV: 'test',
  PUBLIC_URL: `http://localhost:${port}`,
  WEB_DIST: '/nonexistent',
  ...(process.env.EXPORT_PAGE_ROWS ? { EXPORT_PAGE_ROWS: process.env.EXPORT_PAGE_ROWS } : {}),
  // false: the Node writer from a cursor instead of the database's COPY (PostgreSQL), to compare the two.
  ...(process.env.EXPORT_DATABASE_CSV ? { EXPORT_DATABASE_CSV: process.env.EXPORT_DATABASE_CSV } : {}),
  // How many ranges of starts the database copies at once (1: one statement).
  ...(process.env.EXPORT_COPY_PARTS ? { EXPORT_COPY_PARTS: process.env.EXPORT_COPY_PARTS } : {}),
  // The stream itself is measured: past this a download is refused and runs as a job instead.
  EXPORT_JOB_MIN_ROWS: '100000000',
});
const app = await buildApp({ config, db, logger: false });
await app.listen({ port, host: '127.0.0.1' });
const base = `http://127.0.0.1:${port}/api/v1`;
const post = (path, body) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

if (onPglite || seedOnPostgres) {
  const entries = seedOnPostgres || Number(arg('entries', 100_000));
  const started = performance.now();
  const signup = await post('/auth/signup', { ...OWNER, timeZone: 'UTC' });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${await signup.text()}`);
  await seedPglite(db, { ownerEmail: OWNER.email, entries });
  console.log(
    `${onPglite ? 'PGlite' : 'PostgreSQL'} seeded with ${entries} entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
const login = await post('/auth/login', OWNER);
if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
const cookie = login.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ');
const ws = (await (await fetch(`${base}/me`, { headers: { cookie } })).json()).currentWorkspaceId;

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const mb = (bytes) => (bytes / 1048576).toFixed(0);

/**
 * CPU seconds so far of this database's server processes (PostgreSQL on this machine), by pid:
 * the export's backend keeps its pooled connection, so its count can be read after the run.
 */
async function databaseCpu() {
  if (onPglite) return new Map();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  await client.end();
  const ticks = new Map();
  for (const { pid } of rows) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) / 100); // utime + stime, at 100 Hz
    } catch {
      // Not on this machine, or gone.
    }
  }
  return ticks;
}
const cpuSince = (before, after) => [...after].reduce((sum, [pid, s]) => sum + s - (before.get(pid) ?? 0), 0);
/** The CPU seconds of the busiest one backend: a copy in parts spreads the database's work over several. */
const busiestSince = (before, after) => Math.max(0, ...[...after].map(([pid, s]) => s - (before.get(pid) ?? 0)));

/** Streams one export to nowhere, counting bytes and lines, sampling RSS and CPU. */
async function run(label, query) {
  globalThis.gc?.();
  const dbBefore = await databaseCpu();
  const nodeBefore = process.cpuUsage();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t0 = performance.now();
  // The server and this reader share one thread: compression (and its undoing here) would be counted twice.
  const encoding = arg('encoding', 'identity');
  const response = await fetch(`${base}/workspaces/${ws}/reports/export?${query}`, {
    headers: { cookie, 'accept-encoding': encoding },
  });
  if (response.status !== 200) throw new Error(`${label}: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const node = process.cpuUsage(nodeBefore);
  const dbAfter = await databaseCpu();
  const cpu = {
    node: (node.user + node.system) / 1e6,
    db: cpuSince(dbBefore, dbAfter),
    busiest: busiestSince(dbBefore, dbAfter),
  };
  return { seconds, bytes, lines, growth: peak - before, before, cpu };
}

const all = `preset=custom&from=${day(-3 * 365 - 2)}&to=${day(0)}&timeZone=UTC&kind=detailed&sort=start&order=asc`;
const csv = await run('csv', `${all}&format=csv`);
const rows = csv.lines - 2; // the header and the totals
console.log(
  `${onPglite ? 'PGlite' : 'PostgreSQL'} Detailed CSV: ${rows} rows, ${mb(csv.bytes)} MB in ${csv.seconds.toFixed(1)} s = ` +
    `${Math.round(rows / csv.seconds).toLocaleString('en-US')} rows/s; RSS ${mb(csv.before)} MB at start, ` +
    `+${mb(csv.growth)} MB at most while streaming`,
);
// On a busy machine the wall time measures the queue for the CPU; the CPU each side spent does
// not. Node (server and this reader) and the database work side by side, so an idle machine with
// a core for each takes about as long as the busier side: rows / max(Node CPU, database CPU). A
// copy in parts spreads the database's share over several backends: with a core for each, the
// busiest one process bounds it instead.
if (!onPglite)
  console.log(
    `  CPU: Node ${csv.cpu.node.toFixed(1)} s (server and reader), database ${csv.cpu.db.toFixed(1)} s ` +
      `(busiest backend ${csv.cpu.busiest.toFixed(1)} s); ` +
      `rows per second of the busier side: ${Math.round(rows / Math.max(csv.cpu.node, csv.cpu.db)).toLocaleString('en-US')}, ` +
      `of the busiest process: ${Math.round(rows / Math.max(csv.cpu.node, csv.cpu.busiest)).toLocaleString('en-US')}; ` +
      `load average ${os.loadavg()[0].toFixed(1)}`,
  );
if (!skip.has('xlsx')) {
  const xlsx = await run('xlsx', `${all}&format=xlsx`);
  console.log(
    `Detailed XLSX: ${rows} rows, ${mb(xlsx.bytes)} MB in ${xlsx.seconds.toFixed(1)} s; RSS +${mb(xlsx.growth)} MB at most`,
  );
}
if (!skip.has('pdf')) {
  // About 5,000 rows: the last days of the range, as many as hold that many entries.
  const perDay = rows / (3 * 365);
  const days = Math.max(1, Math.round(5000 / perDay));
  const q = `preset=custom&from=${day(-days)}&to=${day(-1)}&timeZone=UTC&kind=detailed&format=pdf`;
  const pdf = await run('pdf', q);
  console.log(
    `Detailed PDF of ~${Math.round(days * perDay)} rows (${days} days): ${mb(pdf.bytes)} MB in ${pdf.seconds.toFixed(1)} s`,
  );
}

await app.close();
await handle.close();
