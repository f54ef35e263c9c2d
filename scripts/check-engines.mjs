#!/usr/bin/env node
// Fails when a package in package-lock.json declares a Node.js range that does not hold every
// version our package.json's `engines.node` accepts: that is what makes `npm install` print
// EBADENGINE on a Node we say is enough (docs/decisions/0001). Run by `npm run lint`.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const root = new URL('../', import.meta.url);
const ours = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).engines.node;
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'));

const misfits = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  const theirs = entry.engines?.node;
  // Optional per-platform binaries are skipped where they do not fit; they never warn.
  if (!path || typeof theirs !== 'string' || entry.optional) continue;
  if (!semver.validRange(theirs) || !semver.subset(ours, theirs)) {
    misfits.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants Node ${theirs}`);
  }
}
if (misfits.length > 0) {
  console.error(`These packages do not run on every Node.js that package.json accepts (${ours}):`);
  for (const line of misfits) console.error(`  ${line}`);
  console.error('Pick versions whose engines fit, or change engines.node and the README.');
  process.exit(1);
}
