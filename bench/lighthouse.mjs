#!/usr/bin/env node
// Measures the public site against its budgets (issue 6) and writes the figures to bench/README.md.
//
//   npm run bench:landing                 build if the web sources are newer than the build, then measure
//   npm run bench:landing -- --runs 5     more Lighthouse runs per page (the median counts; default 3)
//   npm run bench:landing -- --build      always build first
//   npm run bench:landing -- --pages /demo,/integrations   check other pages (bench/README.md is not touched)
//
// It starts the production server on a free port with a throw-away embedded database, runs
// Lighthouse (mobile preset, simulated throttling) in the system Chromium against /, /pricing and
// the newest blog post, and measures the gzipped size of every script each page loads. It exits 1
// when a budget is missed. Not part of CI: the figures depend on the machine.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort } from './lib/ports.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH = path.join(ROOT, 'bench');
const OUT = path.join(BENCH, '.out');
const WEB = path.join(ROOT, 'apps', 'web');
const DIST = path.resolve(process.env.WEB_DIST ?? path.join(WEB, 'dist'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];

const BUDGETS = {
  scores: { performance: 95, accessibility: 95, 'best-practices': 95, seo: 95 },
  /** Landing JavaScript, gzipped, per page. */
  scriptKb: 60,
};
const CATEGORY_NAMES = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best practices',
  seo: 'SEO',
};

const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Math.max(1, Number(args[runsArg + 1]) || 1) : 3;
const FORCE_BUILD = args.includes('--build');
const pagesArg = args.indexOf('--pages');
/** Other pages to measure instead of the budgeted three; the README is then left alone. */
const EXTRA_PAGES = pagesArg >= 0 ? (args[pagesArg + 1] ?? '').split(',').filter(Boolean) : null;

/** Newest modification time of any file under the given paths. */
function newest(paths) {
  let latest = 0;
  for (const start of paths) {
    if (!fs.existsSync(start)) continue;
    const stat = fs.statSync(start);
    if (stat.isFile()) {
      latest = Math.max(latest, stat.mtimeMs);
      continue;
    }
    for (const name of fs.readdirSync(start, { recursive: true, encoding: 'utf8' })) {
      const file = path.join(start, name);
      if (name.includes('node_modules')) continue;
      const fileStat = fs.statSync(file);
      if (fileStat.isFile()) latest = Math.max(latest, fileStat.mtimeMs);
    }
  }
  return latest;
}

function buildIfNeeded() {
  const marker = path.join(DIST, 'site', 'index.html');
  const sources = newest([
    path.join(WEB, 'src'),
    path.join(WEB, 'content'),
    path.join(WEB, 'scripts'),
    path.join(WEB, 'index.html'),
    path.join(WEB, 'landing.html'),
    path.join(WEB, 'vite.config.ts'),
    path.join(ROOT, 'packages', 'core', 'src'),
  ]);
  const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  if (!FORCE_BUILD && built > sources) {
    console.log(`Using the build in ${DIST} (newer than the web sources).`);
    return;
  }
  console.log(`Building the web app into ${DIST} ...`);
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, WEB_OUT_DIR: DIST },
  });
  if (result.status !== 0) throw new Error('The build failed.');
}

