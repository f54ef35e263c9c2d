import type { RoundingMinutes, RoundingMode } from '@sundial/core';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from '../tables.js';

export interface TimeEntriesTable {
  id: string;
  workspace_id: string;
  user_id: string;
  project_id: string | null;
  task_id: string | null;
  note: Generated<string>;
  billable: Generated<boolean>;
  start_at: Date;
  /** null while the timer runs */
  end_at: Date | null;
  /** work seconds without breaks, set when the entry has an end */
  duration_seconds: number | null;
  /** hourly rates in integer cents in force at the entry's start, copied on save; null = none */
  billable_rate_cents: Generated<number | null>;
  cost_rate_cents: Generated<number | null>;
  /** when the entry was marked invoiced; null = not invoiced */
  invoiced_at: Generated<Date | null>;
  created_by_user_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TimeEntryTagsTable {
  workspace_id: string;
  entry_id: string;
  tag_id: string;
}

export interface TimeEntryBreaksTable {
  id: string;
  workspace_id: string;
  entry_id: string;
  start_at: Date;
  end_at: Date | null;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  user_id: string;
  key: string;
  operation: string;
  status: number | null;
  body: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface TimeSettingsTable {
  workspace_id: string;
  require_project: Generated<boolean>;
  require_task: Generated<boolean>;
  require_tag: Generated<boolean>;
  require_note: Generated<boolean>;
  rounding_mode: Generated<RoundingMode>;
  rounding_minutes: Generated<RoundingMinutes>;
  max_entry_minutes: Generated<number>;
  future_limit_minutes: Generated<number>;
  report_time_zone: Generated<string>;
  /** False from a change of the report zone or rounding until the rollups are rebuilt in them (a job). */
  rollups_ready: Generated<boolean>;
  /** Counts changes of the report zone and rounding: a rebuild marks ready only what it rebuilt for. */
  rollups_version: Generated<number>;
  updated_at: Timestamp;
}

/** A deleted entry (EntryWithRelations as JSON) that Undo can bring back for a short while. */
export interface TimeEntryTrashTable {
  workspace_id: string;
  entry_id: string;
  user_id: string;
  deleted_by_user_id: string | null;
  deleted_at: Timestamp;
  data: ColumnType<unknown, string, string>;
}

/** The longest finished entry a workspace ever stored; triggers keep it, a range query bounds start_at with it. */
export interface TimeEntryExtentsTable {
  workspace_id: string;
  longest_seconds: number;
}

/** Tables of time tracking. */
export interface TimeEntriesTables {
  time_entries: TimeEntriesTable;
  time_entry_tags: TimeEntryTagsTable;
  time_entry_breaks: TimeEntryBreaksTable;
  idempotency_keys: IdempotencyKeysTable;
  time_settings: TimeSettingsTable;
  time_entry_trash: TimeEntryTrashTable;
  time_entry_extents: TimeEntryExtentsTable;
}

export type TimeEntryRow = Selectable<TimeEntriesTable>;
export type TimeEntryBreakRow = Selectable<TimeEntryBreaksTable>;
export type TimeSettingsRow = Selectable<TimeSettingsTable>;
