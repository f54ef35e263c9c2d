import { sql } from 'kysely';
import type { Db } from './connection.js';

/**
 * The tables a large write of time (an import, a seed, a rebuild of the rollups) fills: without
 * fresh statistics the planner costs them as empty, and a report or an export took 15.3 s instead
 * of 91 ms (issue 29). PGlite never analyses by itself; PostgreSQL's autovacuum does, later.
 */
export const ROLLUP_TABLES = [
  'report_rollups',
  'report_rollups_tasks',
  'report_rollups_task_months',
  'report_rollups_people_months',
  'report_rollups_work_months',
  'report_rollups_work_years',
  'report_rollups_pending',
] as const;
export const TIME_TABLES = ['time_entries', ...ROLLUP_TABLES] as const;

/** ANALYZE `tables` when `rows` written reach `threshold` (ANALYZE_AFTER_ROWS); run after the write commits. */
export async function analyzeAfterWrite(
  db: Db,
  o: { tables: readonly string[]; rows: number; threshold: number },
): Promise<boolean> {
  if (o.rows < o.threshold) return false;
  await analyzeTables(db, o.tables);
  return true;
}

/** ANALYZE `tables` now. */
export async function analyzeTables(db: Db, tables: readonly string[]): Promise<void> {
  if (tables.length === 0) return;
  await sql`analyze ${sql.join(tables.map((table) => sql.table(table)))}`.execute(db);
}

/** ANALYZE every table (the hourly job on PGlite, where autovacuum does not run). */
export async function analyzeAll(db: Db): Promise<void> {
  await sql`analyze`.execute(db);
}
