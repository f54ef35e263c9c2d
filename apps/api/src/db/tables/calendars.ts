import type { Timestamp } from '../tables.js';

/** A person's private feed of their time, by its sha-256 only (migration 202612090200). */
export interface CalendarFeedsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  token_hash: string;
  include_team: boolean;
  created_at: Timestamp;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** A calendar a person subscribed to by its secret ICS address (migration 202612090201). */
export interface CalendarSubscriptionsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  /** The address's host, to show; the address itself is sealed. */
  host: string;
  url_sealed: string;
  created_at: Timestamp;
  refreshed_at: Date | null;
  last_error: string | null;
}

/** One timed occurrence of a subscribed calendar's event, as of its last refresh. */
export interface CalendarEventsTable {
  id: string;
  workspace_id: string;
  subscription_id: string;
  uid: string;
  /** The occurrence's original start (RECURRENCE-ID) in UTC for a recurring event; '' otherwise. */
  occurrence: string;
  recurring: boolean;
  title: string;
  location: string;
  start_at: Date;
  end_at: Date;
  time_entry_id: string | null;
}

/** The project and task last given to an event (every occurrence of a series shares its UID). */
export interface CalendarEventChoicesTable {
  workspace_id: string;
  subscription_id: string;
  uid: string;
  project_id: string | null;
  task_id: string | null;
  updated_at: Timestamp;
}

/** "Title contains X: project Y (task Z)", a person's own. */
export interface CalendarRulesTable {
  id: string;
  workspace_id: string;
  user_id: string;
  contains: string;
  project_id: string;
  task_id: string | null;
  created_at: Timestamp;
}

export interface CalendarsTables {
  calendar_feeds: CalendarFeedsTable;
  calendar_subscriptions: CalendarSubscriptionsTable;
  calendar_events: CalendarEventsTable;
  calendar_event_choices: CalendarEventChoicesTable;
  calendar_rules: CalendarRulesTable;
}
