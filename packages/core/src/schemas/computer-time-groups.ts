import { z } from 'zod';
import { ACTIVITY_KEEP } from '../activity/agent.js';

/**
 * A group's own computer time settings (issue 35): what is kept of its people's activity and
 * whether their managers see it; null is "as the workspace" (core's `personalPrivacy` says how a
 * person's groups combine).
 */
export const computerTimeGroupSettingsBody = z.object({
  keep: z.enum(ACTIVITY_KEEP, { error: 'Keep apps, titles or sites, or null for the workspace’s choice.' }).nullable(),
  managersSeeActivity: z
    .boolean({ error: 'managersSeeActivity is true, false, or null for the workspace’s choice.' })
    .nullable(),
});
export type ComputerTimeGroupSettingsBody = z.infer<typeof computerTimeGroupSettingsBody>;

export const computerTimeGroupSettingsView = computerTimeGroupSettingsBody.extend({
  groupId: z.string(),
  groupName: z.string(),
});
export type ComputerTimeGroupSettingsView = z.infer<typeof computerTimeGroupSettingsView>;

/** The groups that chose something of their own, by name. */
export const computerTimeGroupSettingsListView = z.object({ items: z.array(computerTimeGroupSettingsView) });
