/** The plan catalogue: one source for billing, the landing page's pricing and feature locks. */
export const PLAN_IDS = ['free', 'basic', 'pro', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type BillingCycle = 'monthly' | 'annual';

export interface Plan {
  id: PlanId;
  name: string;
  /** Price of one license in cents, per month on the monthly cycle and per year on the annual. */
  pricePerLicenseCents: Record<BillingCycle, number> | null;
  tagline: string;
  features: readonly string[];
}

export const TRIAL_DAYS = 14;
export const TRIAL_PLAN: PlanId = 'pro';
export const ANNUAL_DISCOUNT_PERCENT = 10;

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    name: 'Free',
    pricePerLicenseCents: { monthly: 0, annual: 0 },
    tagline: 'Free for unlimited number of users',
    features: ['Unlimited users and projects', 'Timesheets and timer', 'Reports', 'Dashboard', 'Tags'],
  },
  basic: {
    id: 'basic',
    name: 'Basic',
    pricePerLicenseCents: { monthly: 700, annual: 7560 },
    tagline: 'per license',
    features: [
      'Everything in Free',
      'Export to Excel / Google Spreadsheet / CSV',
      'Management roles',
      'Budgeting & alert',
    ],
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    pricePerLicenseCents: { monthly: 1000, annual: 10800 },
    tagline: 'per license',
    features: [
      'Everything in Basic',
      'Billing rates & Labour costs',
      'Invoicing',
      'Timesheet approvals',
      'Custom user roles',
      'SSO',
      '2-factor authentication',
      'Advanced tags',
    ],
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    pricePerLicenseCents: null,
    tagline: 'Contact our sales team for the best offer',
    features: ['Private cloud', 'Self-hosted', 'Dedicated account manager', 'Custom contract', 'SLA'],
  },
};

/** Monthly-equivalent price of one license in cents (annual price / 12), e.g. 630 for Basic annual. */
export function monthlyEquivalentCents(plan: Plan, cycle: BillingCycle): number | null {
  if (!plan.pricePerLicenseCents) return null;
  const price = plan.pricePerLicenseCents[cycle];
  return cycle === 'annual' ? Math.round(price / 12) : price;
}

/** Whole days left of a trial, counting a started day as a day; 0 once it has ended. */
export function trialDaysLeft(trialEndsAt: Date | string | null, now: Date = new Date()): number {
  if (!trialEndsAt) return 0;
  const ms = new Date(trialEndsAt).getTime() - now.getTime();
  return ms <= 0 ? 0 : Math.ceil(ms / 86_400_000);
}

/** The plan a workspace has now: Pro while its trial runs, then what it bought (or Free). */
export function effectivePlan(plan: PlanId, trialEndsAt: Date | string | null, now: Date = new Date()): PlanId {
  if (plan === 'free' && trialDaysLeft(trialEndsAt, now) > 0) return TRIAL_PLAN;
  return plan;
}
