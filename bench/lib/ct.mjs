// Computer time's benches (issue 35): the compiled API on a bench database, people signed up and
// their computers paired through the real routes, and an agent's spans made up deterministically.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './ports.mjs';

export const root = path.resolve(import.meta.dirname, '../..');
export const PASSWORD = 'Tidal-wave-42-bench';

/**
 * A fresh PostgreSQL database `name` beside `adminUrl` (dropped first if there): its URL. Without
 * `adminUrl`, undefined (the server then runs on a throw-away embedded database).
 */
export async function freshDatabase(adminUrl, name) {
  if (!adminUrl) return undefined;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The compiled API (`npm run build` first; `apps/api/dist/main.mjs`) in production mode on
 * `databaseUrl` (else a throw-away embedded database), serving the built web app, once /readyz
 * answers. `stop()` ends it and removes the embedded database.
 */
export async function startCompiled(databaseUrl, env = {}) {
  const port = Number(process.env.BENCH_PORT ?? (await freePort()));
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-ct-bench-'));
  // BENCH_SERVER_ARGS: node options for the server alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const extra = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  // BENCH_API: another build of the API to measure (e.g. main's, built in a copy of it), same database.
  const main = process.env.BENCH_API ?? 'apps/api/dist/main.mjs';
  const child = spawn(process.execPath, [...extra, '--enable-source-maps', main], {
    cwd: root,
    env: {
      ...process.env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir }),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      LOG_LEVEL: 'warn',
      LOG_JSON_ONLY: 'true',
      RATE_LIMIT_SIGNUP_PER_IP: '100000',
      RATE_LIMIT_AGENT_PAIRING_PER_IP: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const deadline = Date.now() + 90_000; ; ) {
      try {
        if ((await fetch(`${origin}/readyz`)).ok) break;
      } catch {}
      if (child.exitCode !== null || Date.now() > deadline) throw new Error('the API did not start (npm run build?)');
      await new Promise((r) => setTimeout(r, 100));
    }
    return { origin, port, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function json(response, what) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Signs a new person up: their session cookie, workspace and id. */
export async function signUp(origin, email) {
  const response = await fetch(`${origin}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  await json(response, 'sign-up');
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const me = await json(await fetch(`${origin}/api/v1/me`, { headers: { cookie } }), 'me');
  return { cookie, workspaceId: me.currentWorkspaceId, userId: me.user.id, email };
}

/** Pairs a computer of the signed-in person in their workspace, as the agent and the pairing page do: its token and device id. */
export async function pairDevice(origin, person, name) {
  const post = (url, body, cookie) =>
    fetch(`${origin}/api/v1${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const codes = await json(
    await post('/agent/device-codes', { name, platform: 'linux', agentVersion: '0.1.0' }),
    'device codes',
  );
  await json(
    await post(
      '/agent/device-codes/approve',
      { userCode: codes.userCode, workspaceId: person.workspaceId },
      person.cookie,
    ),
    'approve',
  );
  return json(await post('/agent/device-token', { deviceCode: codes.deviceCode }), 'token');
}

const APPS = [
  ['code', 'computer-time.activity.ts — sundial — Visual Studio Code'],
  ['firefox', 'Pull request #412 · sundial/sundial — Mozilla Firefox'],
  ['slack', 'Slack | #dev | Sundial'],
  ['gnome-terminal', 'npm run build — ~/sundial'],
  ['thunderbird', 'Inbox — Thunderbird'],
  ['chromium', 'Timeline — Sundial — Chromium'],
  ['libreoffice-calc', 'Budget 2027.ods — LibreOffice Calc'],
  ['zoom', 'Zoom Meeting'],
  ['evince', 'Invoice 2026-114.pdf'],
  ['nautilus', 'Downloads'],
  ['gimp', 'logo.xcf — GIMP'],
  ['spotify', 'Spotify Premium'],
  ['keepassxc', 'Passwords.kdbx — KeePassXC'],
  ['obsidian', 'Daily notes — Obsidian'],
  ['postman', 'Postman'],
];

/** A small deterministic generator (mulberry32), so every run sends the same spans. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uuid = (next) => {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '8';
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
};

/**
 * `count` spans one after another from `startMs` (whole seconds, as the agent's clock gives them):
 * active spans of 1 s to `maxSeconds` in one of 15 applications with a window title, and a share
 * `awayShare` of away spans of 2 to 10 minutes. Answers the spans (the agent's shape) and where the last ended.
 */
export function makeSpans(seed, startMs, count, { maxSeconds = 60, awayShare = 0.025 } = {}) {
  const next = random(seed);
  const spans = [];
  let at = Math.ceil(startMs / 1000) * 1000;
  for (let i = 0; i < count; i++) {
    const away = next() < awayShare;
    const seconds = away ? 120 + Math.floor(next() * 480) : 1 + Math.floor(next() * maxSeconds);
    const [app, title] = APPS[Math.floor(next() * next() * APPS.length)];
    spans.push({
      id: uuid(next),
      kind: away ? 'away' : 'active',
      startedAt: new Date(at).toISOString(),
      endedAt: new Date(at + seconds * 1000).toISOString(),
      app: away ? null : app,
      title: away ? null : title,
      url: null,
      awayReason: away ? 'idle' : null,
    });
    at += seconds * 1000;
  }
  return { spans, endMs: at };
}

/** Uploads a batch as the agent does; answers the server's reply and how long it took. */
export async function upload(origin, token, body) {
  const started = performance.now();
  const response = await fetch(`${origin}/api/v1/agent/spans`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });
  const result = await json(response, 'upload');
  return { ...result, ms: performance.now() - started };
}

export const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** CPU seconds (user + system) a process has used so far (Linux /proc). */
export function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // gone
  }
}

/** CPU seconds the PostgreSQL processes of this machine have used so far (its backends come and go: read a delta). */
export function postgresCpuSeconds() {
  let total = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(pid);
    } catch {}
  }
  return total;
}

/** For page.addInitScript: long tasks from the page's start into `window.longTasks` ({ start, ms }). */
export const observeLongTasks = () => {
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, ms: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
};
