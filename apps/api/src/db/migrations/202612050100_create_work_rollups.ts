import { type Kysely, sql } from 'kysely';
import {
  COARSE_EVENTS,
  type CoarseTables,
  coarseCompactFunction,
  coarseRebuildFunction,
  coarseTriggerFunction,
  createCoarseTable,
  FIRST_COARSE_TABLES,
  WORK_COARSE_TABLES,
} from './coarse-rollups.js';
import { runSql } from './run-sql.js';

/**
 * report_rollups_work_months and report_rollups_work_years: report_rollups per (workspace, month
 * or year, person, project, task, billable, invoiced), for the Summaries that group or filter by
 * both a person and a project (issue 14; the Summary page's default is project, then person).
 * report_rollups has a row per person, day and task: about one per entry when a member tracks a
 * few entries a day. A month of a member's work on a handful of projects and tasks is some dozens
 * of rows whatever the entries, and a year about as many again: the last 365 days of 1,000 members
 * read as this year less its last days, last December and the days before it, ~90,000 rows
 * instead of ~3.3M (or ~330,000 by month).
 *
 * Kept as the three tables of migration 202612040200 are (coarse-rollups.ts): the trigger
 * functions, the fold and the rebuild are replaced with ones that keep all four; the trigger
 * functions' JIT is turned off again (202612040210: CREATE OR REPLACE resets it).
 */
const WORK = WORK_COARSE_TABLES;
const TABLES: CoarseTables = { ...FIRST_COARSE_TABLES, ...WORK };

async function keep(db: Kysely<unknown>, tables: CoarseTables): Promise<void> {
  for (const event of COARSE_EVENTS) {
    await sql.raw(coarseTriggerFunction(tables, event)).execute(db);
    await sql.raw(`alter function report_rollups_coarse_${event}() set jit = off`).execute(db);
  }
  await sql.raw(coarseCompactFunction(tables)).execute(db);
  await sql.raw(coarseRebuildFunction(tables)).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, t] of Object.entries(WORK)) await runSql(db, createCoarseTable(table, t));
  await keep(db, TABLES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await keep(db, FIRST_COARSE_TABLES);
  await runSql(db, 'drop table if exists report_rollups_work_months;\ndrop table if exists report_rollups_work_years;');
}
