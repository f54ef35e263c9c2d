import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table users (
      id uuid primary key,
      email text not null,
      password_hash text not null,
      name text not null default '',
      phone text,
      time_zone text not null default 'UTC',
      week_start text not null default 'monday',
      date_format text not null default 'YYYY-MM-DD',
      time_format text not null default '24h',
      current_workspace_id uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));

    create table workspaces (
      id uuid primary key,
      name text not null,
      plan text not null default 'free' check (plan in ('free', 'basic', 'pro', 'enterprise')),
      trial_ends_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table memberships (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      role text not null check (role in ('owner', 'admin', 'manager', 'member', 'guest')),
      status text not null default 'active' check (status in ('active', 'disabled')),
      created_at timestamptz not null default now(),
      primary key (workspace_id, user_id)
    );
    create index memberships_user_idx on memberships (user_id);
    create unique index memberships_one_owner on memberships (workspace_id) where role = 'owner';

    create table sessions (
      id_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      remember boolean not null default false,
      user_agent text,
      ip text,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      idle_expires_at timestamptz not null,
      expires_at timestamptz not null
    );
    create index sessions_user_idx on sessions (user_id);

    create table password_resets (
      token_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index password_resets_user_idx on password_resets (user_id);

    create table login_attempts (
      id bigint generated always as identity primary key,
      email text not null,
      ip text not null,
      success boolean not null,
      created_at timestamptz not null default now()
    );
    create index login_attempts_email_idx on login_attempts (email, created_at);
    create index login_attempts_ip_idx on login_attempts (ip, created_at);

    create table outbox (
      id uuid primary key,
      to_address text not null,
      subject text not null,
      text_body text not null,
      html_body text,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      error text
    );

    create table audit_log (
      id uuid primary key,
      workspace_id uuid references workspaces (id) on delete cascade,
      actor_user_id uuid references users (id) on delete set null,
      action text not null,
      subject_id uuid,
      detail jsonb not null default '{}',
      created_at timestamptz not null default now()
    );
    create index audit_log_workspace_idx on audit_log (workspace_id, created_at);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table audit_log;
    drop table outbox;
    drop table login_attempts;
    drop table password_resets;
    drop table sessions;
    drop table memberships;
    drop table workspaces;
    drop table users;
  `,
  );
}
