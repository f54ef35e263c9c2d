import { type BillingCycle, PLANS, type PlanId } from '../plans.js';

export const MIN_LICENSES = 1;
export const MAX_LICENSES = 999;

/** What a workspace buys: a plan, a billing cycle and a number of licenses (seats). */
export interface SubscriptionTerms {
  plan: PlanId;
  cycle: BillingCycle;
  licenses: number;
}

/** The price of some terms for one whole period of their cycle. */
export interface Quote extends SubscriptionTerms {
  /** Price of one license for one period (a month or a year), in cents. */
  pricePerLicenseCents: number;
  /** `pricePerLicenseCents * licenses`, in cents, before tax. */
  subtotalCents: number;
}

/** Stable codes of the billing rules, for the API to turn into an AppError (422). */
export type BillingErrorCode = 'invalid_licenses' | 'plan_not_purchasable';

export const billingMessages = {
  licensesRange: `Number of licenses must be a whole number from ${MIN_LICENSES} to ${MAX_LICENSES}.`,
  enterprise: 'Enterprise is sold by contract: book a call with our sales team.',
  belowMembers: (members: number) =>
    `${members} ${members === 1 ? 'member is' : 'members are'} in use: buy at least ${members} licenses, or remove members first.`,
} as const;

/** A purchase that breaks a billing rule; `field` names the input at fault. */
export class BillingError extends Error {
  readonly code: BillingErrorCode;
  readonly field: keyof SubscriptionTerms;

  constructor(code: BillingErrorCode, message: string, field: keyof SubscriptionTerms) {
    super(message);
    this.name = 'BillingError';
    this.code = code;
    this.field = field;
  }
}

/** Whether a license count can be bought: a whole number from 1 to 999. */
export function isValidLicenseCount(licenses: number): boolean {
  return Number.isInteger(licenses) && licenses >= MIN_LICENSES && licenses <= MAX_LICENSES;
}

/**
 * What is wrong with a license count for a workspace (outside 1..999, or fewer than the
 * members in use), or null when it can be bought. For the purchase form and the API alike.
 */
export function licenseCountError(licenses: number, membersInUse = 0): string | null {
  if (!isValidLicenseCount(licenses)) return billingMessages.licensesRange;
  return licenses < membersInUse ? billingMessages.belowMembers(membersInUse) : null;
}

/**
 * The price of one period of the terms, from the plan catalogue. Free costs 0.
 * Throws BillingError `invalid_licenses` outside 1..999 and `plan_not_purchasable` for Enterprise.
 */
export function quote(terms: SubscriptionTerms): Quote {
  if (!isValidLicenseCount(terms.licenses))
    throw new BillingError('invalid_licenses', billingMessages.licensesRange, 'licenses');
  const prices = PLANS[terms.plan].pricePerLicenseCents;
  if (!prices) throw new BillingError('plan_not_purchasable', billingMessages.enterprise, 'plan');
  const pricePerLicenseCents = prices[terms.cycle];
  return {
    plan: terms.plan,
    cycle: terms.cycle,
    licenses: terms.licenses,
    pricePerLicenseCents,
    subtotalCents: pricePerLicenseCents * terms.licenses,
  };
}

/**
 * The one rounding rule of billing: `cents * numerator / denominator` rounded to the cent,
 * halves away from zero (half up on the amount, so a credit mirrors the charge it undoes).
 * Used for each proration line and for VAT. Inputs are integers; the result is exact because
 * the product stays far below 2^53 for any price Sundial sells.
 */
export function roundedShare(cents: number, numerator: number, denominator: number): number {
  if (![cents, numerator, denominator].every(Number.isSafeInteger) || numerator < 0 || denominator <= 0)
    throw new TypeError('A share needs integer cents, a non-negative numerator and a positive denominator.');
  const magnitude = Math.floor((2 * Math.abs(cents) * numerator + denominator) / (2 * denominator));
  return cents < 0 ? -magnitude : magnitude;
}
