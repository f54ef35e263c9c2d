import { z } from 'zod';
import { ROLES } from '../permissions.js';
import { PLAN_IDS } from '../plans.js';
import { DURATION_FORMATS } from '../time/duration.js';

/**
 * What the API answers about the signed-in person and their workspaces. The API presents these
 * and declares them as response schemas; the web infers its types from them (no hand-written copy).
 */
export const userView = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  timeZone: z.string(),
  weekStart: z.string(),
  dateFormat: z.string(),
  timeFormat: z.string(),
  durationFormat: z.enum(DURATION_FORMATS),
});
export type UserView = z.infer<typeof userView>;

export const workspaceView = z.object({
  id: z.uuid(),
  name: z.string(),
  role: z.enum(ROLES),
  /** The plan in force (the trial's while it lasts). */
  plan: z.enum(PLAN_IDS),
  purchasedPlan: z.enum(PLAN_IDS),
  trialEndsAt: z.string().nullable(),
  trialDaysLeft: z.number().int(),
  createdAt: z.string(),
});
export type WorkspaceView = z.infer<typeof workspaceView>;

/** A workspace that disabled or removed the user: named so the app can say why there is no access. */
export const inactiveWorkspaceView = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(['disabled', 'removed']),
});
export type InactiveWorkspaceView = z.infer<typeof inactiveWorkspaceView>;

export const meView = z.object({
  user: userView,
  workspaces: z.array(workspaceView),
  currentWorkspaceId: z.uuid().nullable(),
  inactiveWorkspaces: z.array(inactiveWorkspaceView),
});
export type MeView = z.infer<typeof meView>;
