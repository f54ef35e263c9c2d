import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Time entries (a running timer is an entry without an end), their tags and breaks (pause and
 * resume), idempotency keys for retried writes, and each workspace's time settings.
 * Composite foreign keys keep every reference inside the entry's workspace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table time_entries (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null,
      project_id uuid,
      task_id uuid,
      note text not null default '',
      billable boolean not null default false,
      start_at timestamptz not null,
      end_at timestamptz,
      duration_seconds integer,
      created_by_user_id uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, id),
      check (end_at is null or end_at >= start_at),
      check ((end_at is null) = (duration_seconds is null)),
      foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade,
      foreign key (workspace_id, project_id) references projects (workspace_id, id) on delete set null (project_id),
      foreign key (workspace_id, project_id, task_id) references tasks (workspace_id, project_id, id)
        on delete set null (task_id) on update cascade,
      -- When a project goes, its entries lose the project first and the key above no longer
      -- matches; this one still clears the task that is deleted with the project.
      foreign key (workspace_id, task_id) references tasks (workspace_id, id) on delete set null (task_id)
    );
    create index time_entries_user_start_idx on time_entries (workspace_id, user_id, start_at);
    create index time_entries_start_idx on time_entries (workspace_id, start_at);
    create index time_entries_project_idx on time_entries (workspace_id, project_id, start_at);
    create unique index time_entries_one_running_key on time_entries (workspace_id, user_id) where end_at is null;

    create table time_entry_tags (
      workspace_id uuid not null,
      entry_id uuid not null,
      tag_id uuid not null,
      primary key (entry_id, tag_id),
      foreign key (workspace_id, entry_id) references time_entries (workspace_id, id) on delete cascade,
      foreign key (workspace_id, tag_id) references tags (workspace_id, id) on delete cascade
    );
    create index time_entry_tags_tag_idx on time_entry_tags (workspace_id, tag_id);

    create table time_entry_breaks (
      id uuid primary key,
      workspace_id uuid not null,
      entry_id uuid not null,
      start_at timestamptz not null,
      end_at timestamptz,
      check (end_at is null or end_at >= start_at),
      foreign key (workspace_id, entry_id) references time_entries (workspace_id, id) on delete cascade
    );
    create index time_entry_breaks_entry_idx on time_entry_breaks (entry_id, start_at);
    create unique index time_entry_breaks_open_key on time_entry_breaks (entry_id) where end_at is null;

    create table idempotency_keys (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null,
      key text not null,
      operation text not null,
      status integer,
      body jsonb,
      created_at timestamptz not null default now(),
      primary key (workspace_id, user_id, key)
    );
    create index idempotency_keys_created_idx on idempotency_keys (created_at);

    create table time_settings (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      require_project boolean not null default false,
      require_task boolean not null default false,
      require_tag boolean not null default false,
      require_note boolean not null default false,
      rounding_mode text not null default 'none' check (rounding_mode in ('none', 'up', 'down', 'nearest')),
      rounding_minutes integer not null default 15 check (rounding_minutes in (1, 5, 6, 10, 15, 30, 60)),
      max_entry_minutes integer not null default 1440 check (max_entry_minutes between 1 and 10080),
      future_limit_minutes integer not null default 1440 check (future_limit_minutes between 0 and 525600),
      updated_at timestamptz not null default now()
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table time_settings;
    drop table idempotency_keys;
    drop table time_entry_breaks;
    drop table time_entry_tags;
    drop table time_entries;
  `,
  );
}
