import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each table has one writing module (docs/architecture.md): the others call its service. This reads
 * every write in the API source (Kysely's insertInto / updateTable / deleteFrom / mergeInto, and
 * "insert into", "update", "delete from" in SQL text) and names its module (modules/X, or platform).
 * The schema's own writes (db/: migrations, triggers) are the schema's. Issue 32 emptied SHARED (the
 * tables several modules wrote): it stays as the one place an exception would have to be argued,
 * with exactly its writers, and the test fails on a stale entry too.
 */

const SRC = path.dirname(new URL(import.meta.url).pathname);

/** Tables with more than one writer, and who they are: none since issue 32. */
const SHARED: Record<string, string[]> = {};

interface SourceFile {
  /** Path relative to apps/api/src, with forward slashes. */
  path: string;
  source: string;
}

const WRITE =
  /\b(?:insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"]([a-z_]+)(?:\s+as\s+\w+)?['"]|\b(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)\b/gi;

/** The module a source file belongs to: modules/X, or its top folder (platform). */
const writerOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1] ?? file.split('/')[0] ?? file;

/** Which modules write each of `tables` in `files` (words after "update" that are no table are left out). */
export function tableWriters(files: SourceFile[], tables: ReadonlySet<string>): Map<string, Set<string>> {
  const writers = new Map<string, Set<string>>();
  for (const file of files) {
    if (file.path.startsWith('db/')) continue;
    for (const match of file.source.matchAll(WRITE)) {
      const table = (match[1] ?? match[2] ?? '').toLowerCase();
      if (!tables.has(table)) continue;
      const set = writers.get(table) ?? new Set<string>();
      set.add(writerOf(file.path));
      writers.set(table, set);
    }
  }
  return writers;
}

/** Every table whose writers break the rule, as "table: writers (why)". */
export function writerViolations(writers: Map<string, Set<string>>, shared: Record<string, string[]>): string[] {
  const violations: string[] = [];
  for (const [table, set] of [...writers].sort(([a], [b]) => a.localeCompare(b))) {
    const found = [...set].sort();
    const allowed = shared[table];
    if (allowed && found.join(' ') !== [...allowed].sort().join(' '))
      violations.push(`${table}: written by ${found.join(', ')}; SHARED says ${allowed.join(', ')}`);
    else if (!allowed && found.length > 1)
      violations.push(`${table}: written by ${found.join(', ')}; one module owns it`);
  }
  for (const table of Object.keys(shared))
    if (!writers.has(table)) violations.push(`${table}: in SHARED but written by no module`);
  return violations;
}

function sourceFiles(): SourceFile[] {
  return fs
    .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.includes(`test${path.sep}`))
    .map((name) => ({ path: name.split(path.sep).join('/'), source: fs.readFileSync(path.join(SRC, name), 'utf8') }));
}

/** The tables the migrations create. */
function tablesOfSchema(): Set<string> {
  const dir = path.join(SRC, 'db', 'migrations');
  const tables = new Set<string>();
  for (const name of fs.readdirSync(dir))
    for (const match of fs
      .readFileSync(path.join(dir, name), 'utf8')
      .matchAll(/create\s+table\s+(?:if\s+not\s+exists\s+)?([a-z_]+)/gi))
      tables.add((match[1] ?? '').toLowerCase());
  return tables;
}

describe('table writers', () => {
  it('are one module a table, but for the tables SHARED lists', () => {
    const tables = tablesOfSchema();
    expect(tables.size).toBeGreaterThan(60);
    const writers = tableWriters(sourceFiles(), tables);
    expect(writers.get('time_entries')).toEqual(new Set(['time-entries']));
    expect(writerViolations(writers, SHARED)).toEqual([]);
  });

  it('catch a second writer of a table, in Kysely or in SQL text, and a SHARED entry gone stale', () => {
    const files: SourceFile[] = [
      { path: 'modules/time-entries/time-entries.repository.ts', source: "db.insertInto('time_entries')" },
      { path: 'modules/imports/imports.repository.ts', source: 'sql`update time_entries set note = ...`' },
      { path: 'modules/tags/tags.repository.ts', source: "db.deleteFrom('tags as t')" },
      { path: 'db/migrations/x.ts', source: 'insert into tags' },
    ];
    const writers = tableWriters(files, new Set(['time_entries', 'tags', 'clients']));
    expect(writerViolations(writers, { tags: ['imports', 'tags'], clients: ['clients'] })).toEqual([
      'tags: written by tags; SHARED says imports, tags',
      'time_entries: written by imports, time-entries; one module owns it',
      'clients: in SHARED but written by no module',
    ]);
  });
});
