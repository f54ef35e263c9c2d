// Throughput of the API against a bare node:http + pg server doing the same work (bench/api-bare.mjs),
// on PostgreSQL, for: the week's entries, creating an entry, and a timer start + stop. Both servers
// run as their own processes on one database (`sundial_bench_api`, made afresh beside DATABASE_URL's)
// and are loaded alternately in one run, so machine noise hits both alike.
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:api [-- rounds seconds concurrency]
// (defaults 5 rounds of 5 s at 32 requests in flight: enough to keep the machine's 2 cores busy, so the
// figures are throughput at load). The ratios are paired per round (min / median / max); BENCH_ROUNDS=1
// prints every round's; BENCH_LOG_STATEMENTS=1 logs the statements. SUNDIAL_ARGS adds node flags to the Sundial
// process (e.g. SUNDIAL_ARGS=--cpu-prof to profile it), BARE_ARGS to the bare one; BENCH_ONLY=list,create
// runs only those operations. BENCH_KEYS=1 also loads Sundial with each person's API key instead of their
// session (issue 34), paired in the same rounds: the "key/session" columns.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from './lib/ports.mjs';
import { request as send } from './lib/request.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [rounds = 5, seconds = 5, concurrency = 32] = process.argv.slice(2).map(Number);
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('Set DATABASE_URL to a PostgreSQL server; the bench makes its own database sundial_bench_api there.');
  process.exit(1);
}
const dbUrl = new URL(adminUrl);
dbUrl.pathname = '/sundial_bench_api';
// Free ports, so two runs at once never load each other's servers.
const ports = { sundial: await freePort(), bare: await freePort() };
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

const request = (port, method, url, options) => send(agent, port, method, url, options);

