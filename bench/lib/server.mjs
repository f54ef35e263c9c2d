import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './ports.mjs';

export const OWNER = { email: 'owner@large.example.org', password: 'Sunny-days-2026!' };

/**
 * The API in a child process in production mode on the bench database `url` (its event loop its
 * own), once /readyz answers, with the large workspace's owner signed in: `call(path, init)` sends
 * their `cookie`. `stop()` ends it.
 */
export async function startServer(url) {
  const root = path.resolve(import.meta.dirname, '../..');
  const port = await freePort();
  // BENCH_SERVER_ARGS: node options for the server alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const extra = (process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      WEB_DIST: '/nonexistent',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://localhost:${port}`;
  const stop = () => child.kill('SIGTERM');
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      if (i > 900) throw new Error('the API did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify(OWNER),
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const call = (path, init = {}) =>
      fetch(`${base}${path}`, { ...init, headers: { cookie, origin: base, ...(init.headers ?? {}) } });
    return { base, call, cookie, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
