import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table rate_limit_hits (
      bucket text not null,
      window_start timestamptz not null,
      window_end timestamptz not null,
      hits integer not null,
      primary key (bucket, window_start)
    );
    create index rate_limit_hits_window_end_idx on rate_limit_hits (window_end);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table rate_limit_hits;');
}
