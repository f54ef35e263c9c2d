import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Timesheet approvals and locks (issue 17): one row per submission of a person's period (a week or
 * a month), at most one live (submitted or approved) per person and period start; a rejected or
 * withdrawn one stays as history. Each workspace's approval settings: the period, who approves,
 * and the lock date before which only owners and admins change time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table approvals (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      period_start date not null,
      period_end date not null,
      status text not null check (status in ('submitted', 'approved', 'rejected', 'withdrawn')),
      comment text not null default '',
      submitted_at timestamptz not null default now(),
      decided_at timestamptz,
      decided_by_user_id uuid references users (id) on delete set null,
      updated_at timestamptz not null default now(),
      constraint approvals_period_order check (period_end >= period_start)
    );
    create unique index approvals_live_period_key on approvals (workspace_id, user_id, period_start)
      where status in ('submitted', 'approved');
    create index approvals_user_period on approvals (workspace_id, user_id, period_end)
      where status in ('submitted', 'approved');
    create index approvals_workspace_status on approvals (workspace_id, status, period_start);

    create table approval_settings (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      period text not null default 'week' check (period in ('week', 'month')),
      approver_rule text not null default 'managers_and_admins'
        check (approver_rule in ('managers_and_admins', 'admins_only')),
      lock_date date,
      updated_at timestamptz not null default now()
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists approval_settings;\ndrop table if exists approvals;');
}
