import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Attendance's first tables (issue 37): a workspace's place for public holidays and its
 * working-time rules, and people's contracts over time, each from a day until the next
 * (docs/decisions/0026-working-time-and-leave.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table attendance_settings (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      country text check (country ~ '^[A-Z]{2}$'),
      region text,
      rules text check (rules in ('de')),
      add_legal_breaks boolean not null default false,
      updated_at timestamptz not null default now(),
      check (region is null or country is not null)
    );

    create table work_contracts (
      id uuid primary key,
      workspace_id uuid not null,
      user_id uuid not null,
      starts_on date not null,
      weekday_minutes integer[] not null
        check (cardinality(weekday_minutes) = 7 and 0 <= all (weekday_minutes) and 1440 >= all (weekday_minutes)),
      created_at timestamptz not null default now(),
      unique (workspace_id, user_id, starts_on),
      foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table work_contracts;
    drop table attendance_settings;
    `,
  );
}
