import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Budget alerts: each (project or task budget, period, threshold) crossed is recorded once
 * (`budget_alerts`, its unique key is what makes the alert go out once), and the in-app
 * notifications a member reads and marks read (`notifications`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table budget_alerts (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      project_id uuid not null,
      task_id uuid,
      period text not null,
      threshold smallint not null,
      used bigint not null,
      budget bigint not null,
      created_at timestamptz not null default now(),
      foreign key (workspace_id, project_id) references projects (workspace_id, id) on delete cascade,
      foreign key (workspace_id, task_id) references tasks (workspace_id, id) on delete cascade
    );
    create unique index budget_alerts_once on budget_alerts
      (project_id, coalesce(task_id, '00000000-0000-0000-0000-000000000000'::uuid), period, threshold);
    create table notifications (
      id uuid primary key,
      workspace_id uuid not null,
      user_id uuid not null,
      kind text not null,
      title text not null,
      body text not null,
      link text,
      read_at timestamptz,
      created_at timestamptz not null default now(),
      foreign key (workspace_id, user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    create index notifications_user_idx on notifications (workspace_id, user_id, created_at desc);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table notifications;
    drop table budget_alerts;
    `,
  );
}
