import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Each person chooses how durations are shown: h:mm:ss (the default, so a 40-second entry is not
 * "0:00"), h:mm or decimal hours. Screens, reports and exports read it through core's formatDuration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `alter table users add column duration_format text not null default 'h:mm:ss'
      constraint users_duration_format_check check (duration_format in ('h:mm:ss', 'h:mm', 'decimal'));`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'alter table users drop column if exists duration_format;');
}
