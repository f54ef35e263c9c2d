import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The durable job runner (platform/jobs.ts, docs/decisions/0005-jobs.md): a queue that workers
 * claim with `for update skip locked`, and one row per cron schedule whose next slot is advanced
 * by compare-and-set, so a slot runs once however many processes tick.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table jobs (
      id uuid primary key,
      name text not null,
      payload jsonb not null default '{}',
      state text not null default 'queued' check (state in ('queued', 'running', 'done', 'dead')),
      attempts integer not null default 0,
      max_attempts integer not null default 5,
      run_at timestamptz not null default now(),
      locked_by text,
      locked_until timestamptz,
      singleton_key text,
      last_error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index jobs_due_idx on jobs (run_at) where state = 'queued';
    create index jobs_lease_idx on jobs (locked_until) where state = 'running';
    create index jobs_finished_idx on jobs (state, finished_at) where state in ('done', 'dead');
    create unique index jobs_singleton_idx on jobs (name, singleton_key)
      where singleton_key is not null and state in ('queued', 'running');
    create table job_schedules (
      name text primary key,
      cron text not null,
      next_run_at timestamptz not null,
      last_run_at timestamptz
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table job_schedules;
    drop table jobs;
  `,
  );
}
