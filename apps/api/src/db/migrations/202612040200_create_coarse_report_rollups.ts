import { type Kysely, sql } from 'kysely';
import {
  COARSE_EVENTS,
  COARSE_REFERENCING,
  coarseCompactFunction,
  coarseRebuildFunction,
  coarseTriggerFunction,
  createCoarseTable,
  FIRST_COARSE_TABLES,
} from './coarse-rollups.js';
import { runSql } from './run-sql.js';

/**
 * Coarser sums of report_rollups for the reports of a large workspace (issue 14: any Summary of
 * 10M entries within 1 s). report_rollups has a row per (day, person, project, task, billable,
 * invoiced): in a workspace where everyone tracks a few entries a day over many projects, as many
 * rows as entries. These drop a dimension or two, so their rows are bounded by the catalogue and
 * the calendar, not the entries:
 *
 * - report_rollups_tasks: per (workspace, day, project, task, billable, invoiced), no person;
 * - report_rollups_task_months: the same per month (`month` is its first day);
 * - report_rollups_people_months: per (workspace, month, person, billable, invoiced), no project.
 *
 * Each holds `rollup_rows` (how many report_rollups rows it sums), seconds, billable and cost cents.
 * Kept by statement triggers on report_rollups itself, so every path that keeps report_rollups
 * (entry and break writes, imports, bulk edits, the rebuild job) keeps these too. A trigger does
 * not update rows in place: it appends the statement's signed deltas, summed per key, as `fresh`
 * rows. Writers therefore never wait for one another on these tables and never deadlock (two
 * writers of different people on the same day and task would otherwise lock the same row, in
 * whatever order their statements came). Where a day holds fresh rows the reader sums each key's rows,
 * and a key whose rows add up to no report_rollups row (`sum(rollup_rows) = 0`: an entry moved
 * elsewhere) is no group; a folded day has one row per key, each summing at least one.
 * `report_rollups_compact` folds a workspace's fresh rows into one row per key (the job that
 * rebuilds stale rollups runs it every minute); it deletes and reinserts the touched days or
 * months in one statement, so a reader sees either the rows before or after. That job's rebuild
 * of stale rollups (a new zone or rounding) runs with the triggers off
 * (`sundial.coarse_rollups_off`) and ends with `report_rollups_coarse_rebuild`, one pass from
 * report_rollups; nothing reads the coarse rows while the workspace is stale.
 */
const TABLES = FIRST_COARSE_TABLES;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, t] of Object.entries(TABLES)) await runSql(db, createCoarseTable(table, t));
  for (const event of COARSE_EVENTS) {
    await sql.raw(coarseTriggerFunction(TABLES, event)).execute(db);
    await sql
      .raw(`create trigger report_rollups_coarse_${event} after ${event} on report_rollups
        referencing ${COARSE_REFERENCING[event]} for each statement execute function report_rollups_coarse_${event}()`)
      .execute(db);
  }
  await sql.raw(coarseCompactFunction(TABLES)).execute(db);
  await sql.raw(coarseRebuildFunction(TABLES)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop function if exists report_rollups_coarse_rebuild(uuid);
    drop function if exists report_rollups_compact(uuid);
    drop trigger if exists report_rollups_coarse_insert on report_rollups;
    drop trigger if exists report_rollups_coarse_update on report_rollups;
    drop trigger if exists report_rollups_coarse_delete on report_rollups;
    drop function if exists report_rollups_coarse_insert();
    drop function if exists report_rollups_coarse_update();
    drop function if exists report_rollups_coarse_delete();
    drop table if exists report_rollups_tasks;
    drop table if exists report_rollups_task_months;
    drop table if exists report_rollups_people_months;
    `,
  );
}
