import { z } from 'zod';

/** The kinds of notification a member gets, each with its own settings. */
export const NOTIFICATION_KINDS = [
  'approval_submitted',
  'approval_rejected',
  'approval_approved',
  'budget_alert',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What each kind is about, as the settings list it. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  approval_submitted: 'Time submitted for my approval',
  approval_rejected: 'My submitted time is rejected',
  approval_approved: 'My submitted time is approved',
  budget_alert: 'A budget I watch reaches an alert threshold',
};

/** One kind's settings: shown in the bell, sent by e-mail. */
export const notificationSetting = z.strictObject({
  kind: z.enum(NOTIFICATION_KINDS, { error: 'Unknown kind of notification.' }),
  inApp: z.boolean(),
  email: z.boolean(),
});
export type NotificationSetting = z.infer<typeof notificationSetting>;
/** A member's settings, every kind listed (on unless turned off). */
export const notificationSettingsView = z.object({ items: z.array(notificationSetting) });
export type NotificationSettingsView = z.infer<typeof notificationSettingsView>;
/** Changes some kinds' settings; the kinds left out keep theirs. */
export const updateNotificationSettingsBody = z.strictObject({
  items: z
    .array(notificationSetting)
    .min(1, 'Say which notifications to change.')
    .max(NOTIFICATION_KINDS.length)
    .refine((items) => new Set(items.map((i) => i.kind)).size === items.length, 'Each kind at most once.'),
});
export type UpdateNotificationSettingsBody = z.infer<typeof updateNotificationSettingsBody>;

/** An in-app notification, as its reader sees it. */
export const notificationView = z.object({
  id: z.uuid(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** Where in the app it leads, or null. */
  link: z.string().nullable(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type NotificationView = z.infer<typeof notificationView>;
export const notificationListView = z.object({ items: z.array(notificationView), unread: z.number().int() });
export type NotificationListView = z.infer<typeof notificationListView>;

/** The alert thresholds of a budget that sets none of its own (every budget before they were configurable), in percent. */
export const BUDGET_ALERT_PERCENTS = [80, 100] as const;

/**
 * Which of a budget's own thresholds (`percents`) it has reached (used at or above the percent of
 * the budget), highest last; none for an empty budget or an empty list.
 */
export function reachedThresholds(used: number, budget: number, percents: readonly number[]) {
  if (budget <= 0) return [];
  return [...percents].sort((a, b) => a - b).filter((p) => used * 100 >= p * budget);
}

/** The threshold from which a budget shows "Near budget": its lowest one below 100, or none. */
export function budgetNearPercent(percents: readonly number[]): number | null {
  const below = percents.filter((p) => p < 100);
  return below.length === 0 ? null : Math.min(...below);
}

/**
 * How a budget stands from the highest threshold recorded for its current period (the Projects
 * list): over from 100, near from its near threshold (`budgetNearPercent`). A recorded threshold the
 * budget no longer has still counts when it is at or above the near one.
 */
export function budgetStateFromAlerts(reached: number | null, percents: readonly number[]): 'ok' | 'near' | 'over' {
  if (reached === null) return 'ok';
  if (reached >= 100) return 'over';
  const near = budgetNearPercent(percents);
  return near !== null && reached >= near ? 'near' : 'ok';
}
