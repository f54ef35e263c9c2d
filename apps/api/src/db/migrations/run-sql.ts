import { type Kysely, sql } from 'kysely';

/**
 * Runs a script of plain statements one by one (prepared statements take one command each).
 * Statements end with a semicolon at the end of a line; no function bodies here.
 */
export async function runSql(db: Kysely<unknown>, script: string): Promise<void> {
  const statements = script
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const statement of statements) await sql.raw(statement).execute(db);
}
