import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * E-mail schedules of saved reports (issue 15): at most one per saved report, its owner's. The
 * tick claims a due schedule by moving `next_run_at` forward with a compare-and-set, so however
 * many API processes tick, each slot is sent once. `last_sent_slot` makes a retried send that
 * already went out do nothing. Recipients are member ids and free addresses (jsonb arrays).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table report_schedules (
      id uuid primary key,
      workspace_id uuid not null,
      saved_report_id uuid not null,
      owner_user_id uuid not null,
      frequency text not null check (frequency in ('daily', 'weekly', 'monthly')),
      weekday smallint check (weekday between 0 and 6),
      month_day smallint check (month_day between 1 and 28),
      hour smallint not null check (hour between 0 and 23),
      time_zone text not null,
      format text not null check (format in ('pdf', 'xlsx', 'csv')),
      recipient_user_ids jsonb not null default '[]',
      recipient_emails jsonb not null default '[]',
      state text not null default 'active' check (state in ('active', 'paused', 'failed')),
      next_run_at timestamptz not null,
      last_sent_at timestamptz,
      last_sent_slot text,
      last_error text,
      failed_attempts integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (workspace_id, saved_report_id),
      foreign key (workspace_id, saved_report_id) references saved_reports (workspace_id, id) on delete cascade,
      foreign key (workspace_id, owner_user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    create index report_schedules_due on report_schedules (next_run_at) where state = 'active';
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists report_schedules;');
}
