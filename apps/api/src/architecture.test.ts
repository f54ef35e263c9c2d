import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import rules that keep the layers apart (ARCHITECTURE.md, "Rules that keep it sound"):
 * - a module (modules/X) never imports another module's routes or repository: it calls that
 *   module's service;
 * - platform/ is the ground floor: it never imports a feature module;
 * - config.ts is below it: reading the settings imports nothing of the app (a ring config ->
 *   platform -> db -> config once ran through it).
 * Tests are left out: a test may set up its data through any module.
 */

interface SourceFile {
  /** Path relative to apps/api/src, with forward slashes. */
  path: string;
  source: string;
}

const IMPORT =
  /(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** The relative imports of a file, resolved to paths relative to src (`.js` read as `.ts`). */
export function importsOf(file: SourceFile): string[] {
  const found: string[] = [];
  for (const match of file.source.matchAll(IMPORT)) {
    const target = match[1] ?? match[2] ?? match[3];
    if (!target?.startsWith('.')) continue;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), target));
    // "./x.js" and "./x" (an import without its extension) both name x.ts.
    found.push(`${resolved.replace(/\.(js|ts)$/, '')}.ts`);
  }
  return found;
}

/** Values a file passes on from a repository (`export { x } from './x.repository.js'`; types may pass). */
const REEXPORT = /export\s+(?!type\s)[^;]*?from\s*['"]([^'"]+\.repository(?:\.js)?)['"]/g;

const moduleOf = (p: string) => /^modules\/([^/]+)\//.exec(p)?.[1];

/** Every import that breaks a rule, as "from -> to: why". */
export function importViolations(files: SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const owner = moduleOf(file.path);
    if (!file.path.endsWith('.repository.ts'))
      for (const [, target] of file.source.matchAll(REEXPORT))
        violations.push(`${file.path} re-exports ${target}: expose operations, not the repository`);
    for (const target of importsOf(file)) {
      const targetModule = moduleOf(target);
      if (file.path === 'config.ts') {
        violations.push(`${file.path} -> ${target}: config.ts imports nothing of the app`);
      } else if (file.path.startsWith('platform/') && targetModule) {
        violations.push(`${file.path} -> ${target}: platform/ never imports a feature module`);
      } else if (owner && targetModule && targetModule !== owner && /\.(routes|repository)\.ts$/.test(target)) {
        violations.push(`${file.path} -> ${target}: call the ${targetModule} service, not its routes or repository`);
      }
    }
  }
  return violations;
}

function sourceFiles(root: string): SourceFile[] {
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => ({
      path: name.split(path.sep).join('/'),
      source: fs.readFileSync(path.join(root, name), 'utf8'),
    }));
}

describe('import rules', () => {
  it('hold for the API source', () => {
    const files = sourceFiles(path.dirname(new URL(import.meta.url).pathname));
    expect(files.length).toBeGreaterThan(20);
    expect(importViolations(files)).toEqual([]);
  });

  it('catch a module importing another module’s routes or repository', () => {
    const source = [
      "import { actorOf } from '../projects/projects.routes.js';",
      "import type { Row } from '../groups/groups.repository.js';",
      "import { own } from './clients.repository.js';",
      "import { projects } from '../projects/projects.service.js';",
      "import { assertCan } from '../../platform/access.js';",
    ].join('\n');
    expect(importViolations([{ path: 'modules/clients/clients.service.ts', source }])).toEqual([
      'modules/clients/clients.service.ts -> modules/projects/projects.routes.ts: call the projects service, not its routes or repository',
      'modules/clients/clients.service.ts -> modules/groups/groups.repository.ts: call the groups service, not its routes or repository',
    ]);
  });

  it('catch platform importing a feature module, however the import is written', () => {
    const source = [
      "import type { User } from '../db/tables.js';",
      "export { usersRepository } from '../modules/users/users.repository.js';",
      "const lazy = await import('../modules/auth/auth.service.js');",
      "import {\n  a,\n  b,\n} from '../modules/members/members.service.js';",
    ].join('\n');
    expect(importViolations([{ path: 'platform/auth.ts', source }])).toEqual([
      'platform/auth.ts re-exports ../modules/users/users.repository.js: expose operations, not the repository',
      'platform/auth.ts -> modules/users/users.repository.ts: platform/ never imports a feature module',
      'platform/auth.ts -> modules/auth/auth.service.ts: platform/ never imports a feature module',
      'platform/auth.ts -> modules/members/members.service.ts: platform/ never imports a feature module',
    ]);
  });

  it('catch config.ts importing anything of the app', () => {
    const source = ["import { z } from 'zod';", "import { parseSecretsKey } from './platform/secrets.js';"].join('\n');
    expect(importViolations([{ path: 'config.ts', source }])).toEqual([
      'config.ts -> platform/secrets.ts: config.ts imports nothing of the app',
    ]);
  });

  it('catch an import without its extension and a service passing its repository on', () => {
    const source = [
      "import { rows } from '../projects/projects.repository';",
      "export { membersRepository as memberRecords } from './members.repository.js';",
      "export type { MemberRow } from './members.repository.js';",
    ].join('\n');
    expect(importViolations([{ path: 'modules/members/members.service.ts', source }])).toEqual([
      'modules/members/members.service.ts re-exports ./members.repository.js: expose operations, not the repository',
      'modules/members/members.service.ts -> modules/projects/projects.repository.ts: call the projects service, not its routes or repository',
    ]);
  });
});
