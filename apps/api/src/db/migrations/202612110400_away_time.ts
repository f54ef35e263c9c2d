import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Away time (issue 35): the workspace's away activities (null: the starter list of core's
 * DEFAULT_AWAY_ACTIVITIES), and what each person said an away period was, one row per period of
 * theirs (its start names it): a time entry it made, a break, or dismissed. The entry an outcome
 * made is the time-entries module's; undoing the resolution leaves it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table computer_time_settings add column away_activities jsonb;
    create table away_resolutions (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      started_at timestamptz not null,
      ended_at timestamptz not null,
      outcome text not null check (outcome in ('entry', 'break', 'dismissed')),
      activity_id text,
      time_entry_id uuid,
      entries_with_break integer not null default 0,
      idempotency_key text,
      created_at timestamptz not null default now(),
      primary key (workspace_id, user_id, started_at),
      check (ended_at > started_at)
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table away_resolutions;
    alter table computer_time_settings drop column away_activities;
    `,
  );
}
