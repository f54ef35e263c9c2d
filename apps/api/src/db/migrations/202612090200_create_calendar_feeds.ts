import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * A person's private iCalendar feed of their time in a workspace: one live feed per person and
 * workspace, kept only as the sha-256 of its secret address (shown once when made or reset), with
 * whether it includes the time of the people they manage. Reset and revoked feeds keep their row
 * (revoked_at) so the audit log's subjects stay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table calendar_feeds (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      token_hash text not null unique,
      include_team boolean not null default false,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create unique index calendar_feeds_live on calendar_feeds (workspace_id, user_id) where revoked_at is null;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table calendar_feeds;');
}
