import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

export type JobState = 'queued' | 'running' | 'done' | 'dead';

/** One queued, running, finished or dead-lettered job (platform/jobs.ts). */
export interface JobsTable {
  id: string;
  name: string;
  payload: ColumnType<unknown, string, string>;
  state: Generated<JobState>;
  /** Runs started so far, the one under way included. */
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  /** Not before this instant: the enqueue time, a chosen time, or the next retry after backoff. */
  run_at: Timestamp;
  /** The worker running it, and until when its lease holds; a lapsed lease frees the job again. */
  locked_by: Generated<string | null>;
  locked_until: Generated<Date | null>;
  /** At most one queued or running job per (name, key). */
  singleton_key: Generated<string | null>;
  last_error: Generated<string | null>;
  created_at: Timestamp;
  finished_at: Generated<Date | null>;
}

/** One cron schedule; `next_run_at` moves forward by compare-and-set when its slot is enqueued. */
export interface JobSchedulesTable {
  name: string;
  cron: string;
  next_run_at: Date;
  last_run_at: Generated<Date | null>;
}

/** Tables of the job runner. */
export interface JobsTables {
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
}
