// The embedded database on the main thread (PGlite as the app ran it before) against PGlite in a
// worker thread (apps/api/src/db/pglite-thread.ts), in one run: how late a 10 ms timer fires
// (what a health check would wait) while a long import-like INSERT ... SELECT and a report-like
// aggregate run, their duration, and the cost of the extra hop on many small queries.
// Usage: npm run bench:pglite [-- rows small] (defaults 1000000 and 3000 per round, 3 rounds)
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { PGliteThread } from '../apps/api/src/db/pglite-thread.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
const small = Number(process.argv[3] ?? 3000);
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
