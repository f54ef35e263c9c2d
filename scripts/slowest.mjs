// Prints the slowest test files of a `npm test` run, from the JSON reports of its Vitest and
// Playwright runs: `node scripts/slowest.mjs COUNT label=report.json ...` (a missing report is
// skipped: the run stopped before it). Issue 31: every CI log ends with where its time went.
import fs from 'node:fs';
import path from 'node:path';

const [count = '15', ...reports] = process.argv.slice(2);
const root = process.cwd();
const files = [];

for (const spec of reports) {
  const [label, file] = spec.split('=');
  if (!file || !fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (Array.isArray(report.testResults)) {
    // Vitest's JSON reporter: one entry a file, with its start and end.
    for (const result of report.testResults)
      files.push({ label, name: path.relative(root, result.name), ms: result.endTime - result.startTime });
  } else if (Array.isArray(report.suites)) {
    // Playwright's: suites a file, each test's attempts with their durations.
    for (const suite of report.suites) files.push({ label, name: `e2e/${suite.file}`, ms: playwrightMs(suite) });
  }
}

function playwrightMs(suite) {
  let ms = 0;
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests ?? []) for (const result of test.results ?? []) ms += result.duration ?? 0;
  for (const child of suite.suites ?? []) ms += playwrightMs(child);
  return ms;
}

files.sort((a, b) => b.ms - a.ms);
console.log(`\n=== the ${count} slowest test files ===`);
for (const f of files.slice(0, Number(count)))
  console.log(`${(f.ms / 1000).toFixed(1).padStart(8)} s  ${f.label.padEnd(8)} ${f.name}`);
