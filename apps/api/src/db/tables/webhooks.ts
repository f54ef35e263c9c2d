import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** An endpoint subscribed to a workspace's events (migration 202612080300). */
export interface WebhooksTable {
  id: string;
  workspace_id: string;
  /** Whose access the deliveries follow: they stop when this person no longer administers the workspace. */
  created_by: string | null;
  url: string;
  description: Generated<string>;
  /** Exact event types, or `['*']`. */
  events: ColumnType<string[], string, string>;
  enabled: Generated<boolean>;
  /** Why Sundial turned it off. */
  disabled_reason: Generated<string | null>;
  /** When it last answered its challenge; null: pending, nothing is delivered. */
  validated_at: Generated<Date | null>;
  validation_error: Generated<string | null>;
  /** The signing secret, sealed with the SecretBox (context `webhook:<id>`). */
  secret_sealed: string;
  /** The first failure of the current streak of failed attempts. */
  failing_since: Generated<Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The audit-log `seq` up to which a workspace's records were fanned out. */
export interface WebhookCursorsTable {
  workspace_id: string;
  seq: ColumnType<string, string | number, string | number>;
}

/** One event for one webhook: its frozen body, delivered with its endpoint's batch, retried on its own schedule. */
export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  webhook_id: string;
  /** The audit record's id. */
  event_id: string;
  event_type: string;
  payload: string;
  state: Generated<'queued' | 'succeeded' | 'failed'>;
  /** Attempts made so far (migration 202612100000). */
  attempts: Generated<number>;
  /** When a queued delivery is next due; null once finished. */
  next_attempt_at: Date | null;
  /** While a batch sends it: until when it is that batch's (past it, the batch's process died). */
  leased_until: Date | null;
  created_at: Timestamp;
  finished_at: Date | null;
}

/** One POST of a delivery, as the endpoint answered it (kept 7 days). */
export interface WebhookDeliveryAttemptsTable {
  id: string;
  workspace_id: string;
  delivery_id: string;
  attempt: number;
  ok: boolean;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
  created_at: Date;
}

export interface WebhooksTables {
  webhooks: WebhooksTable;
  webhook_cursors: WebhookCursorsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
}
