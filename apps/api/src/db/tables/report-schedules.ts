import type { ScheduleFormat, ScheduleFrequency, ScheduleState } from '@sundial/core';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from '../tables.js';

type JsonList = ColumnType<string[], string, string>;

/** A saved report's e-mail schedule (one per report, its owner's). */
export interface ReportSchedulesTable {
  id: string;
  workspace_id: string;
  saved_report_id: string;
  owner_user_id: string;
  frequency: ScheduleFrequency;
  weekday: number | null;
  month_day: number | null;
  hour: number;
  time_zone: string;
  format: ScheduleFormat;
  recipient_user_ids: JsonList;
  recipient_emails: JsonList;
  state: Generated<ScheduleState>;
  next_run_at: Timestamp;
  last_sent_at: Date | null;
  /** The slot (next_run_at, or "manual:<id>") of the last send that went out. */
  last_sent_slot: string | null;
  last_error: string | null;
  failed_attempts: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReportSchedulesTables {
  report_schedules: ReportSchedulesTable;
}

export type ReportScheduleRow = Selectable<ReportSchedulesTable>;
