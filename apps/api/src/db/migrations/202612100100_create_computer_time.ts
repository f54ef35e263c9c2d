import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Computer time (issue 35): the desktop agent pairs by device code (codes kept by their hash, ten
 * minutes, used once), then signs with a device token (its hash) of one person in one workspace.
 * It uploads spans (about 1,500 a person a day) into `activity_spans`, read by person and start;
 * `activity_daily` keeps the seconds per person, day (their time zone) and application, written
 * in the same transaction. The workspace's settings say what is kept and for how long
 * (docs/decisions/0025-activity-storage.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table agent_device_codes (
      id uuid primary key,
      device_code_hash text not null unique,
      user_code text not null unique,
      name text not null,
      platform text not null check (platform in ('linux', 'darwin', 'win32')),
      agent_version text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      last_polled_at timestamptz,
      user_id uuid references users (id) on delete cascade,
      workspace_id uuid references workspaces (id) on delete cascade,
      approved_at timestamptz,
      denied_at timestamptz
    );
    create index agent_device_codes_expiry on agent_device_codes (expires_at);

    create table agent_devices (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      name text not null,
      platform text not null check (platform in ('linux', 'darwin', 'win32')),
      agent_version text not null,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz,
      revoked_at timestamptz
    );
    create index agent_devices_user on agent_devices (user_id) where revoked_at is null;

    create table computer_time_settings (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      keep text not null default 'titles' check (keep in ('apps', 'titles', 'sites')),
      idle_seconds integer not null default 180 check (idle_seconds between 60 and 3600),
      retention_days integer check (retention_days is null or retention_days between 30 and 3650),
      managers_see_activity boolean not null default false,
      exclusions jsonb not null default '[]',
      updated_at timestamptz not null default now()
    );

    create table activity_spans (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      device_id uuid not null references agent_devices (id) on delete cascade,
      kind text not null check (kind in ('active', 'away')),
      started_at timestamptz not null,
      ended_at timestamptz not null,
      app text,
      title text,
      url text,
      away_reason text check (away_reason in ('idle', 'locked', 'suspended')),
      created_at timestamptz not null default now(),
      constraint activity_spans_order check (ended_at > started_at)
    );
    create index activity_spans_person_start on activity_spans (workspace_id, user_id, started_at);
    create index activity_spans_device on activity_spans (device_id);
    create index activity_spans_start on activity_spans (started_at);

    create table activity_daily (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      day date not null,
      app text not null,
      seconds integer not null check (seconds > 0),
      primary key (workspace_id, user_id, day, app)
    );
    create index activity_daily_day on activity_daily (workspace_id, day);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table activity_daily;
    drop table activity_spans;
    drop table computer_time_settings;
    drop table agent_devices;
    drop table agent_device_codes;
    `,
  );
}
