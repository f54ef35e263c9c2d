import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web's layers (docs/architecture.md): a feature (features/X) imports the shared layer (api/,
 * components/, the top-level files), @sundial/core and packages, never another feature; the shared
 * layer imports no feature and not the shell. What two features share lives in the shared layer
 * (issue 32 emptied the list of crossings this test once tolerated). Core is checked in
 * packages/core (architecture.test.ts there).
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);

interface SourceFile {
  /** Path relative to apps/web/src, with forward slashes. */
  path: string;
  source: string;
}

const IMPORT = /(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)/g;

const featureOf = (p: string) => /^features\/([^/]+)\//.exec(p)?.[1];
const isShared = (p: string) => p.startsWith('api/') || p.startsWith('components/');

/** Imports of another feature, and the shared layer's imports of features or the shell. */
export function webViolations(files: SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    for (const match of file.source.matchAll(IMPORT)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), match[1] ?? match[2] ?? ''));
      const from = featureOf(file.path);
      const to = featureOf(target);
      if (from && to && from !== to)
        violations.push(`${file.path} -> ${target}: a feature imports the shared layer, not another feature`);
      if (isShared(file.path) && (to || target.startsWith('shell/')))
        violations.push(`${file.path} -> ${target}: the shared layer imports no feature and not the shell`);
    }
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
  it('hold for the web source', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(webViolations(files)).toEqual([]);
  });

  it('catch a feature importing another, and the shared layer reaching into a feature or the shell', () => {
    const files: SourceFile[] = [
      { path: 'features/reports/pages/A.tsx', source: "import { x } from '../../timesheet/api';" },
      { path: 'features/reports/pages/B.tsx', source: "import { y } from '../../../api/time';" },
      { path: 'components/C.tsx', source: "import { z } from '../features/auth/api';" },
      { path: 'api/D.ts', source: "export { w } from '../shell/Shell';" },
    ];
    expect(webViolations(files)).toEqual([
      'api/D.ts -> shell/Shell: the shared layer imports no feature and not the shell',
      'components/C.tsx -> features/auth/api: the shared layer imports no feature and not the shell',
      'features/reports/pages/A.tsx -> features/timesheet/api: a feature imports the shared layer, not another feature',
    ]);
  });
});
