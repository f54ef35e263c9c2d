import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * A workspace's logo (issue 15: the PDF exports show it beside the workspace's name). At most one
 * per workspace, PNG or JPEG up to 256 KB, kept in the database with its checked size in pixels so
 * a restore of the database restores it too; removing the workspace removes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table workspace_logos (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      content_type text not null check (content_type in ('image/png', 'image/jpeg')),
      width integer not null check (width > 0),
      height integer not null check (height > 0),
      data bytea not null check (octet_length(data) <= 262144),
      updated_by_user_id uuid,
      updated_at timestamptz not null default now()
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists workspace_logos;');
}
