import { z } from 'zod';
import { text } from './text.js';

/**
 * The events a webhook may subscribe to (issue 34): audit actions of the workspace's work, each
 * with one line saying when it happens. The API holds this list to its audit actions
 * (webhooks.events.test.ts); webhooks' own changes, sign-ins and settings are never offered.
 */
export const WEBHOOK_EVENTS = {
  'time_entry.created': 'A time entry was tracked or added.',
  'time_entry.updated': 'A time entry was edited.',
  'time_entry.deleted': 'A time entry was deleted.',
  'project.created': 'A project was created.',
  'project.updated': 'A project was edited.',
  'project.archived': 'A project was archived.',
  'project.restored': 'An archived project was restored.',
  'project.people_updated': 'The people of a project changed.',
  'project.deleted': 'A project was deleted.',
  'task.created': 'A task was created.',
  'task.updated': 'A task was edited.',
  'task.archived': 'A task was archived.',
  'task.restored': 'An archived task was restored.',
  'task.people_updated': 'The people of a task changed.',
  'task.deleted': 'A task was deleted.',
  'client.created': 'A client was created.',
  'client.updated': 'A client was edited.',
  'client.archived': 'A client was archived.',
  'client.restored': 'An archived client was restored.',
  'client.deleted': 'A client was deleted.',
  'tag_list.created': 'A tag list was created.',
  'tag_list.updated': 'A tag list was edited.',
  'tag_list.deleted': 'A tag list was deleted.',
  'tag.created': 'A tag was created.',
  'tag.updated': 'A tag was edited.',
  'tag.merged': 'A tag was merged into another.',
  'tag.deleted': 'A tag was deleted.',
  'member.updated': "A member's role or status changed.",
  'member.removed': 'A member was removed from the workspace.',
  'member.left': 'A member left the workspace.',
  'invite.accepted': 'Someone accepted an invitation and joined.',
  'group.created': 'A group was created.',
  'group.updated': 'A group was edited.',
  'group.deleted': 'A group was deleted.',
  'group.member_added': 'Someone was added to a group.',
  'group.member_removed': 'Someone was removed from a group.',
  'approval.submitted': 'A timesheet period was submitted for approval.',
  'approval.approved': 'A timesheet period was approved.',
  'approval.rejected': 'A timesheet period was rejected.',
  'approval.withdrawn': 'A submitted timesheet period was withdrawn.',
  'client_invoice.created': 'A client invoice draft was created.',
  'client_invoice.updated': 'A client invoice draft was edited.',
  'client_invoice.deleted': 'A client invoice draft was deleted.',
  'client_invoice.issued': 'A client invoice was issued (numbered).',
  'client_invoice.sent': 'A client invoice was e-mailed.',
  'client_invoice.paid': 'A client invoice was marked paid.',
  'client_invoice.voided': 'A client invoice was voided.',
  'subscription.purchased': 'A plan was bought.',
  'subscription.changed': 'The plan or its seats changed.',
  'subscription.change_scheduled': 'A plan change was scheduled for the renewal.',
  'subscription.canceled': 'The subscription was set to end.',
  'subscription.reactivated': 'A canceled subscription was resumed.',
  'subscription.ended': 'The subscription ended.',
  'subscription.trial_ended': 'The trial ended.',
} as const satisfies Record<string, string>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** Whether a webhook subscribed to `events` (exact types, or `*`) receives `type`. */
export const webhookWants = (events: readonly string[], type: string): boolean =>
  events.includes('*') || events.includes(type);

export const webhookMessages = {
  urlRequired: 'Enter the URL that receives the events.',
  urlInvalid: 'Enter a whole URL, like https://example.com/hooks/sundial.',
  urlScheme: 'Only http:// and https:// URLs can receive webhooks.',
  urlCredentials: 'Leave the user name and password out of the URL.',
  eventsRequired: 'Choose at least one event, or * for all of them.',
  unknownEvent: 'This is not an event Sundial sends.',
} as const;

const webhookUrl = text({ min: 1, max: 2000, required: webhookMessages.urlRequired }).superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: webhookMessages.urlInvalid });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: webhookMessages.urlScheme });
  } else if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: webhookMessages.urlCredentials });
  }
});

const webhookEvents = z
  .array(
    z
      .string({ error: webhookMessages.unknownEvent })
      .refine((type) => type === '*' || type in WEBHOOK_EVENTS, webhookMessages.unknownEvent),
  )
  .min(1, webhookMessages.eventsRequired)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .transform((events) => [...new Set(events)]);

export const createWebhookBody = z.object({
  url: webhookUrl,
  description: text({ max: 500 }).default(''),
  /** Exact event types, or `['*']` for every one. */
  events: webhookEvents,
});
export type CreateWebhookBody = z.input<typeof createWebhookBody>;

export const updateWebhookBody = z.object({
  url: webhookUrl.optional(),
  description: text({ max: 500 }).optional(),
  events: webhookEvents.optional(),
  /** Off: nothing is delivered. On again after Sundial disabled it: the one who turns it on answers for it. */
  enabled: z.boolean({ error: 'Choose on or off.' }).optional(),
});
export type UpdateWebhookBody = z.input<typeof updateWebhookBody>;

export const WEBHOOK_STATUSES = ['pending', 'active', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const webhookView = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  /** pending: not validated yet, nothing is delivered; active: delivering; disabled: off. */
  status: z.enum(WEBHOOK_STATUSES),
  /** Why Sundial turned it off (its endpoint failed for 3 days, its creator no longer administers). */
  disabledReason: z.string().nullable(),
  /** Why the last validation failed. */
  validationError: z.string().nullable(),
  validatedAt: z.string().nullable(),
  /** Since when every delivery failed (null while the last one succeeded). */
  failingSince: z.string().nullable(),
  createdBy: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  createdAt: z.string(),
});
export type WebhookView = z.infer<typeof webhookView>;

export const webhookListView = z.object({ items: z.array(webhookView) });

/** A webhook with its signing secret (on creation and rotation). */
export const webhookWithSecretView = webhookView.extend({ secret: z.string() });
export type WebhookWithSecretView = z.infer<typeof webhookWithSecretView>;

export const webhookSecretView = z.object({ secret: z.string() });

export const webhookDeliveryAttemptView = z.object({
  attempt: z.number().int(),
  ok: z.boolean(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** The first 2 KB of the endpoint's answer. */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  at: z.string(),
});

export const webhookDeliveryView = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  /** queued: waiting for its next attempt; succeeded; failed: out of attempts (or the webhook was turned off). */
  state: z.enum(['queued', 'succeeded', 'failed']),
  createdAt: z.string(),
  attempts: z.array(webhookDeliveryAttemptView),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

export const webhookDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.uuid({ error: 'This cursor is not one this list gave.' }).optional(),
});
export type WebhookDeliveriesQuery = z.input<typeof webhookDeliveriesQuery>;

export const webhookDeliveryPage = z.object({
  items: z.array(webhookDeliveryView),
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPage>;

export const webhookEventListView = z.object({
  items: z.array(z.object({ type: z.string(), description: z.string() })),
});
