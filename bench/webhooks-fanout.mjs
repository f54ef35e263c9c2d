// A webhook fan-out at load (issue 34): 10,000 events of one workspace are delivered, signed, to a
// local receiver while clients read the API, and the API's p99 is compared with the same reads
// without a fan-out, before and after it (paired in one run, so machine noise hits both alike).
// The events are written as audit records in one statement (what 10,000 writes leave behind) and
// the fan-out is started the way a write starts it, by one more change through the API.
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:webhooks [-- events seconds concurrency]
// (defaults 10000 events, 15 s baseline reads, 8 requests in flight). The goal: every event delivered
// within 60 s, the reads' p99 during the fan-out within 1.2x of the baseline's.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './lib/ports.mjs';
import { request as send } from './lib/request.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [events = 10_000, seconds = 15, concurrency = 8] = process.argv.slice(2).map(Number);
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error(
    'Set DATABASE_URL to a PostgreSQL server; the bench makes its own database sundial_bench_webhooks there.',
  );
  process.exit(1);
}
const dbUrl = new URL(adminUrl);
dbUrl.pathname = '/sundial_bench_webhooks';
const ports = { sundial: await freePort(), receiver: await freePort() };
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency + 2 });

const request = (method, url, options) => send(agent, ports.sundial, method, url, options);

// ---- the receiver: answers the validation challenge, counts each event once, notes when it came

const delivered = new Map();
let signed = 0;
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString());
    if (req.headers['sundial-signature']) signed++;
    if (body.type === 'webhook.validate') return res.end(body.challenge);
    if (!delivered.has(body.id)) delivered.set(body.id, performance.now());
    res.statusCode = 204;
    res.end();
  });
});
await new Promise((resolve) => receiver.listen(ports.receiver, '127.0.0.1', resolve));

// ---- a fresh database and the compiled API on it, its job runner on

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query('drop database if exists sundial_bench_webhooks with (force)');
await admin.query('create database sundial_bench_webhooks');
await admin.end();
execFileSync(process.execPath, ['scripts/build-api.mjs'], { cwd: root, stdio: 'inherit' });
const child = spawn(process.execPath, ['apps/api/dist/main.mjs'], {
  cwd: root,
  env: {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(ports.sundial),
    LOG_LEVEL: 'warn',
    LOG_JSON_ONLY: 'true',
    JOBS_ENABLED: 'true',
    OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SIGNUP_PER_IP: '100000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = async () => {
  agent.destroy();
  receiver.close();
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
};
try {
  for (const deadline = Date.now() + 60_000; ; ) {
    try {
      if ((await request('GET', '/readyz')).status === 200) break;
    } catch {}
    if (Date.now() > deadline) throw new Error('Sundial did not become ready');
    await new Promise((r) => setTimeout(r, 100));
  }

  // ---- a workspace with a week of entries to read, and a webhook for every event

  const signup = await request('POST', '/api/v1/auth/signup', {
    body: { email: `bench.${Date.now()}@example.com`, password: 'Tidal-wave-42-bench' },
  });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.text}`);
  const cookie = String(signup.headers['set-cookie']).split(';')[0];
  const me = JSON.parse((await request('GET', '/api/v1/me', { cookie })).text);
  const workspaceId = me.currentWorkspaceId;
  const base = `/api/v1/workspaces/${workspaceId}`;
  const db = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
  await db.query(
    `insert into time_entries (id, workspace_id, user_id, note, billable, start_at, end_at, duration_seconds, created_by_user_id)
     select gen_random_uuid(), $1::uuid, $2::uuid, 'Seeded', false, t, t + interval '1 hour', 3600, $2::uuid
     from generate_series(now() - interval '6 days', now() - interval '2 hours', interval '3 hours 35 minutes') t`,
    [workspaceId, me.user.id],
  );
  const hook = await request('POST', `${base}/webhooks`, {
    cookie,
    body: { url: `http://127.0.0.1:${ports.receiver}/hook`, events: ['*'] },
  });
  if (hook.status !== 201) throw new Error(`webhook failed: ${hook.text}`);
  if (JSON.parse(hook.text).status !== 'active') throw new Error(`webhook not validated: ${hook.text}`);

  const week = `from=${new Date(Date.now() - 7 * 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`;
  /** Reads the week's entries from `concurrency` clients until `until()` says stop; answers each read's latency. */
  async function reads(until) {
    const latencies = [];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (!until()) {
          const started = performance.now();
          const response = await request('GET', `${base}/time-entries?${week}`, { cookie });
          if (response.status !== 200) throw new Error(`read failed: ${response.status} ${response.text}`);
          latencies.push(performance.now() - started);
        }
      }),
    );
    return latencies;
  }
  const forSeconds = (s) => {
    const end = performance.now() + s * 1000;
    return () => performance.now() >= end;
  };
  const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

  await reads(forSeconds(2)); // warm-up
  const before = await reads(forSeconds(seconds));

  // ---- the fan-out: the events as audit records, then one change through the API starts it
  await db.query(
    `insert into audit_log (id, workspace_id, actor_user_id, action, subject_id, detail, created_at)
     select gen_random_uuid(), $1::uuid, $2::uuid, 'time_entry.created', gen_random_uuid(),
       jsonb_build_object('userId', $2::text, 'count', 1), clock_timestamp()
     from generate_series(1, $3::int)`,
    [workspaceId, me.user.id, events],
  );
  await db.end();
  const expected = events + 1;
  const started = performance.now();
  const trigger = await request('POST', `${base}/clients`, { cookie, body: { name: 'Starts the fan-out' } });
  if (trigger.status !== 201) throw new Error(`trigger failed: ${trigger.text}`);
  const during = await reads(() => delivered.size >= expected || performance.now() - started > 180_000);
  const deliveredSeconds = (Math.max(...delivered.values()) - started) / 1000;
  const after = await reads(forSeconds(seconds));

  const baseline = [...before, ...after];
  const p99 = { before: quantile(before, 0.99), during: quantile(during, 0.99), after: quantile(after, 0.99) };
  console.table({
    'before (no fan-out)': {
      reads: before.length,
      'p50 ms': quantile(before, 0.5).toFixed(1),
      'p99 ms': p99.before.toFixed(1),
    },
    'during the fan-out': {
      reads: during.length,
      'p50 ms': quantile(during, 0.5).toFixed(1),
      'p99 ms': p99.during.toFixed(1),
    },
    'after (no fan-out)': {
      reads: after.length,
      'p50 ms': quantile(after, 0.5).toFixed(1),
      'p99 ms': p99.after.toFixed(1),
    },
  });
  const ratio = p99.during / quantile(baseline, 0.99);
  console.log(
    `${delivered.size} of ${expected} events delivered (${signed} signed requests) in ${deliveredSeconds.toFixed(1)} s ` +
      `(${Math.round(delivered.size / deliveredSeconds)}/s); read p99 during / without the fan-out: ${ratio.toFixed(2)} ` +
      `(${concurrency} reads in flight; goals: within 60 s, at most 1.20)`,
  );
  if (delivered.size < expected) process.exitCode = 1;
} finally {
  await stop();
}
