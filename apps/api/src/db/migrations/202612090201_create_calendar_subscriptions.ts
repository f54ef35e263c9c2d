import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * A person's own calendars, subscribed by their secret ICS address (sealed: it is a credential),
 * the timed events of the last refresh (each occurrence of a recurring event one row, keyed by its
 * UID and original start), the project and task last given to an event's series, and keyword rules
 * that propose a project from an event's title.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table calendar_subscriptions (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      name text not null,
      host text not null,
      url_sealed text not null,
      created_at timestamptz not null default now(),
      refreshed_at timestamptz,
      last_error text
    );
    create index calendar_subscriptions_owner on calendar_subscriptions (workspace_id, user_id);
    create table calendar_events (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      subscription_id uuid not null references calendar_subscriptions(id) on delete cascade,
      uid text not null,
      occurrence text not null,
      recurring boolean not null,
      title text not null,
      location text not null,
      start_at timestamptz not null,
      end_at timestamptz not null,
      time_entry_id uuid references time_entries(id) on delete set null,
      unique (subscription_id, uid, occurrence)
    );
    create index calendar_events_range on calendar_events (subscription_id, start_at);
    create table calendar_event_choices (
      workspace_id uuid not null references workspaces(id) on delete cascade,
      subscription_id uuid not null references calendar_subscriptions(id) on delete cascade,
      uid text not null,
      project_id uuid references projects(id) on delete cascade,
      task_id uuid references tasks(id) on delete set null,
      updated_at timestamptz not null default now(),
      primary key (subscription_id, uid)
    );
    create table calendar_rules (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      contains text not null,
      project_id uuid not null references projects(id) on delete cascade,
      task_id uuid references tasks(id) on delete cascade,
      created_at timestamptz not null default now()
    );
    create index calendar_rules_owner on calendar_rules (workspace_id, user_id);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table calendar_rules;
    drop table calendar_event_choices;
    drop table calendar_events;
    drop table calendar_subscriptions;
    `,
  );
}
