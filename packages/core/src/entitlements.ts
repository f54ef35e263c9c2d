import type { Role } from './permissions.js';
import { type PlanId, trialDaysLeft } from './plans.js';

/**
 * Which plan has which feature, from the plan lists of the pricing page (Basic: "Everything in
 * Free" plus its own; Pro: "Everything in Basic" plus its own; Enterprise: everything, in a
 * private cloud or self-hosted, with a contract). Free has what no feature below names: users,
 * projects, timesheets and timer, reports, dashboard, tags.
 *
 * Only what works today (issue 30): each feature here has a gate in the API
 * (`entitlement-gates.test.ts` fails on one that has none). The spec's Screenshots (Pro) come
 * back with the computer-time work, and Basic's "Unlimited integrations" with integrations.
 */
export const FEATURES = [
  // Basic
  'export',
  'management_roles',
  'budgets',
  // Pro
  'billing_rates',
  'invoicing',
  'approvals',
  'custom_roles',
  'sso',
  'two_factor',
  'advanced_tags',
] as const;
export type Feature = (typeof FEATURES)[number];

/** The cheapest plan that includes each feature. */
export const FEATURE_PLAN: Record<Feature, PlanId> = {
  export: 'basic',
  management_roles: 'basic',
  budgets: 'basic',
  billing_rates: 'pro',
  invoicing: 'pro',
  approvals: 'pro',
  custom_roles: 'pro',
  sso: 'pro',
  two_factor: 'pro',
  advanced_tags: 'pro',
};

/** What people call each feature, for "… needs the Pro plan." */
export const FEATURE_NAMES: Record<Feature, string> = {
  export: 'Export to Excel, Google Spreadsheet and CSV',
  management_roles: 'Management roles',
  budgets: 'Budgeting and alerts',
  billing_rates: 'Billing rates and labour costs',
  invoicing: 'Invoicing',
  approvals: 'Timesheet approvals',
  custom_roles: 'Custom user roles',
  sso: 'SSO',
  two_factor: 'Two-factor authentication',
  advanced_tags: 'Advanced tags',
};

/** How the plan cards (pricing page and Your subscription) list each feature, in the spec's words. */
export const PLAN_CARD_LINES: Record<Feature, string> = {
  export: 'Export to Excel / Google Spreadsheet / CSV',
  management_roles: 'Management roles',
  budgets: 'Budgeting & alert',
  billing_rates: 'Billing rates & Labour costs',
  invoicing: 'Invoicing',
  approvals: 'Timesheet approvals',
  custom_roles: 'Custom user roles',
  sso: 'SSO',
  two_factor: '2-factor authentication',
  advanced_tags: 'Advanced tags',
};

const PLAN_RANK: Record<PlanId, number> = { free: 0, basic: 1, pro: 2, enterprise: 3 };
const PLAN_NAMES: Record<PlanId, string> = { free: 'Free', basic: 'Basic', pro: 'Pro', enterprise: 'Enterprise' };

/** Whether a plan includes the feature (each plan has everything of the plans below it). */
export function planHasFeature(plan: PlanId, feature: Feature): boolean {
  return PLAN_RANK[plan] >= PLAN_RANK[FEATURE_PLAN[feature]];
}

/** Every feature of a plan. */
export function featuresOf(plan: PlanId): Feature[] {
  return FEATURES.filter((feature) => planHasFeature(plan, feature));
}

/**
 * The operator's billing switch (`BILLING` in the API's settings). With billing off (a self-hosted
 * Sundial) every workspace has every feature and no seat limit: there is nothing to buy.
 */
export interface BillingMode {
  billing: boolean;
}

/** A workspace as far as its entitlements go. */
export interface EntitledWorkspace {
  plan: PlanId;
  trial_ends_at: Date | string | null;
}

/**
 * Whether a workspace may use the feature now. Nothing is locked while the trial runs (a workspace
 * on trial has every feature, whatever plan it is on) nor when billing is off.
 */
export function workspaceHasFeature(
  workspace: EntitledWorkspace,
  feature: Feature,
  now: Date = new Date(),
  mode: BillingMode = { billing: true },
): boolean {
  if (!mode.billing) return true;
  if (trialDaysLeft(workspace.trial_ends_at, now) > 0) return true;
  return planHasFeature(workspace.plan, feature);
}

/** Every feature the workspace may use now: what the API checks and the web's session view lists. */
export function workspaceFeatures(
  workspace: EntitledWorkspace,
  now: Date = new Date(),
  mode: BillingMode = { billing: true },
): Feature[] {
  // workspaceHasFeature for each feature, with the billing switch and the trial read once: this runs
  // on every authenticated request.
  if (!mode.billing || trialDaysLeft(workspace.trial_ends_at, now) > 0) return [...FEATURES];
  return featuresOf(workspace.plan);
}

/**
 * The role a member acts with: a Manager of a workspace without management roles (it dropped to
 * Free) acts as a Member until it upgrades again. The stored role is never rewritten.
 */
export function effectiveRole(role: Role, features: readonly Feature[]): Role {
  return role === 'manager' && !features.includes('management_roles') ? 'member' : role;
}

/** The plan's display name ("Pro"). */
export const planName = (plan: PlanId): string => PLAN_NAMES[plan];

/** The cheapest plan's name that includes the feature, for "Available on the Basic plan". */
export const featurePlanName = (feature: Feature): string => PLAN_NAMES[FEATURE_PLAN[feature]];

/** "Invoicing needs the Pro plan." */
export function featureLockedMessage(feature: Feature): string {
  return `${FEATURE_NAMES[feature]} needs the ${PLAN_NAMES[FEATURE_PLAN[feature]]} plan. Upgrade to use it.`;
}

/**
 * The most non-guest members a workspace may have, or null for no limit: Free (and so the
 * trial, which runs on Free) has none; a paid plan has its purchased licenses; with billing off,
 * none.
 */
export function seatLimit(
  workspace: { plan: PlanId; licenses: number },
  mode: BillingMode = { billing: true },
): number | null {
  if (!mode.billing) return null;
  return workspace.plan === 'free' ? null : workspace.licenses;
}
