import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * When an entry was marked invoiced (null: not invoiced), for the reports' "invoiced yes/no"
 * filter and their bulk "mark as invoiced". A later issue links entries to client invoices; it
 * can add its invoice reference beside this and keep the timestamp as the "invoiced" fact.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'alter table time_entries add column invoiced_at timestamptz;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'alter table time_entries drop column if exists invoiced_at;');
}
