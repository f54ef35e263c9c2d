import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Imports read a file as it streams in (issue 13: 100 MB, 1M rows) and write it later in a job
 * that may run on another instance, so what was read waits in the database: one row per import
 * with its progress, and its valid rows staged in `import_rows` (docs/decisions/0006-imports.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table imports (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      created_by_user_id uuid not null references users (id) on delete cascade,
      source text not null,
      status text not null check (status in ('reading', 'ready', 'invalid', 'queued', 'importing', 'done', 'failed')),
      bytes_read bigint not null default 0,
      rows_read integer not null default 0,
      rows_imported integer not null default 0,
      error_count integer not null default 0,
      detail jsonb not null default '{}',
      message text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index imports_workspace_idx on imports (workspace_id, created_at);
    create table import_rows (
      import_id uuid not null references imports (id) on delete cascade,
      line integer not null,
      row jsonb not null,
      primary key (import_id, line)
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists import_rows;\ndrop table if exists imports;');
}
