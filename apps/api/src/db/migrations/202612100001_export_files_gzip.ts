import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * An export job's text file (CSV) is stored gzipped (issue 33): a year's 43 MB CSV is read back
 * from the database in a seventh of the bytes and sent as it is stored to a browser, which accepts
 * gzip; `size_bytes` stays the file's own size, `stored_bytes` is what the chunks hold.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table export_jobs
      add column content_encoding text constraint export_jobs_content_encoding check (content_encoding = 'gzip'),
      add column stored_bytes bigint;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'alter table export_jobs drop column stored_bytes, drop column content_encoding;');
}
