import type { Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

export type ExportJobStatus = 'queued' | 'running' | 'done' | 'failed';

/** One large export run as a job for its owner (modules/exports). */
export interface ExportJobsTable {
  id: string;
  workspace_id: string;
  owner_user_id: string;
  kind: string;
  format: 'csv' | 'xlsx' | 'pdf';
  /** The report's query string, as the synchronous export takes it. */
  query: string;
  status: Generated<ExportJobStatus>;
  /** The run whose chunks make the file. */
  attempt: Generated<number>;
  rows_done: Generated<number>;
  rows_total: Generated<number | null>;
  file_name: Generated<string | null>;
  content_type: Generated<string | null>;
  /** The file's own size (unencoded). */
  size_bytes: Generated<string | number | null>;
  /** How the chunks hold it: gzipped (a CSV), or as it is (null: XLSX and PDF are compressed already). */
  content_encoding: Generated<'gzip' | null>;
  /** The bytes the chunks hold (migration 202612100001; null for files stored before it: size_bytes). */
  stored_bytes: Generated<string | number | null>;
  error: Generated<string | null>;
  created_at: Timestamp;
  started_at: Generated<Date | null>;
  finished_at: Generated<Date | null>;
  expires_at: Generated<Date | null>;
}

/** A piece of an export job's file, in order of `seq`. */
export interface ExportJobChunksTable {
  workspace_id: string;
  job_id: string;
  attempt: number;
  seq: number;
  data: Buffer | Uint8Array;
}

export interface ExportJobsTables {
  export_jobs: ExportJobsTable;
  export_job_chunks: ExportJobChunksTable;
}