async function waitReady(port, deadline) {
  while (Date.now() < deadline) {
    try {
      if ((await request(port, 'GET', '/readyz')).status === 200) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server on ${port} did not become ready`);
}

function start(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, DATABASE_URL: dbUrl.toString() },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  pids[name] = child.pid;
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`${name} exited (${code ?? signal})`);
  });
  return child;
}
let stopping = false;
const pids = {};
/** CPU seconds (user + system) a process has used so far. */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
/** CPU seconds of each PostgreSQL backend serving the bench database (its servers' connections). */
const databaseCpu = () => {
  const byPid = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(' sundial_bench_api ')) byPid.set(pid, cpuSeconds(pid));
    } catch {}
  }
  return byPid;
};
const databaseCpuSince = (before) => {
  let seconds = 0;
  for (const [pid, now] of databaseCpu()) seconds += now - (before.get(pid) ?? 0);
  return seconds;
};
const children = [];
const stopAll = async () => {
  stopping = true;
  agent.destroy();
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r()))));
};
process.on('uncaughtException', async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
process.on('unhandledRejection', async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});

// ---- a fresh database, the compiled API on it, the bare server beside it

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query('drop database if exists sundial_bench_api with (force)');
await admin.query('create database sundial_bench_api');
// BENCH_LOG_STATEMENTS=1 logs every statement the two servers send (PostgreSQL's log), to compare them.
if (process.env.BENCH_LOG_STATEMENTS) await admin.query(`alter database sundial_bench_api set log_statement = 'all'`);
await admin.end();
execFileSync(process.execPath, ['scripts/build-api.mjs'], { cwd: root, stdio: 'inherit' });
start('sundial', [...(process.env.SUNDIAL_ARGS?.split(' ').filter(Boolean) ?? []), 'apps/api/dist/main.mjs'], {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: String(ports.sundial),
  LOG_LEVEL: 'warn',
  JOBS_ENABLED: 'false',
  LOG_JSON_ONLY: 'true',
  RATE_LIMIT_SIGNUP_PER_IP: '100000',
  // The keys' limits are counted as in production, never reached.
  API_KEY_REQUESTS_PER_MINUTE: '1000000',
  API_WORKSPACE_KEY_REQUESTS_PER_MINUTE: '1000000',
});
await waitReady(ports.sundial, Date.now() + 60_000);
start('bare', [...(process.env.BARE_ARGS?.split(' ').filter(Boolean) ?? []), 'bench/api-bare.mjs'], {
  PORT: String(ports.bare),
});

// ---- one person per request in flight (a timer is one person's), each owning a workspace with a
// project and a week of entries

const db = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
const week = { from: new Date(Date.now() - 7 * 86_400_000), to: new Date(Date.now() + 86_400_000) };
const people = [];
for (let i = 0; i < concurrency; i++) {
  const email = `bench.${i}.${Date.now()}@example.com`;
  const signup = await request(ports.sundial, 'POST', '/api/v1/auth/signup', {
    body: { email, password: 'Tidal-wave-42-bench' },
  });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.text}`);
  const cookie = String(signup.headers['set-cookie']).split(';')[0];
  const me = JSON.parse((await request(ports.sundial, 'GET', '/api/v1/me', { cookie })).text);
  const workspaceId = me.currentWorkspaceId;
  const projectId = crypto.randomUUID();
  await db.query(
    `insert into projects (id, workspace_id, name, keywords, is_public) values ($1, $2, 'Harbour', '[]', true)`,
    [projectId, workspaceId],
  );
  // 40 entries this week (what the week list returns) and 400 in the weeks before.
  await db.query(
    `insert into time_entries (id, workspace_id, user_id, project_id, note, billable, start_at, end_at, duration_seconds,
       created_by_user_id)
     select gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'Seeded', false, t, t + interval '1 hour', 3600, $2::uuid
     from generate_series(now() - interval '6 days', now() - interval '2 hours', interval '3 hours 35 minutes') t
     union all
     select gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, 'Older', false, t, t + interval '1 hour', 3600, $2::uuid
     from generate_series(now() - interval '120 days', now() - interval '8 days', interval '6 hours 40 minutes') t`,
    [workspaceId, me.user.id, projectId],
  );
  const key = await request(ports.sundial, 'POST', '/api/v1/me/api-keys', {
    cookie,
    body: { name: 'Bench', scopes: { time: 'write' } },
  });
  if (key.status !== 201) throw new Error(`API key failed: ${key.text}`);
  const token = JSON.parse(key.text).token;
  people.push({ cookie, token, workspaceId, projectId, base: `/api/v1/workspaces/${workspaceId}` });
}
await db.end();
await waitReady(ports.bare, Date.now() + 10_000).catch(() => undefined);

// ---- the operations; each returns the statuses it expects

let created = 0;
const operations = {
  list: async (port, p) => {
    const q = `from=${week.from.toISOString()}&to=${week.to.toISOString()}`;
    const r = await request(port, 'GET', `${p.base}/time-entries?${q}`, p.auth);
    return [r, 200];
  },
  create: async (port, p) => {
    // Entries go far into the past, so the week list stays the same.
    const start = new Date(Date.now() - (200 + (++created % 5000)) * 86_400_000).toISOString();
    const body = { start, duration: 1800, projectId: p.projectId, note: 'Bench entry' };
    const r = await request(port, 'POST', `${p.base}/time-entries`, { ...p.auth, body });
    return [r, 201];
  },
  'start+stop': async (port, p) => {
    const started = await request(port, 'POST', `${p.base}/timer/start`, { ...p.auth, body: { note: 'Bench' } });
    if (started.status !== 201) return [started, 201];
    const stopped = await request(port, 'POST', `${p.base}/timer/stop`, { ...p.auth, body: {} });
    return [stopped, 200];
  },
};

/** Who sends the requests: each person by session cookie, or (`key`) by their API key. */
const asSession = (p) => ({ ...p, auth: { cookie: p.cookie } });
const asKey = (p) => ({ ...p, auth: { bearer: p.token } });

async function load(server, operation) {
  const byKey = server === 'key';
  const port = ports[byKey ? 'sundial' : server];
  const pid = pids[byKey ? 'sundial' : server];
  const until = performance.now() + seconds * 1000;
  const cpuBefore = cpuSeconds(pid);
  const databaseBefore = databaseCpu();
  const clientBefore = process.cpuUsage();
  let done = 0;
  await Promise.all(
    people.map(async (someone) => {
      const person = byKey ? asKey(someone) : asSession(someone);
      while (performance.now() < until) {
        const [response, expected] = await operation(port, person);
        if (response.status !== expected) {
          throw new Error(`${port}: expected ${expected}, got ${response.status}: ${response.text.slice(0, 300)}`);
        }
        done++;
      }
    }),
  );
  const client = process.cpuUsage(clientBefore);
  return {
    rate: done / seconds,
    cpuMs: ((cpuSeconds(pid) - cpuBefore) * 1000) / done,
    databaseMs: (databaseCpuSince(databaseBefore) * 1000) / done,
    clientMs: (client.user + client.system) / 1000 / done,
  };
}

const results = {};
try {
  // A short warm-up of both, so the JIT has compiled the paths before anything is counted.
  for (const operation of Object.values(operations)) {
    for (const port of Object.values(ports)) for (const p of people) await operation(port, asSession(p));
  }
  // Both answer the same bytes for the same week: a bare server that answered less would be cheaper.
  const [ours, theirs] = await Promise.all(
    Object.values(ports).map((port) => operations.list(port, asSession(people[0]))),
  );
  if (ours[0].text !== theirs[0].text) {
    let at = 0;
    while (ours[0].text[at] === theirs[0].text[at]) at++;
    console.error(`The two week lists differ from character ${at}:`);
    console.error(`  sundial: ${ours[0].text.slice(Math.max(0, at - 80), at + 120)}`);
    console.error(`  bare:    ${theirs[0].text.slice(Math.max(0, at - 80), at + 120)}`);
    // The figures still print, but the run fails: the comparison is not like for like.
    process.exitCode = 1;
  }
  const only = process.env.BENCH_ONLY?.split(',');
  for (const [name, operation] of Object.entries(operations)) {
    if (only && !only.includes(name)) continue;
    results[name] = { sundial: [], bare: [], key: [] };
    const servers = process.env.BENCH_KEYS ? ['sundial', 'key', 'bare'] : ['sundial', 'bare'];
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) results[name][server].push(await load(server, operation));
    }
  }
} finally {
  await stopAll();
}

