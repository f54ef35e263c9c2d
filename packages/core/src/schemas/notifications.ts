import { z } from 'zod';

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

/** The thresholds of every budget alert, in percent of the budget. */
export const BUDGET_ALERT_PERCENTS = [80, 100] as const;

/**
 * The thresholds a budget has reached (used at or above the percent of the budget), highest
 * last; none for an empty budget.
 */
export function reachedThresholds(used: number, budget: number, percents: readonly number[] = BUDGET_ALERT_PERCENTS) {
  if (budget <= 0) return [];
  return [...percents].sort((a, b) => a - b).filter((p) => used * 100 >= p * budget);
}

/** The period a budget is counted in at `now`: its UTC month ('2026-11') when it resets monthly, else 'total'. */
export function budgetPeriod(resetsMonthly: boolean, now: Date): string {
  return resetsMonthly ? now.toISOString().slice(0, 7) : 'total';
}