async function startServer(port) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-bench-'));
  const origin = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      WEB_DIST: DIST,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
  });
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}.`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return { origin, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error('The server did not become ready within 60 s.');
}

/** The newest post's path, read from the built blog index (posts are listed newest first). */
async function newestPostPath(origin) {
  const html = await (await fetch(`${origin}/blog`)).text();
  const match = /href="(\/blog\/[a-z0-9-]+)"/.exec(html);
  if (!match) throw new Error('The blog index lists no post.');
  return match[1];
}

const scriptsIn = (file) =>
  new Set(
    [...fs.readFileSync(path.join(DIST, file), 'utf8').matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map(
      (match) => match[1],
    ),
  );

/** The app's own scripts (entry and preloads, less the polyfill both share), which the public site must never load. */
function appScripts() {
  const shared = scriptsIn(path.join('site', 'index.html'));
  return new Set([...scriptsIn('index.html')].filter((file) => !shared.has(file)));
}

/** Every script a page loaded (from Lighthouse's network log) plus its inline scripts, gzipped. */
async function measureScripts(lhr, origin) {
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = requests.filter((item) => item.resourceType === 'Script');
  const files = [];
  for (const item of scripts) {
    const body = Buffer.from(await (await fetch(item.url)).arrayBuffer());
    files.push({ url: item.url.replace(origin, ''), bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length });
  }
  const page = await (await fetch(lhr.finalDisplayedUrl)).text();
  const inline = [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1])
    .join('\n');
  if (inline.trim()) {
    const body = Buffer.from(inline);
    files.push({ url: '(inline)', bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length });
  }
  return files;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

async function audit(url, port) {
  const result = await lighthouse(url, {
    port,
    output: 'html',
    logLevel: 'error',
    onlyCategories: Object.keys(BUDGETS.scores),
  });
  if (!result?.lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  return result;
}

/** The audits that cost a category points, for the console when a score is short. */
function failedAudits(lhr, category) {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((item) => item.score !== null && item.score < 1)
    .map((item) => `${item.id} (${Math.round(item.score * 100)})${item.displayValue ? `: ${item.displayValue}` : ''}`);
}

/** A Markdown table with padded columns, as the formatter would leave it. */
function markdownTable(cells) {
  const widths = cells[0].map((_, column) => Math.max(3, ...cells.map((row) => row[column].length)));
  const line = (row) => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(cells[0]), line(widths.map((width) => '-'.repeat(width))), ...cells.slice(1).map(line)];
}

function writeReadme(rows, meta) {
  const file = path.join(BENCH, 'README.md');
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const lines = [
    start,
    `Measured ${meta.date} with \`${meta.command}\`: Lighthouse ${meta.lighthouse}, ${meta.chromium}, mobile preset`,
    `(simulated slow 4G and 4x CPU slowdown), median of ${RUNS} run${RUNS === 1 ? '' : 's'} per page, on ${meta.machine}.`,
    '',
    ...markdownTable([
      ['Page', 'Performance', 'Accessibility', 'Best practices', 'SEO', 'JavaScript (gzipped)', 'LCP', 'TBT', 'CLS'],
      ...rows.map((row) => [
        row.path,
        ...Object.keys(BUDGETS.scores).map((id) => String(row.scores[id])),
        `${row.scriptKb.toFixed(1)} KB`,
        row.lcp,
        row.tbt,
        row.cls,
      ]),
      [
        '**Budget**',
        ...Object.values(BUDGETS.scores).map((min) => `**≥ ${min}**`),
        `**≤ ${BUDGETS.scriptKb} KB**`,
        '',
        '',
        '',
      ],
    ]),
    '',
    `Scripts the pages load: ${meta.scripts}. The app bundle (${meta.appBundle}) is loaded by none of them.`,
    '',
    `Result: ${meta.failures.length === 0 ? '**every budget met**.' : `**budgets missed**: ${meta.failures.join('; ')}.`}`,
    end,
  ].join('\n');
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# Benchmarks\n\n${start}\n${end}\n`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${current.slice(0, from)}${lines}${current.slice(to + end.length)}`
      : `${current.trimEnd()}\n\n${lines}\n`;
  fs.writeFileSync(file, next);
}

