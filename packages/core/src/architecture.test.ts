import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };

/**
 * Core is shared by the API and the browser: it imports nothing of the apps, nothing of Node and no
 * package it does not declare (so the web bundle can take it as it is; issue 32).
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);
const IMPORT = /(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every import of core's sources that breaks the rule, as "file -> import: why". */
export function coreViolations(files: { path: string; source: string }[], declared: ReadonlySet<string>): string[] {
  const violations: string[] = [];
  for (const file of files)
    for (const match of file.source.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      if (spec.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), spec));
        if (target.startsWith('..')) violations.push(`${file.path} -> ${spec}: core imports nothing outside itself`);
      } else if (spec.startsWith('node:')) {
        violations.push(`${file.path} -> ${spec}: core runs in the browser too, no Node modules`);
      } else {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);
        if (!declared.has(name)) violations.push(`${file.path} -> ${spec}: not a dependency of @sundial/core`);
      }
    }
  return violations;
}

describe('core', () => {
  const declared = new Set(Object.keys(pkg.dependencies));

  it('imports only itself and its declared packages, nothing of Node or the apps', () => {
    const files = fs
      .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => ({ path: name.split(path.sep).join('/'), source: fs.readFileSync(path.join(SRC, name), 'utf8') }));
    expect(files.length).toBeGreaterThan(30);
    expect(coreViolations(files, declared)).toEqual([]);
  });

  it('catches a planted Node import, an app import and an undeclared package', () => {
    const source = [
      "import fs from 'node:fs';",
      "import { db } from '../../../apps/api/src/db/connection.js';",
      "import React from 'react';",
      "import { z } from 'zod';",
      "import { format } from 'date-fns/format';",
      "import { money } from '../money.js';",
    ].join('\n');
    expect(coreViolations([{ path: 'time/x.ts', source }], declared)).toEqual([
      'time/x.ts -> node:fs: core runs in the browser too, no Node modules',
      'time/x.ts -> ../../../apps/api/src/db/connection.js: core imports nothing outside itself',
      'time/x.ts -> react: not a dependency of @sundial/core',
    ]);
  });
});
