// Bytes on the wire for a cold timesheet load: sign up, then open /homepage/timesheet in a fresh
// Chromium profile and add up every response's encoded size (Chrome's own count, headers
// included), once accepting brotli/gzip as browsers do and once asking for identity encoding
// (what every response weighed before compression). Usage: npm run bench:transfer
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = 3291;
const origin = `http://localhost:${port}`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-transfer-'));
const server = spawn(process.execPath, ['--enable-source-maps', 'apps/api/dist/main.mjs'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'production', PORT: String(port), PUBLIC_URL: origin, DATA_DIR: dataDir },
  stdio: 'ignore',
});

async function waitReady() {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start (run `npm run build` first)');
}

async function coldLoad(browser, extraHTTPHeaders) {
  const context = await browser.newContext({ extraHTTPHeaders });
  const email = `bench.${Date.now()}.${Math.random().toString(36).slice(2)}@example.org`;
  const signup = await context.request.post(`${origin}/api/v1/auth/signup`, {
    data: { email, password: 'Sunny-days-2026!' },
  });
  if (signup.status() !== 201) throw new Error(`sign-up failed: ${signup.status()}`);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
    requests++;
  });
  await page.goto(`${origin}/homepage/timesheet`, { waitUntil: 'networkidle' });
  await page.getByRole('textbox', { name: 'Note', exact: true }).waitFor();
  await context.close();
  return { kib: Math.round(bytes / 1024), requests };
}

try {
  await waitReady();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const compressed = await coldLoad(browser, {});
  const identity = await coldLoad(browser, { 'accept-encoding': 'identity' });
  await browser.close();
  console.table({ compressed, identity });
  console.log(
    `cold timesheet load: ${compressed.kib} KiB compressed vs ${identity.kib} KiB identity (${(compressed.kib / identity.kib).toFixed(2)}x)`,
  );
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
