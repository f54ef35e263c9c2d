// Sign-in to a usable timesheet at a real team's size (issue 13). Against the compiled server on
// the large PostgreSQL workspace (npm run bench:seed-large first), in Chromium: from the click on
// "Log in" until this week's entries are listed and the timer's project picker has opened with
// its options. Counts the requests the pickers make (project-picker, projects, tasks, tag-lists).
// The same run measures a small workspace (20 projects, a week of entries) made on the same
// server, and prints the ratio. Usage (after npm run build):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/sundial_bench_large npm run bench:signin [-- --runs 3 --trace --small <email>]
//   BENCH_PORT (default 3298) is the server's port; WEB_DIST measures another build of the web app.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl?.includes('bench')) {
  console.error('Set DATABASE_URL to the seeded bench database (npm run bench:seed-large prints it).');
  process.exit(1);
}
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
// --trace prints, for the last run of each workspace, every request from the click on "Log in" to the
// listed entries: when it started and ended (ms after the click) and the server's time to first byte.
const TRACE = process.argv.includes('--trace');
const PASSWORD = 'Sunny-days-2026!';
const LARGE_OWNER = 'owner@large.example.org';
const port = Number(process.env.BENCH_PORT ?? 3298);
const origin = `http://localhost:${port}`;

const server = spawn(process.execPath, ['--enable-source-maps', 'apps/api/dist/main.mjs'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'production', PORT: String(port), PUBLIC_URL: origin, DATABASE_URL: databaseUrl },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function waitReady() {
  for (let i = 0; i < 900; i++) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start (run `npm run build` first)');
}

/** A workspace of 20 projects (two tasks each) and this week's entries, signed up on the same server. */
async function smallWorkspace(browser) {
  const context = await browser.newContext();
  const api = context.request;
  const email = `bench.small.${Date.now()}@example.org`;
  const signup = await api.post(`${origin}/api/v1/auth/signup`, {
    data: { email, password: PASSWORD, timeZone: 'UTC' },
  });
  if (signup.status() !== 201) throw new Error(`sign-up failed: ${signup.status()}`);
  const me = await (await api.get(`${origin}/api/v1/me`)).json();
  const ws = `${origin}/api/v1/workspaces/${me.currentWorkspaceId}`;
  const projectIds = [];
  for (let i = 1; i <= 20; i++) {
    const project = await (await api.post(`${ws}/projects`, { data: { name: `Small ${i}` } })).json();
    projectIds.push(project.id);
    for (const name of ['Design', 'Build']) await api.post(`${ws}/projects/${project.id}/tasks`, { data: { name } });
  }
  const today = new Date();
  for (let back = 1; back <= 10; back++) {
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 7 + back));
    start.setUTCDate(start.getUTCDate() - (back % 2));
    const end = new Date(start.getTime() + 30 * 60_000);
    await api.post(`${ws}/time-entries`, {
      data: { start: start.toISOString(), end: end.toISOString(), projectId: projectIds[back] },
    });
  }
  await context.close();
  return email;
}

const PICKER_CALLS = /\/(project-picker|projects|tasks|tag-lists)(\/|$|\?)/;

async function signIn(browser, email) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${origin}/loginpage?next=%2Fhomepage%2Ftimesheet`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  const pickerRequests = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && PICKER_CALLS.test(url.pathname))
      pickerRequests.push(url.pathname + url.search);
  });
  const finished = [];
  page.on('requestfinished', (request) => finished.push(request));
  // The click's time on the page's clock, so requests' timings (epoch ms) can be placed after it.
  await page.evaluate(() => {
    const remember = () => {
      window.__clickedAt = performance.timeOrigin + performance.now();
    };
    document.addEventListener('click', remember, { capture: true, once: true });
  });
  const started = performance.now();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByTestId('entry-row').first().waitFor({ timeout: 60_000 });
  const listed = performance.now() - started;
  const clickedAt = await page.evaluate(() => window.__clickedAt);
  const waterfall = finished.map((request) => {
    const timing = request.timing();
    const url = new URL(request.url());
    return {
      request: `${request.method()} ${url.pathname}${url.search}`.slice(0, 90),
      start: Math.round(timing.startTime - clickedAt),
      ttfb: Math.round(timing.responseStart - timing.requestStart),
      end: Math.round(timing.startTime + timing.responseEnd - clickedAt),
    };
  });
  const picker = page.getByRole('combobox', { name: 'Project / task' }).first();
  await picker.click();
  await page.getByRole('listbox').getByRole('option').first().waitFor({ timeout: 60_000 });
  const usable = performance.now() - started;
  const options = await page.getByRole('listbox').getByRole('option').count();
  await page.waitForLoadState('networkidle');
  await context.close();
  return { usable, listed, options, requests: pickerRequests, waterfall };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  await waitReady();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  // --small <email> measures a small workspace an earlier run made (sign-ups are rate limited).
  const smallArg = process.argv.indexOf('--small');
  const smallEmail = smallArg > 0 ? process.argv[smallArg + 1] : await smallWorkspace(browser);
  console.log(`small workspace: ${smallEmail}`);
  // A first sign-in each warms the server (compiled statements, caches) and is not counted.
  await signIn(browser, LARGE_OWNER);
  await signIn(browser, smallEmail);
  const runs = { large: [], small: [] };
  for (let i = 0; i < RUNS; i++) {
    runs.large.push(await signIn(browser, LARGE_OWNER));
    runs.small.push(await signIn(browser, smallEmail));
  }
  await browser.close();
  const summary = Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      {
        'usable (ms, median)': Math.round(median(list.map((r) => r.usable))),
        'entries listed (ms)': Math.round(median(list.map((r) => r.listed))),
        'picker requests': Math.max(...list.map((r) => r.requests.length)),
        'picker options': list[0].options,
      },
    ]),
  );
  console.table(summary);
  if (TRACE) {
    for (const [name, list] of Object.entries(runs)) {
      const last = list[list.length - 1];
      console.log(
        `${name}: entries listed at ${Math.round(last.listed)} ms after Playwright's click; requests (ms after the page saw the click):`,
      );
      console.table(last.waterfall.sort((a, b) => a.start - b.start));
    }
  }
  console.log('picker requests (large):', runs.large[0].requests.join(' '));
  const ratio = summary.large['usable (ms, median)'] / summary.small['usable (ms, median)'];
  console.log(
    `sign-in to a usable timesheet: ${summary.large['usable (ms, median)']} ms at 1M entries / 200 projects vs ${summary.small['usable (ms, median)']} ms at 20 projects (${ratio.toFixed(2)}x), median of ${RUNS}`,
  );
} finally {
  server.kill('SIGTERM');
}