async function main() {
  buildIfNeeded();
  fs.mkdirSync(OUT, { recursive: true });
  const server = await startServer(await freePort());
  let chrome;
  try {
    const post = await newestPostPath(server.origin);
    const paths = EXTRA_PAGES ?? ['/', '/pricing', post];
    const forbidden = appScripts();
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
    const rows = [];
    const failures = [];
    const loadedScripts = new Set();
    for (const urlPath of paths) {
      const runs = [];
      for (let run = 1; run <= RUNS; run += 1) {
        const result = await audit(`${server.origin}${urlPath}`, chrome.port);
        const score = (id) => Math.round((result.lhr.categories[id].score ?? 0) * 100);
        console.log(
          `${urlPath} run ${run}/${RUNS}: ${Object.keys(BUDGETS.scores)
            .map((id) => `${CATEGORY_NAMES[id]} ${score(id)}`)
            .join(', ')}`,
        );
        runs.push(result);
      }
      // The run with the median performance score stands for the page (as Lighthouse recommends).
      const perf = runs.map((result) => result.lhr.categories.performance.score ?? 0);
      const chosen = runs[perf.indexOf(median(perf))] ?? runs[0];
      const { lhr } = chosen;
      const slug = urlPath === '/' ? 'home' : urlPath.slice(1).replaceAll('/', '-');
      fs.writeFileSync(path.join(OUT, `${slug}.html`), chosen.report);
      fs.writeFileSync(path.join(OUT, `${slug}.json`), JSON.stringify(lhr, null, 1));

      const scores = {};
      for (const id of Object.keys(BUDGETS.scores)) {
        scores[id] = median(runs.map((result) => Math.round((result.lhr.categories[id].score ?? 0) * 100)));
        if (scores[id] < BUDGETS.scores[id]) {
          failures.push(`${urlPath} ${CATEGORY_NAMES[id]} ${scores[id]} < ${BUDGETS.scores[id]}`);
          console.log(`  ${CATEGORY_NAMES[id]} lost points on: ${failedAudits(lhr, id).join(', ')}`);
        }
      }
      const scripts = await measureScripts(lhr, server.origin);
      const scriptKb = scripts.reduce((sum, file) => sum + file.gzipped, 0) / 1024;
      for (const file of scripts) {
        loadedScripts.add(`${file.url} ${(file.gzipped / 1024).toFixed(1)} KB`);
        if (forbidden.has(file.url)) failures.push(`${urlPath} loads the app bundle ${file.url}`);
      }
      if (scriptKb > BUDGETS.scriptKb) {
        failures.push(`${urlPath} JavaScript ${scriptKb.toFixed(1)} KB > ${BUDGETS.scriptKb} KB`);
      }
      const metric = (id) => lhr.audits[id]?.displayValue ?? '?';
      rows.push({
        path: urlPath,
        scores,
        scriptKb,
        lcp: metric('largest-contentful-paint'),
        tbt: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift'),
      });
    }

    const chromium = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout.trim().split(' built')[0];
    const lighthouseVersion = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8'),
    ).version;
    if (!EXTRA_PAGES)
      writeReadme(rows, {
        date: new Date()
          .toISOString()
          .replace(/:\d\d\.\d+Z$/, ' UTC')
          .replace('T', ' '),
        command: `npm run bench:landing${RUNS === 3 ? '' : ` -- --runs ${RUNS}`}`,
        lighthouse: lighthouseVersion,
        chromium: chromium || 'Chromium',
        machine: `${os.cpus().length} CPU cores (${os.cpus()[0]?.model.trim() ?? 'unknown'}), Node.js ${process.version}`,
        scripts: [...loadedScripts].map((entry) => `\`${entry}\``).join(', '),
        appBundle: [...forbidden].filter((file) => /\/app-/.test(file)).join(', ') || 'index.html',
        failures,
      });

    console.log('');
    console.table(
      Object.fromEntries(
        rows.map((row) => [row.path, { ...row.scores, 'JS KB (gzip)': Number(row.scriptKb.toFixed(1)) }]),
      ),
    );
    console.log(`Reports in ${path.relative(ROOT, OUT)}/, figures in bench/README.md`);
    if (failures.length > 0) {
      console.error(`Budgets missed:\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
    } else {
      console.log('Every budget met.');
    }
  } finally {
    await chrome?.kill();
    server.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
