import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * A Sundial of a journey's own (the same compiled API as the journeys' server), for what the
 * shared one cannot show: a database edited while it is stopped (plan gating), other settings
 * (BILLING=off). Its own embedded database in `dataDir`, on a free port.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export async function startSundial(
  port: number,
  options: { dataDir: string; env?: NodeJS.ProcessEnv },
): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    LOG_JSON_ONLY: 'true',
    RATE_LIMIT_SIGNUP_PER_IP: '100000',
    RATE_LIMIT_LOGIN_PER_IP: '100000',
    ...options.env,
  };
  // Its own embedded database, whatever the journeys' server uses: a journey may edit it in between.
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  const child = spawn(process.execPath, ['apps/api/dist/main.mjs'], { cwd: ROOT, env, stdio: 'ignore' });
  // A fresh embedded database migrates first: up to a minute on a busy machine.
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`http://localhost:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  throw new Error('Sundial did not start');
}

export async function stopSundial(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
