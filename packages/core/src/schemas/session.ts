import { z } from 'zod';
import { FEATURES } from '../entitlements.js';
import { PERMISSIONS, type Permission, ROLES } from '../permissions.js';
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
  /** Whether the person proved the address (docs/decisions/0014): until then the app shows "Confirm your e-mail address". */
  emailVerified: z.boolean(),
});
export type UserView = z.infer<typeof userView>;

export const workspaceView = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The role the member acts with now: a Manager acts as a Member while the plan lacks management roles. */
  role: z.enum(ROLES),
  /** The role as assigned (kept while the plan does not honour it). */
  assignedRole: z.enum(ROLES),
  /** The plan in force (the trial's while it lasts). */
  plan: z.enum(PLAN_IDS),
  purchasedPlan: z.enum(PLAN_IDS),
  trialEndsAt: z.string().nullable(),
  trialDaysLeft: z.number().int(),
  /** Whether this Sundial sells plans (BILLING=on); off: no trial, nothing to buy, every feature. */
  billing: z.boolean(),
  /** The plan features the workspace may use now (workspaceFeatures): the web shows upgrade prompts for the others. */
  features: z.array(z.enum(FEATURES)),
  /** What the member may do now (built-in role, custom role and their groups' roles): the web hides the rest. */
  permissions: z.array(z.enum(PERMISSIONS as [Permission, ...Permission[]])),
  /** The custom role in force, if any. */
  customRole: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** Whether a logo is set: the app asks for GET /workspaces/:id/logo only then (no 404 to log). */
  hasLogo: z.boolean(),
  createdAt: z.string(),
});
export type WorkspaceView = z.infer<typeof workspaceView>;

/** One workspace with its settings (GET and PATCH /workspaces/:id); the me view lists the short form. */
export const workspaceDetailView = workspaceView.extend({
  /** Only addresses at these domains may join by invite, SSO or SCIM; empty: any. */
  allowedEmailDomains: z.array(z.string()),
});
export type WorkspaceDetailView = z.infer<typeof workspaceDetailView>;

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
