import type { ActivityKeep, AgentPlatform, AwayActivity, AwayOutcome } from '@sundial/core';
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A pairing in progress (migration 202612100100): the agent's secret by its hash, the person's code as letters. */
export interface AgentDeviceCodesTable {
  id: string;
  device_code_hash: string;
  /** Eight letters without the dash. */
  user_code: string;
  name: string;
  platform: AgentPlatform;
  agent_version: string;
  created_at: Timestamp;
  expires_at: Date;
  last_polled_at: Date | null;
  /** Who approved (or denied) it, and in which workspace. */
  user_id: string | null;
  workspace_id: string | null;
  approved_at: Date | null;
  denied_at: Date | null;
}

/** A paired computer: its token's hash, its person and workspace. */
export interface AgentDevicesTable {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  platform: AgentPlatform;
  agent_version: string;
  token_hash: string;
  created_at: Timestamp;
  last_seen_at: Date | null;
  revoked_at: Date | null;
}

export interface ComputerTimeSettingsTable {
  workspace_id: string;
  keep: ActivityKeep;
  idle_seconds: number;
  retention_days: number | null;
  managers_see_activity: boolean;
  exclusions: ColumnType<{ field: 'app' | 'title'; pattern: string }[], string, string>;
  /** When the starter categories were given (migration 202612100101); null: at the next read. */
  categories_seeded_at: Generated<Date | null>;
  /** The workspace's away activities (migration 202612110400); null: core's starter list. */
  away_activities: ColumnType<AwayActivity[] | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}

/** A group's own computer time settings (migration 202612110100); null: as the workspace. */
export interface ComputerTimeGroupSettingsTable {
  group_id: string;
  workspace_id: string;
  keep: ActivityKeep | null;
  managers_see_activity: boolean | null;
  updated_at: Timestamp;
}

/** What a person said one of their away periods was (migration 202612110400), named by its start. */
export interface AwayResolutionsTable {
  workspace_id: string;
  user_id: string;
  started_at: Date;
  ended_at: Date;
  outcome: AwayOutcome;
  activity_id: string | null;
  time_entry_id: string | null;
  entries_with_break: Generated<number>;
  /** The Idempotency-Key of the request that made it: its retry gets the same answer. */
  idempotency_key: string | null;
  created_at: Timestamp;
}

/** A category of computer time with its rules (migration 202612100101). */
export interface ActivityCategoriesTable {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  name: string;
  productivity: 'productive' | 'neutral' | 'unproductive' | null;
  rules: ColumnType<{ field: 'app' | 'title' | 'site'; pattern: string }[], string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ActivitySpansTable {
  id: string;
  workspace_id: string;
  user_id: string;
  device_id: string;
  kind: 'active' | 'away';
  started_at: Date;
  ended_at: Date;
  app: string | null;
  title: string | null;
  url: string | null;
  away_reason: 'idle' | 'locked' | 'suspended' | null;
  created_at: Timestamp;
}

/** Seconds of active spans per person, day in their time zone, and application. */
export interface ActivityDailyTable {
  workspace_id: string;
  user_id: string;
  day: ColumnType<string, string, string>;
  app: string;
  /** The pages' host, '' for time without a site (migration 202612110300). */
  site: string;
  seconds: number;
}

export interface ComputerTimeTables {
  agent_device_codes: AgentDeviceCodesTable;
  agent_devices: AgentDevicesTable;
  computer_time_settings: ComputerTimeSettingsTable;
  computer_time_group_settings: ComputerTimeGroupSettingsTable;
  activity_spans: ActivitySpansTable;
  activity_daily: ActivityDailyTable;
  activity_categories: ActivityCategoriesTable;
  away_resolutions: AwayResolutionsTable;
}
