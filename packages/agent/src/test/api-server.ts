import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/**
 * The built API (apps/api/dist/main.mjs, compiled here by scripts/build-api.mjs: half a second) as a
 * child process in production mode, on the embedded PGlite in a data folder of its own, with one
 * person signed up: `call` sends their session. `kill()` ends the process at once (SIGKILL) and
 * `start()` starts it again on the same port and data; `stop()` ends it and removes the data.
 */
export interface ApiServer {
  url: string;
  person: { cookie: string; userId: string; workspaceId: string };
  call<T = unknown>(method: string, url: string, body?: unknown): Promise<ApiAnswer<T>>;
  start(): Promise<void>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startApiServer(): Promise<ApiServer> {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-api.mjs')], { cwd: root });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-agent-api-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { DATABASE_URL: _postgres, ...env } = process.env;
  let child: ChildProcess | null = null;
  let output = '';

  const exited = (proc: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) resolve();
      else proc.once('exit', () => resolve());
    });
  const start = async () => {
    const proc = spawn(process.execPath, [path.join(root, 'apps/api/dist/main.mjs')], {
      cwd: root,
      env: {
        ...env,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: url,
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'warn',
        LOG_JSON_ONLY: 'true',
        JOBS_ENABLED: 'false',
        RATE_LIMIT_SIGNUP_PER_IP: '100000',
        RATE_LIMIT_AGENT_PAIRING_PER_IP: '100000',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child = proc;
    for (const deadline = Date.now() + 60_000; ; ) {
      if (proc.exitCode !== null) throw new Error(`The API exited (${proc.exitCode}): ${output}`);
      try {
        if ((await fetch(`${url}/readyz`)).ok) return;
      } catch {}
      if (Date.now() > deadline) throw new Error(`The API did not become ready: ${output}`);
      await sleep(100);
    }
  };
  const end = async (signal: NodeJS.Signals) => {
    const proc = child;
    child = null;
    if (!proc) return;
    proc.kill(signal);
    await exited(proc);
  };

  const server: ApiServer = {
    url,
    person: { cookie: '', userId: '', workspaceId: '' },
    async call<T>(method: string, route: string, body?: unknown) {
      const res = await fetch(`${url}${route}`, {
        method,
        headers: {
          origin: url,
          cookie: server.person.cookie,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    },
    start,
    kill: () => end('SIGKILL'),
    stop: async () => {
      await end('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await start();
    const signup = await fetch(`${url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `agent.${Date.now()}@example.com`, password: 'Tidal-wave-42-agent' }),
    });
    if (signup.status !== 201) throw new Error(`Sign-up failed: ${signup.status} ${await signup.text()}`);
    server.person.cookie = signup.headers
      .getSetCookie()
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
    const me = await server.call<{ user: { id: string }; currentWorkspaceId: string }>('GET', '/api/v1/me');
    server.person.userId = me.body.user.id;
    server.person.workspaceId = me.body.currentWorkspaceId;
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}
