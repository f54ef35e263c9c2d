import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, type WebhookEventType, type WebhookView } from '@sundial/core';

/** The webhooks page's words (issue 34). */
export const texts = {
  notAllowed: 'Webhooks are for the workspace’s owners and administrators.',
  intro:
    'A webhook sends a signed HTTPS request to your URL whenever something happens in the workspace, so another system can follow along.',
  empty: {
    title: 'No webhooks yet',
    hint: 'A webhook tells another system, at once, when time is tracked, a project changes or an invoice is issued: Sundial POSTs each event, signed, to a URL you choose.',
  },
  add: 'Add webhook',
  allEvents: 'All events',
  allEventsHint: 'Every event Sundial sends, including kinds added later.',
  secretOnce: 'Copy the signing secret now: you can reveal it again later from the webhook’s menu.',
  deliveriesEmpty: 'Nothing was delivered in the last 7 days.',
};

/** The event families, in the order WEBHOOK_EVENTS lists them, with a heading each. */
const FAMILY_LABELS: Record<string, string> = {
  time_entry: 'Time entries',
  project: 'Projects',
  task: 'Tasks',
  client: 'Clients',
  tag_list: 'Tag lists',
  tag: 'Tags',
  member: 'Members',
  invite: 'Invitations',
  group: 'Groups',
  approval: 'Approvals',
  client_invoice: 'Client invoices',
  subscription: 'Subscription',
};

export interface EventFamily {
  key: string;
  label: string;
  events: { type: WebhookEventType; description: string }[];
}

export const EVENT_FAMILIES: EventFamily[] = (() => {
  const families = new Map<string, EventFamily>();
  for (const type of WEBHOOK_EVENT_TYPES) {
    const key = type.split('.')[0] ?? type;
    const family = families.get(key) ?? { key, label: FAMILY_LABELS[key] ?? key, events: [] };
    family.events.push({ type, description: WEBHOOK_EVENTS[type] });
    families.set(key, family);
  }
  return [...families.values()];
})();

/**
 * A short summary of a webhook's events: "All events", "Projects (all)", or the types themselves,
 * the first few then "+3 more".
 */
export function eventsSummary(events: readonly string[]): string {
  if (events.includes('*')) return texts.allEvents;
  const parts: string[] = [];
  for (const family of EVENT_FAMILIES) {
    const chosen = family.events.filter((e) => events.includes(e.type));
    if (chosen.length === 0) continue;
    if (chosen.length === family.events.length) parts.push(`${family.label} (all)`);
    else parts.push(...chosen.map((e) => e.type));
  }
  const shown = parts.slice(0, 3).join(', ');
  return parts.length > 3 ? `${shown} +${parts.length - 3} more` : shown;
}

/** The status badge of a webhook: its colour, its word and the line that says why. */
export function statusOf(webhook: WebhookView): { color: string; label: string; detail: string | null } {
  if (webhook.status === 'active')
    return { color: 'green', label: 'Active', detail: webhook.failingSince ? 'Deliveries are failing' : null };
  if (webhook.status === 'pending')
    return { color: 'yellow', label: 'Pending validation', detail: webhook.validationError };
  return {
    color: 'gray',
    label: 'Disabled',
    detail: webhook.disabledReason ?? (webhook.enabled ? null : 'Turned off'),
  };
}

/** What the receiver checks, in words: the `Sundial-Signature` header (apps/api/src/platform/signature.ts). */
export const SIGNATURE_NOTE = {
  header: 'Sundial-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>',
  steps: [
    'Read t and v1 from the Sundial-Signature header.',
    'Compute HMAC-SHA256 with the signing secret over the text t + "." + the raw request body, as hex.',
    'Compare it with v1 in constant time, and refuse a t more than 5 minutes from now.',
  ],
};
