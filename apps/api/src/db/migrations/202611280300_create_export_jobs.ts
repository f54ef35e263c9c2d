import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Export jobs (issue 15, docs/decisions/0009-export-jobs.md): a large export runs on the job
 * runner as its owner and writes the file into the database in chunks of about 1 MiB, so any API
 * process can serve it without a shared disk. `attempt` names the run whose chunks count: a retry
 * deletes the chunks of earlier runs, and only the run that marks the job done leaves its file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table export_jobs (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      owner_user_id uuid not null,
      kind text not null,
      format text not null check (format in ('csv', 'xlsx', 'pdf')),
      query text not null,
      status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
      attempt integer not null default 0,
      rows_done integer not null default 0,
      rows_total integer,
      file_name text,
      content_type text,
      size_bytes bigint,
      error text,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      expires_at timestamptz,
      unique (workspace_id, id),
      foreign key (workspace_id, owner_user_id) references memberships (workspace_id, user_id) on delete cascade
    );
    create index export_jobs_owner on export_jobs (workspace_id, owner_user_id, created_at desc);
    create index export_jobs_expiry on export_jobs (expires_at) where expires_at is not null;

    create table export_job_chunks (
      workspace_id uuid not null,
      job_id uuid not null,
      attempt integer not null,
      seq integer not null,
      data bytea not null,
      primary key (job_id, attempt, seq),
      foreign key (workspace_id, job_id) references export_jobs (workspace_id, id) on delete cascade
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table if exists export_job_chunks;\ndrop table if exists export_jobs;');
}
