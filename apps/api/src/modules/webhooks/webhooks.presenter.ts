import type { WebhookDeliveryView, WebhookView } from '@sundial/core';
import type { AttemptRow, DeliveryRow, WebhookRow } from './webhooks.repository.js';

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** A webhook as owners and admins see it: never its secret. */
export const webhookView = (row: WebhookRow): WebhookView => ({
  id: row.id,
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
  status: !row.enabled ? 'disabled' : row.validated_at ? 'active' : 'pending',
  disabledReason: row.disabled_reason,
  validationError: row.validation_error,
  validatedAt: iso(row.validated_at),
  failingSince: iso(row.failing_since),
  createdBy:
    row.created_by && row.creator_email
      ? { id: row.created_by, name: row.creator_name ?? '', email: row.creator_email }
      : null,
  createdAt: new Date(row.created_at).toISOString(),
});

/** A delivery with its attempts, oldest first (`attempts` may hold other deliveries' too). */
export const deliveryView = (row: DeliveryRow, attempts: readonly AttemptRow[]): WebhookDeliveryView => ({
  id: row.id,
  eventId: row.event_id,
  eventType: row.event_type,
  state: row.state,
  createdAt: new Date(row.created_at).toISOString(),
  attempts: attempts
    .filter((a) => a.delivery_id === row.id)
    .map((a) => ({
      attempt: a.attempt,
      ok: a.ok,
      statusCode: a.status_code,
      durationMs: a.duration_ms,
      responseBody: a.response_body,
      error: a.error,
      at: new Date(a.created_at).toISOString(),
    })),
});
