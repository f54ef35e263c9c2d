// npm run db:new -- add_invoice_numbers
// Writes apps/api/src/db/migrations/<yyyymmddhhmm>_<name>.ts with empty up/down and lists it in
// migrations/index.ts, after every migration already there (names sort in the order they run).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/api/src/db/migrations');
const name = process.argv[2];
if (!name || !/^[a-z][a-z0-9_]*$/.test(name)) {
  console.error('Usage: npm run db:new -- <name in snake_case, e.g. add_invoice_numbers>');
  process.exit(1);
}

const indexFile = path.join(dir, 'index.ts');
const index = fs.readFileSync(indexFile, 'utf8');
const last =
  [...index.matchAll(/'(\d{12})_[a-z0-9_]+': m\d{12},/g)]
    .map((m) => m[1])
    .sort()
    .at(-1) ?? '0';
const now = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 12);
// Never before the newest one, even when its stamp is ahead of this machine's clock.
const stamp = now > last ? now : String(BigInt(last) + 1n);
const id = `${stamp}_${name}`;

fs.writeFileSync(
  path.join(dir, `${id}.ts`),
  `import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/** Why this change: what it makes possible or what it fixes. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(db, '');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, '');
}
`,
);
const lines = index.split('\n');
const lastImport = lines.findLastIndex((line) => line.startsWith('import * as m'));
lines.splice(lastImport + 1, 0, `import * as m${stamp} from './${id}.js';`);
const lastEntry = lines.findLastIndex((line) => /^ {2}'\d{12}_/.test(line));
lines.splice(lastEntry + 1, 0, `  '${id}': m${stamp},`);
fs.writeFileSync(indexFile, lines.join('\n'));
console.log(`Created apps/api/src/db/migrations/${id}.ts; fill in up and down.`);
