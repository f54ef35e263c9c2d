// Start-up time and memory of the API: run-time TypeScript loader (tsx) against the compiled
// bundle (scripts/build-api.mjs), on the embedded database, measured alternately in one run so
// machine noise hits both alike. Usage: npm run bench:startup [-- rounds] (default 7)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv[2] ?? 7);
const port = 3290;
const variants = {
  tsx: ['--import', 'tsx', 'apps/api/src/main.ts'],
  compiled: ['--enable-source-maps', 'apps/api/dist/main.mjs'],
};

const rssMiB = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
  return line ? Number(line[1]) / 1024 : Number.NaN;
};

async function waitReady(deadline) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('server did not become ready');
}

async function runOnce(args, dataDir) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  await waitReady(Date.now() + 60_000);
  const readyMs = performance.now() - started;
  const readyRss = rssMiB(child.pid);
  for (let i = 0; i < 300; i++) await (await fetch(`http://127.0.0.1:${port}/api/v1/me`)).arrayBuffer();
  const loadedRss = rssMiB(child.pid);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { readyMs, readyRss, loadedRss };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
execFileSync(process.execPath, ['scripts/build-api.mjs'], { cwd: root, stdio: 'inherit' });
const base = mkdtempSync(path.join(tmpdir(), 'sundial-startup-'));
try {
  // One migrated database, copied for every start, so each run is a warm restart of the same data.
  const seed = path.join(base, 'seed');
  await runOnce(variants.compiled, seed);
  const results = { tsx: [], compiled: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, args] of Object.entries(variants)) {
      const dir = path.join(base, `${name}-${round}`);
      cpSync(seed, dir, { recursive: true });
      results[name].push(await runOnce(args, dir));
    }
  }
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, runs]) => [
      name,
      {
        readyMs: Math.round(median(runs.map((r) => r.readyMs))),
        readyRssMiB: Math.round(median(runs.map((r) => r.readyRss))),
        after300RequestsRssMiB: Math.round(median(runs.map((r) => r.loadedRss))),
      },
    ]),
  );
  console.table(summary);
  const ratio = (key) => (summary.compiled[key] / summary.tsx[key]).toFixed(2);
  console.log(
    `compiled/tsx (median of ${rounds}): start-up ${ratio('readyMs')}x, RSS at ready ${ratio('readyRssMiB')}x, RSS after 300 requests ${ratio('after300RequestsRssMiB')}x`,
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}
