// The day list and the Projects page at a busy team's size, in Chromium: starts the compiled
// server (`npm run build` first) on a throw-away embedded database, seeds it with
// bench/seed-week.mjs (1,000 projects, 1,000 entries in last week), signs in and measures
//   - the day list's first render of the 1,000 entries (click on Previous week → rows painted;
//     also from the week's response arriving), DOM elements and JS heap after it;
//   - an inline edit: a duration typed and committed with Enter → the day total shows the change
//     (shown before the server answers), and → the PATCH's answer arrived (saved);
//   - the Projects page: scrolling to the end of 1,000 projects (clicking Load more whenever it
//     shows, as a person would on a page without loading on scroll);
//   - the longest long task (PerformanceObserver 'longtask') of each step.
// Usage: npm run bench:daylist [-- --origin http://localhost:4102 --email x --password y]
//   (with --origin it measures a running, already seeded server instead of starting one)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { seedWeek } from './seed-week.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: { origin: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
});

async function waitReady(origin) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start (run `npm run build` first)');
}

/** Starts the compiled server on a free port and a fresh data folder. */
function startServer() {
  const port = Number(process.env.BENCH_PORT ?? 3292);
  const origin = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-daylist-'));
  const server = spawn(process.execPath, ['--enable-source-maps', 'apps/api/dist/main.mjs'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), PUBLIC_URL: origin, DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  return {
    origin,
    stop: () => {
      server.kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// Long tasks, from the start of the page; `window.longTasks` is read and emptied per step.
const observeLongTasks = () => {
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push(Math.round(entry.duration));
  }).observe({ type: 'longtask', buffered: true });
};
const takeLongest = (page) =>
  page.evaluate(() => {
    const longest = Math.max(0, ...window.longTasks);
    window.longTasks = [];
    return longest;
  });
const settle = (page, ms = 1500) => page.waitForTimeout(ms);

async function measure(origin, account) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1440, height: 900 } });
  const login = await context.request.post('/api/v1/auth/login', {
    data: { email: account.email, password: account.password },
  });
  if (!login.ok()) throw new Error(`log-in failed: ${login.status()}`);
  const page = await context.newPage();
  await page.addInitScript(observeLongTasks);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const result = {};

  // Day list: this week is empty; last week holds the 1,000 entries.
  await page.goto('/homepage/timesheet');
  await page.getByRole('textbox', { name: 'Note', exact: true }).waitFor();
  await page.waitForLoadState('networkidle'); // the pickers (every project) are in
  await settle(page);
  await takeLongest(page);
  const render = await page.evaluate(async () => {
    const t0 = performance.now();
    const button = document.querySelector('button[aria-label="Previous week"]');
    button.click();
    while (!document.querySelector('[data-testid="entry-row"]')) {
      if (performance.now() - t0 > 60_000) throw new Error('no entry rows');
      await new Promise((r) => requestAnimationFrame(r));
    }
    // The frame after the commit is the one showing the rows.
    await new Promise((r) => requestAnimationFrame(r));
    const painted = performance.now();
    const week = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/time-entries?') && e.startTime >= t0)
      .at(-1);
    return {
      clickToRows: Math.round(painted - t0),
      responseToRows: Math.round(painted - (week ? week.responseEnd : t0)),
    };
  });
  await settle(page);
  result.dayListClickToRowsMs = render.clickToRows;
  result.dayListRenderMs = render.responseToRows;
  result.dayListLongestTaskMs = await takeLongest(page);
  result.entryRowsMounted = await page.getByTestId('entry-row').count();
  result.domElements = await page.evaluate(() => document.getElementsByTagName('*').length);
  await cdp.send('HeapProfiler.collectGarbage');
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  result.jsHeapMiB = Math.round(metrics.find((m) => m.name === 'JSHeapUsedSize').value / 2 ** 20);

  // Inline edit: the first entry's duration changed (0:09 at first); the day total follows the saved entry.
  const duration = page.getByRole('textbox', { name: 'Entry duration' }).first();
  await duration.fill((await duration.inputValue()) === '0:20:00' ? '0:25' : '0:20');
  await takeLongest(page);
  // Shown: Enter until the day total shows the new duration (the change is shown before the server
  // answers). Saved: Enter until the PATCH's answer has arrived (the server round trip).
  const edited = await page.evaluate(async () => {
    const total = document.querySelector('[aria-label^="Total of "]');
    const before = total.textContent;
    const input = document.querySelector('input[aria-label="Entry duration"]');
    const t0 = performance.now();
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    while (document.querySelector('[aria-label^="Total of "]').textContent === before) {
      if (performance.now() - t0 > 30_000) throw new Error('the day total did not change');
      await new Promise((r) => setTimeout(r, 1));
    }
    await new Promise((r) => requestAnimationFrame(r));
    const shown = Math.round(performance.now() - t0);
    const patch = () =>
      performance
        .getEntriesByType('resource')
        .find((e) => e.startTime >= t0 && e.initiatorType === 'fetch' && /\/time-entries\/[^/?]+$/.test(e.name));
    while (!patch()) {
      if (performance.now() - t0 > 30_000) throw new Error('the PATCH did not answer');
      await new Promise((r) => setTimeout(r, 1));
    }
    return { shown, saved: Math.round(patch().responseEnd - t0) };
  });
  result.inlineEditMs = edited.shown;
  result.inlineEditSavedMs = edited.saved;
  await settle(page, 3000); // the week is reloaded after the save
  result.inlineEditLongestTaskMs = await takeLongest(page);

  console.error(`day list: ${JSON.stringify(result)}`); // kept if the Projects step fails on a busy machine

  // Projects: to the end of 1,000 projects.
  await page.goto('/homepage/projects');
  await page.getByTestId('project-row').first().waitFor();
  await settle(page);
  await takeLongest(page);
  const t0 = Date.now();
  const more = page.getByRole('button', { name: 'Load more' });
  const showing = page.getByText(/^Showing \d+ of \d+ projects$/);
  for (let i = 0; i < 200 && (await showing.count()) > 0; i++) {
    await page.mouse.wheel(0, 4000);
    await page.waitForTimeout(50);
    if ((await more.count()) > 0 && (await more.isEnabled()) && (await more.isVisible())) await more.click();
  }
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(300);
  if ((await showing.count()) > 0) throw new Error('the Projects page did not reach its end');
  result.projectsToEndMs = Date.now() - t0;
  result.projectsLongestTaskMs = await takeLongest(page);
  result.projectRowsMounted = await page.getByTestId('project-row').count();
  result.projectsDomElements = await page.evaluate(() => document.getElementsByTagName('*').length);
  await browser.close();
  return result;
}

const server = args.origin ? null : startServer();
try {
  const origin = args.origin ?? server.origin;
  await waitReady(origin);
  const account = args.email
    ? { email: args.email, password: args.password ?? 'Sunny-days-2026!' }
    : await seedWeek({ origin, log: (m) => console.error(`seed: ${m}`) });
  const result = await measure(origin, account);
  console.table(result);
  console.log(JSON.stringify(result));
} finally {
  server?.stop();
}
