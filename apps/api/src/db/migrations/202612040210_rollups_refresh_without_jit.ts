import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The rollup triggers' recompute of a person's day without JIT. At 10M entries the planner costs
 * its insert above jit_above_cost (it expects a few hundred entries a person and day from the index),
 * so PostgreSQL compiled it on every write: one entry's insert took 0.27-1.6 s, ~0.3 s of it
 * compiling, and 24-56 ms without (bench/README.md, "(issue 14) 10M"). The statements are small
 * (one person's day), as the report engine's are when it turns JIT off for its own statements.
 * The coarse rollups' triggers sum a statement's rollup rows: small too.
 */
const FUNCTIONS = [
  'report_rollups_refresh(uuid[], uuid[], date[])',
  'report_rollups_coarse_insert()',
  'report_rollups_coarse_update()',
  'report_rollups_coarse_delete()',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(db, FUNCTIONS.map((f) => `alter function ${f} set jit = off;`).join('\n'));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, FUNCTIONS.map((f) => `alter function ${f} reset jit;`).join('\n'));
}
