import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, uniqueEmail } from '../test/harness.js';

// The real process, as `npm start` runs it: embedded database in a folder, graceful SIGTERM.
let dataDir = '';
const mainFile = path.resolve(import.meta.dirname, 'main.ts');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startServer(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    WEB_DIST: '/nonexistent',
    // Request lines are debug lines in production: this test reads one for its request id.
    LOG_LEVEL: 'debug',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // A cold start (tsx, a fresh embedded database, its migrations) took over a minute at load 12 on
  // two cores in CI (issue 31): sized for that.
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) return { child, output: () => output };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const postJson = (port: number, path: string, body: object) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

// The embedded database whatever DATABASE_URL says (the server is started without it): run once, in
// the PGlite run, as db/pglite-dialect.int.test.ts is (it was 74 s of the PostgreSQL run too).
describe.skipIf(Boolean(process.env.DATABASE_URL))('the server process', () => {
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-main-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps accounts in DATA_DIR across a graceful restart and logs JSON with request ids', async () => {
    const port = await freePort();
    const email = uniqueEmail('restart');
    const first = await startServer(port);
    expect(first.output()).toContain(`Sundial is running at http://localhost:${port}`);
    const signup = await postJson(port, '/api/v1/auth/signup', { email, password: STRONG_PASSWORD });
    expect(signup.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
    const logLines = first
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const requestLog = logLines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.req?.url === '/api/v1/auth/signup');
    expect(requestLog?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.output()).toContain('shutting down');

    const second = await startServer(port);
    const login = await postJson(port, '/api/v1/auth/login', { email, password: STRONG_PASSWORD });
    expect(login.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toBe(0);
  }, 420_000);

  it('refuses to start with a wrong setting and says which one', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
      env: { ...process.env, PORT: 'not-a-port', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    expect(await exitOf(child)).toBe(1);
    expect(stderr).toContain('PORT: must be a number');
  }, 60_000);
});
