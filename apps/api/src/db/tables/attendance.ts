import type { ColumnType } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A workspace's place for public holidays and its working-time rules (migration 202612110500). */
export interface AttendanceSettingsTable {
  workspace_id: string;
  country: string | null;
  region: string | null;
  rules: 'de' | null;
  add_legal_breaks: boolean;
  updated_at: Timestamp;
}

/** A person's contract from a day until their next one: minutes expected Monday ... Sunday. */
export interface WorkContractsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  starts_on: ColumnType<string, string, string>;
  weekday_minutes: number[];
  created_at: Timestamp;
}

export interface AttendanceTables {
  attendance_settings: AttendanceSettingsTable;
  work_contracts: WorkContractsTable;
}
