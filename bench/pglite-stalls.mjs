// Issue 33: does the embedded database (PGlite, one connection) keep answering others while a large
// export or report runs? A PGlite data folder is seeded with 100,000 entries (the shape of
// bench:seed-large, smaller: bench/lib/seed-pglite.mjs), then, in one run, two servers on that
// database, one reading Detailed exports as before (EXPORT_PGLITE_READ=cursor: one statement held
// whole) and one as now (pages: keyset pages, short statements), each run in turn:
// the Detailed CSV and XLSX of every entry and a Summary of the last year by user, project and task,
// while a prober in another process asks GET /api/v1/me and GET /readyz every 50 ms, one call of
// each at a time (bench/lib/prober.mjs). Prints p50/p99/max of the prober's waits per workload
// and server, and the workload's own time, per round; the order of the two servers alternates.
//
// Usage: npm run bench:pglite-stalls [-- --entries 100000 --rounds 3 --data-dir DIR]
//   --data-dir keeps the seeded folder (reused when it is there already); by default a temporary one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDb } from '../apps/api/src/db/connection.ts';
import { migrateToLatest } from '../apps/api/src/db/migrate.ts';
import { freePort } from './lib/ports.mjs';
import { startProber } from './lib/probe.mjs';
import { seedPglite } from './lib/seed-pglite.mjs';
import { signInCookie } from './lib/sign-in.mjs';

await main();

async function main() {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const entries = Number(arg('entries', 100_000));
  const rounds = Number(arg('rounds', 3));
  const dataDir = arg('data-dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-pglite-stalls-'));
  const keep = process.argv.includes('--data-dir');
  const OWNER = { email: 'owner@large.example.org', password: 'Sunny-days-2026!' };

  const handle = openDb({ dataDir });
  const { db } = handle;
  await migrateToLatest(db);
  const servers = {};
  for (const read of ['cursor', 'pages']) {
    const port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: `http://localhost:${port}`,
      WEB_DIST: '/nonexistent',
      EXPORT_PGLITE_READ: read,
      // The download itself is timed (an export job reads the same way, then writes its file's pieces).
      EXPORT_JOB_MIN_ROWS: '100000000',
      EXPORTS_PER_USER: '100',
      // No background jobs: the rollups' first fold after the seed holds the connection for minutes
      // (its own stall, reported apart), which would swamp what is measured here.
      JOBS_ENABLED: 'false',
    });
    const app = await buildApp({ config, db, logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    servers[read] = { app, base: `http://127.0.0.1:${port}` };
  }
  const base = servers.pages.base;
  const post = (p, body) =>
    fetch(`${base}/api/v1${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const seeded = (
    await db
      .selectFrom('time_entries')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirst()
  ).n;
  if (Number(seeded) === 0) {
    const started = performance.now();
    const signup = await post('/auth/signup', { ...OWNER, timeZone: 'UTC' });
    if (signup.status !== 201) throw new Error(`sign-up failed: ${await signup.text()}`);
    await seedPglite(db, { ownerEmail: OWNER.email, entries });
    console.log(
      `PGlite (${dataDir}) seeded with ${entries} entries in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } else console.log(`PGlite (${dataDir}) holds ${seeded} entries already`);
  const cookie = await signInCookie(`${base}/api/v1`, OWNER);
  const ws = (await (await fetch(`${base}/api/v1/me`, { headers: { cookie } })).json()).currentWorkspaceId;

  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const all = `preset=custom&from=${day(-3 * 365 - 2)}&to=${day(0)}&timeZone=UTC&kind=detailed&sort=start&order=asc`;
  const workloads = {
    csv: `/api/v1/workspaces/${ws}/reports/export?${all}&format=csv`,
    xlsx: `/api/v1/workspaces/${ws}/reports/export?${all}&format=xlsx`,
    summary: `/api/v1/workspaces/${ws}/reports/summary?preset=custom&from=${day(-365)}&to=${day(-1)}&timeZone=UTC&groupBy=user,project,task`,
  };

  const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
  };
  const stats = (values) => ({ p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(0, ...values) });

  /** One workload on one server while the prober runs: the workload's time and the prober's waits. */
  async function probed(server, url) {
    const prober = await startProber(server.base, cookie);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const response = await fetch(`${server.base}${url}`, { headers: { cookie } });
    const bytes = (await response.arrayBuffer()).byteLength;
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    const ms = performance.now() - started;
    const waits = await prober.stop();
    return {
      ms,
      bytes,
      me: stats(waits.me),
      readyz: stats(waits.readyz),
      notReady: waits.notReady,
      failed: waits.failed,
    };
  }

  const fmt = (s) => `${s.p50.toFixed(0)}/${s.p99.toFixed(0)}/${s.max.toFixed(0)}`;
  const results = [];
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? ['cursor', 'pages'] : ['pages', 'cursor'];
    for (const [name, url] of Object.entries(workloads))
      for (const read of order) {
        const r = await probed(servers[read], url);
        results.push({ round, name, read, ...r });
        console.log(
          `round ${round} ${name.padEnd(7)} ${read.padEnd(6)}: ${(r.ms / 1000).toFixed(1)} s, ${(r.bytes / 1048576).toFixed(1)} MB; ` +
            `/me p50/p99/max ${fmt(r.me)} ms; /readyz ${fmt(r.readyz)} ms, ${r.notReady} not ready${r.failed ? `, ${r.failed} failed` : ''}; load ${os.loadavg()[0].toFixed(1)}`,
        );
      }
  }
  // Paired per round: before (cursor) over after (pages), for the workload's time and /me's p99 and max.
  console.log('\nbefore/after, paired per round (min/median/max over rounds):');
  const median = (v) => percentile(v, 50);
  for (const name of Object.keys(workloads)) {
    const pairs = Array.from({ length: rounds }, (_, i) => {
      const of = (read) => results.find((r) => r.round === i + 1 && r.name === name && r.read === read);
      return { before: of('cursor'), after: of('pages') };
    });
    const ratio = (pick) => {
      const v = pairs.map(({ before, after }) => pick(before) / Math.max(1, pick(after)));
      return `${Math.min(...v).toFixed(2)}/${median(v).toFixed(2)}/${Math.max(...v).toFixed(2)}`;
    };
    console.log(
      `${name.padEnd(7)} time ${ratio((r) => r.ms)}x, /me p99 ${ratio((r) => r.me.p99)}x, /me max ${ratio((r) => r.me.max)}x`,
    );
  }
  for (const { app } of Object.values(servers)) await app.close();
  await handle.close();
  if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
}