// Each round loads both servers back to back, so a round's ratio compares them under the same machine
// load; the ratios are paired per round (min / median / max over the rounds), never a ratio of medians
// taken over different rounds.
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const spread = (xs) => {
  const s = sorted(xs);
  return `${s[0].toFixed(2)} / ${median(s).toFixed(2)} / ${s.at(-1).toFixed(2)}`;
};
const table = Object.fromEntries(
  Object.entries(results).map(([name, r]) => {
    const rateRatios = r.sundial.map((s, i) => s.rate / r.bare[i].rate);
    const cpuRatios = r.sundial.map((s, i) => r.bare[i].cpuMs / s.cpuMs);
    return [
      name,
      {
        'req/s S/bare min/med/max': spread(rateRatios),
        'CPU bare/S min/med/max': spread(cpuRatios),
        'S req/s': Math.round(median(r.sundial.map((x) => x.rate))),
        'bare req/s': Math.round(median(r.bare.map((x) => x.rate))),
        'S CPU ms/req': median(r.sundial.map((x) => x.cpuMs)).toFixed(2),
        'bare CPU ms/req': median(r.bare.map((x) => x.cpuMs)).toFixed(2),
        'db CPU ms/req S / bare': `${median(r.sundial.map((x) => x.databaseMs)).toFixed(2)} / ${median(r.bare.map((x) => x.databaseMs)).toFixed(2)}`,
        'load CPU ms/req S / bare': `${median(r.sundial.map((x) => x.clientMs)).toFixed(2)} / ${median(r.bare.map((x) => x.clientMs)).toFixed(2)}`,
        ...(r.key.length
          ? {
              'req/s key/session min/med/max': spread(r.key.map((k, i) => k.rate / r.sundial[i].rate)),
              'CPU session/key min/med/max': spread(r.key.map((k, i) => r.sundial[i].cpuMs / k.cpuMs)),
            }
          : {}),
      },
    ];
  }),
);
console.table(table);
if (process.env.BENCH_ROUNDS) {
  for (const [name, r] of Object.entries(results)) {
    const rows = r.sundial.map(
      (s, i) => `${(s.rate / r.bare[i].rate).toFixed(2)} (${Math.round(s.rate)}/${Math.round(r.bare[i].rate)})`,
    );
    console.log(`${name} per round: ${rows.join(', ')}`);
  }
}
console.log(
  `ratios paired per round over ${rounds} rounds of ${seconds} s at ${concurrency} in flight (both servers loaded in ` +
    `each round, alternating which goes first); req/s and CPU columns are medians; start+stop counts a pair as one operation`,
);
