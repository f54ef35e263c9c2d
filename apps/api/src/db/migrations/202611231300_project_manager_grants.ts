import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Project-level grants: an assignment (to the whole project, not a task) may carry "Can manage",
 * which lets a Member assigned directly or through a group edit that project and its tasks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'alter table project_members add column can_manage boolean not null default false;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'alter table project_members drop column if exists can_manage;');
}
