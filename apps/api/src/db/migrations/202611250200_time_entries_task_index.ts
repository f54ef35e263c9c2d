import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Deleting or archiving a task, and a task's totals, look entries up by task. Without this index
 * they scanned every entry of the table, across tenants (issue 13: 1M entries).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    'create index time_entries_task_idx on time_entries (workspace_id, task_id) where task_id is not null;',
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop index if exists time_entries_task_idx;');
}
