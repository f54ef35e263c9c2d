import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

export type ImportStatus = 'reading' | 'ready' | 'invalid' | 'queued' | 'importing' | 'done' | 'failed';

/** One uploaded import file: where it is, how far it got, and what it found (modules/imports). */
export interface ImportsTable {
  id: string;
  workspace_id: string;
  created_by_user_id: string;
  source: string;
  status: ImportStatus;
  bytes_read: Generated<number>;
  rows_read: Generated<number>;
  rows_imported: Generated<number>;
  error_count: Generated<number>;
  /** The preview (first rows, first errors) and the summary of what importing creates or created. */
  detail: ColumnType<unknown, string | undefined, string>;
  /** Why a queued import failed. */
  message: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A valid row read from an import file, waiting for the import job. */
export interface ImportRowsTable {
  import_id: string;
  line: number;
  row: ColumnType<unknown, string, string>;
}

export interface ImportsTables {
  imports: ImportsTable;
  import_rows: ImportRowsTable;
}
