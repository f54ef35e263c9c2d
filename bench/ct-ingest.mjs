// Computer time's ingest (issue 35): agents upload batches of 1,000 spans through the real route
// (POST /api/v1/agent/spans, a device token) to the compiled API on PostgreSQL, several computers at
// once, and the same rows are then COPYed into a scratch table shaped as activity_spans (its
// indexes, checks and foreign keys, read from the catalog) by as many connections, 1,000 rows a
// statement: the floor.
// Both run in the same sitting, so the ratio is what to read on a noisy machine.
//
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:ct-ingest [-- --devices 8 --batches 20]
//   (`npm run build` first, or -- --build). It makes its own database sundial_bench_ct_ingest.
// Each computer belongs to its own person in their own workspace (signed up and paired through the
// API); a first batch per computer warms up and is not counted. The goal: >= 20,000 spans/s.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  cpuSeconds,
  freshDatabase,
  makeSpans,
  pairDevice,
  postgresCpuSeconds,
  quantile,
  root,
  signUp,
  startCompiled,
  upload,
} from './lib/ct.mjs';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '8' },
    batches: { type: 'string', default: '20' },
    build: { type: 'boolean', default: false },
  },
});
const DEVICES = Number(args.devices);
const BATCHES = Number(args.batches);
const BATCH = 1000;
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('Set DATABASE_URL to a PostgreSQL server; the bench makes its own database sundial_bench_ct_ingest.');
  process.exit(1);
}
if (args.build) execFileSync(process.execPath, ['scripts/build-api.mjs'], { cwd: root, stdio: 'inherit' });
const dbUrl = await freshDatabase(adminUrl, 'sundial_bench_ct_ingest');
const server = await startCompiled(dbUrl);
const db = new pg.Pool({ connectionString: dbUrl, max: DEVICES + 1 });
try {
  // ---- people, computers, and each computer's spans (the last batch ends an hour ago)
  const computers = [];
  for (let i = 0; i < DEVICES; i++) {
    const person = await signUp(server.origin, `ct.ingest.${i}.${Date.now()}@example.com`);
    const { token, deviceId } = await pairDevice(server.origin, person, `bench-${i}`);
    const warm = makeSpans(1000 + i, 0, BATCH);
    const spanMs = warm.endMs;
    const startMs = Date.now() - 3_600_000 - spanMs * (BATCHES + 1) * 1.2;
    const { spans } = makeSpans(1000 + i, startMs, BATCH * (BATCHES + 1));
    const batches = [];
    for (let b = 0; b <= BATCHES; b++) batches.push(spans.slice(b * BATCH, (b + 1) * BATCH));
    computers.push({ person, token, deviceId, batches, bodies: batches.map((s) => JSON.stringify({ spans: s })) });
  }

  // ---- warm-up: each computer's first batch
  await Promise.all(computers.map((c) => upload(server.origin, c.token, c.bodies[0])));

  // ---- the timed run: every computer sends its batches one after another, all computers at once
  await db.query('checkpoint');
  const latencies = [];
  let accepted = 0;
  const cpu0 = { api: cpuSeconds(server.pid), db: postgresCpuSeconds() };
  const started = performance.now();
  await Promise.all(
    computers.map(async (c) => {
      for (let b = 1; b <= BATCHES; b++) {
        const result = await upload(server.origin, c.token, c.bodies[b]);
        accepted += result.accepted;
        latencies.push(result.ms);
      }
    }),
  );
  const ingestSeconds = (performance.now() - started) / 1000;
  const cpu = { api: cpuSeconds(server.pid) - cpu0.api, db: postgresCpuSeconds() - cpu0.db };
  const timed = DEVICES * BATCHES * BATCH;
  if (accepted !== timed) throw new Error(`${accepted} of ${timed} spans accepted`);

  // ---- checks: a batch sent again is all duplicates; the rollups hold every active second
  const again = await upload(server.origin, computers[0].token, computers[0].bodies[1]);
  if (again.accepted !== 0 || again.duplicates !== BATCH) throw new Error(`resent: ${JSON.stringify(again)}`);
  const { rows: sums } = await db.query(`
    select (select count(*)::int from activity_spans) as spans,
      (select sum(extract(epoch from ended_at - started_at))::bigint from activity_spans where kind = 'active') as active,
      (select sum(seconds)::bigint from activity_daily) as rolled`);
  const [sum] = sums;
  if (sum.spans !== timed + DEVICES * BATCH || sum.active !== sum.rolled) {
    throw new Error(`stored ${JSON.stringify(sum)}`);
  }

  // ---- the floor: the same rows COPYed into a table shaped as activity_spans, as many at once
  await db.query('create table bench_copy (like activity_spans including all)');
  const { rows: references } = await db.query(
    `select pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = 'activity_spans'::regclass and contype = 'f'`,
  );
  for (const { definition } of references) await db.query(`alter table bench_copy add ${definition}`);
  const text = (v) => (v === null ? '\\N' : v);
  const lines = computers.map((c) =>
    c.batches
      .slice(1)
      .map(
        (spans) =>
          `${spans
            .map((s) =>
              [
                s.id,
                c.person.workspaceId,
                c.person.userId,
                c.deviceId,
                s.kind,
                s.startedAt,
                s.endedAt,
                s.app,
                s.title,
                s.url,
                s.awayReason,
              ]
                .map(text)
                .join('\t'),
            )
            .join('\n')}\n`,
      ),
  );
  await db.query('checkpoint');
  const copyCpu0 = postgresCpuSeconds();
  const copyStarted = performance.now();
  await Promise.all(
    lines.map(async (chunks) => {
      const client = await db.connect();
      try {
        for (const chunk of chunks) {
          const stream = client.query(
            copyFrom(
              'copy bench_copy (id, workspace_id, user_id, device_id, kind, started_at, ended_at, app, title, url, away_reason) from stdin',
            ),
          );
          await new Promise((resolve, reject) => {
            stream.on('finish', resolve);
            stream.on('error', reject);
            stream.end(chunk);
          });
        }
      } finally {
        client.release();
      }
    }),
  );
  const copySeconds = (performance.now() - copyStarted) / 1000;
  const copyCpu = postgresCpuSeconds() - copyCpu0;

  const rate = timed / ingestSeconds;
  const floor = timed / copySeconds;
  console.table({
    'ingest (POST /agent/spans)': {
      spans: timed,
      seconds: ingestSeconds.toFixed(2),
      'spans/s': Math.round(rate),
      'batch p50 ms': quantile(latencies, 0.5).toFixed(0),
      'batch p99 ms': quantile(latencies, 0.99).toFixed(0),
      'API CPU ms/batch': ((cpu.api * 1000) / (DEVICES * BATCHES)).toFixed(1),
      'database CPU ms/batch': ((cpu.db * 1000) / (DEVICES * BATCHES)).toFixed(1),
    },
    'COPY (same rows, same table shape)': {
      spans: timed,
      seconds: copySeconds.toFixed(2),
      'spans/s': Math.round(floor),
      'database CPU ms/batch': ((copyCpu * 1000) / (DEVICES * BATCHES)).toFixed(1),
    },
  });
  console.log(
    `ingest ${Math.round(rate)} spans/s = ${(rate / floor).toFixed(2)}x the COPY's ${Math.round(floor)} ` +
      `(${DEVICES} computers x ${BATCHES} batches of ${BATCH}; goal >= 20,000 spans/s); rollups exact (${sum.rolled} s)`,
  );
  if (rate < 20_000) process.exitCode = 1;
} finally {
  await db.end();
  await server.stop();
}
