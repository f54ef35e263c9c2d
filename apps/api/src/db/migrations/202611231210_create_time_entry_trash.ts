import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Deleted time entries kept for a short while (with their tags and breaks, as JSON) so Undo
 * brings back the very same entry. Old rows are pruned by the API.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table time_entry_trash (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      entry_id uuid not null,
      user_id uuid not null,
      deleted_by_user_id uuid,
      deleted_at timestamptz not null default now(),
      data jsonb not null,
      primary key (workspace_id, entry_id),
      foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    create index time_entry_trash_deleted_idx on time_entry_trash (deleted_at);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists time_entry_trash;');
}
