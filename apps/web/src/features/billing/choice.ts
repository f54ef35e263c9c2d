import { type BillingCycle, isValidLicenseCount, type PlanId, type SubscriptionTermsBody } from '@sundial/core';

/**
 * The purchase choice, carried from page to page of the checkout in the URL's search params
 * (?plan=pro&cycle=annual&licenses=3), so a reload or a shared link keeps it.
 */
export function choiceFromSearch(search: URLSearchParams): SubscriptionTermsBody | null {
  const plan = search.get('plan');
  const cycle = search.get('cycle');
  const licenses = Number(search.get('licenses'));
  if (plan !== 'basic' && plan !== 'pro') return null;
  if (cycle !== 'annual' && cycle !== 'monthly') return null;
  if (!isValidLicenseCount(licenses)) return null;
  return { plan: plan as PlanId, cycle: cycle as BillingCycle, licenses };
}

export function choiceSearch(choice: SubscriptionTermsBody): string {
  return new URLSearchParams({
    plan: choice.plan,
    cycle: choice.cycle,
    licenses: String(choice.licenses),
  }).toString();
}
