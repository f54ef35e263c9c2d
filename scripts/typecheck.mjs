#!/usr/bin/env node
// `npm run typecheck`: `tsc --noEmit` over each TypeScript project, as many at a time as the machine
// has cores (issue 31: one after another they took 72 s on two cores, one core idle). The biggest
// first, so the small ones fill in beside it. Each project's output is printed whole once it ends.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const projects = ['apps/api', 'apps/web', 'e2e', 'packages/core', 'packages/agent'];
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const slots = Math.max(1, Math.min(projects.length, os.availableParallelism()));

function check(project) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`tsc ${project}: ${code === 0 ? 'ok' : 'errors'} (${seconds} s)\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
const results = await Promise.all(
  Array.from({ length: slots }, async () => {
    let ok = true;
    for (let project = queue.shift(); project; project = queue.shift()) ok = (await check(project)) && ok;
    return ok;
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
