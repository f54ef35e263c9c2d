import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web's layers (docs/architecture.md): a feature (features/X) imports the shared layer (api/,
 * components/, the top-level files), @sundial/core and packages, never another feature; the shared
 * layer imports no feature and not the shell. The imports across features that remain today are
 * listed in CROSSING with their count, so a new one fails and a list that went stale fails too: it
 * can only shrink (issue 32). Core is checked in packages/core (architecture.test.ts there).
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);

/** "from -> to": how many imports of feature `to` feature `from` still makes. */
const CROSSING: Record<string, number> = {
  'auth -> profile': 1,
  'team -> profile': 1,
};

interface SourceFile {
  /** Path relative to apps/web/src, with forward slashes. */
  path: string;
  source: string;
}

const IMPORT = /(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g;

const featureOf = (p: string) => /^features\/([^/]+)\//.exec(p)?.[1];
const isShared = (p: string) => p.startsWith('api/') || p.startsWith('components/');

/** Imports across features counted per pair, and the shared layer's imports of features or the shell. */
export function webViolations(files: SourceFile[], crossing: Record<string, number>): string[] {
  const counted = new Map<string, number>();
  const violations: string[] = [];
  for (const file of files) {
    for (const match of file.source.matchAll(IMPORT)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), match[1] ?? match[2] ?? ''));
      const from = featureOf(file.path);
      const to = featureOf(target);
      if (from && to && from !== to) counted.set(`${from} -> ${to}`, (counted.get(`${from} -> ${to}`) ?? 0) + 1);
      if (isShared(file.path) && (to || target.startsWith('shell/')))
        violations.push(`${file.path} -> ${target}: the shared layer imports no feature and not the shell`);
    }
  }
  for (const pair of new Set([...counted.keys(), ...Object.keys(crossing)])) {
    const found = counted.get(pair) ?? 0;
    const allowed = crossing[pair] ?? 0;
    if (found !== allowed)
      violations.push(`${pair}: ${found} imports, CROSSING says ${allowed} (features import the shared layer)`);
  }
  return violations.sort();
}

function sourceFiles(): SourceFile[] {
  return fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name))
    .map((name) => ({ path: name.split(path.sep).join('/'), source: fs.readFileSync(path.join(SRC, name), 'utf8') }));
}

describe('web import rules', () => {
  it('hold for the web source, but for the crossings CROSSING lists', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(webViolations(files, CROSSING)).toEqual([]);
  });

  it('catch a new crossing, a stale count, and the shared layer reaching into a feature', () => {
    const files: SourceFile[] = [
      { path: 'features/reports/pages/A.tsx', source: "import { x } from '../../timesheet/api';" },
      { path: 'features/reports/pages/B.tsx', source: "import { y } from '../../../api/time';" },
      { path: 'components/C.tsx', source: "import { z } from '../features/auth/api';" },
      { path: 'api/D.ts', source: "export { w } from '../shell/Shell';" },
    ];
    expect(webViolations(files, { 'team -> rates': 1 })).toEqual([
      'api/D.ts -> shell/Shell: the shared layer imports no feature and not the shell',
      'components/C.tsx -> features/auth/api: the shared layer imports no feature and not the shell',
      'reports -> timesheet: 1 imports, CROSSING says 0 (features import the shared layer)',
      'team -> rates: 0 imports, CROSSING says 1 (features import the shared layer)',
    ]);
  });
});
