import type { RateLevel } from '@sundial/core';
import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../tables.js';

/** One hourly rate of a level from a day on (never rewritten: a change is a new row). */
export interface RatesTable {
  id: string;
  workspace_id: string;
  level: RateLevel;
  user_id: string | null;
  project_id: string | null;
  task_id: string | null;
  /** A calendar day (YYYY-MM-DD), compared with the entry's start day in its owner's time zone. */
  effective_from: string;
  billable_cents: number | null;
  cost_cents: number | null;
  created_by_user_id: string | null;
  created_at: Timestamp;
}

export interface RateSettingsTable {
  workspace_id: string;
  currency: Generated<string>;
  managers_see_costs: Generated<boolean>;
  members_see_own_billable: Generated<boolean>;
  updated_at: Timestamp;
}

export interface RatesTables {
  rates: RatesTable;
  rate_settings: RateSettingsTable;
}

export type RateRow = Selectable<RatesTable>;
export type RateSettingsRow = Selectable<RateSettingsTable>;
