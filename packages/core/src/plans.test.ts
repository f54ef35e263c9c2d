import { describe, expect, it } from 'vitest';
import { FEATURE_PLAN, FEATURES, PLAN_CARD_LINES } from './entitlements.js';
import { effectivePlan, monthlyEquivalentCents, PLANS, trialDaysLeft } from './plans.js';

const DAY = 86_400_000;
const now = new Date('2026-11-22T12:00:00Z');

describe('plan catalogue', () => {
  it('holds the decided prices in integer cents', () => {
    expect(PLANS.basic.pricePerLicenseCents).toEqual({ monthly: 700, annual: 7560 });
    expect(PLANS.pro.pricePerLicenseCents).toEqual({ monthly: 1000, annual: 10800 });
    expect(PLANS.free.pricePerLicenseCents).toEqual({ monthly: 0, annual: 0 });
    expect(PLANS.enterprise.pricePerLicenseCents).toBeNull();
  });

  it('shows annual prices as a monthly equivalent with the 10% discount', () => {
    expect(monthlyEquivalentCents(PLANS.basic, 'annual')).toBe(630);
    expect(monthlyEquivalentCents(PLANS.pro, 'annual')).toBe(900);
    expect(monthlyEquivalentCents(PLANS.pro, 'monthly')).toBe(1000);
    expect(monthlyEquivalentCents(PLANS.enterprise, 'annual')).toBeNull();
  });
});

describe('plan cards', () => {
  it('list on Basic and Pro exactly the features each adds, every line an entitlement the API gates', () => {
    // The gates themselves: apps/api/src/entitlement-gates.test.ts.
    expect(PLANS.basic.features).toEqual([
      'Everything in Free',
      ...FEATURES.filter((f) => FEATURE_PLAN[f] === 'basic').map((f) => PLAN_CARD_LINES[f]),
    ]);
    expect(PLANS.pro.features).toEqual([
      'Everything in Basic',
      ...FEATURES.filter((f) => FEATURE_PLAN[f] === 'pro').map((f) => PLAN_CARD_LINES[f]),
    ]);
  });

  it('sell no Screenshots and no integrations until they exist', () => {
    const lines = Object.values(PLANS).flatMap((plan) => plan.features);
    expect(lines.filter((line) => /screenshot|integration/i.test(line))).toEqual([]);
  });
});

describe('trial', () => {
  it('counts a started day as a day left', () => {
    expect(trialDaysLeft(new Date(now.getTime() + 14 * DAY), now)).toBe(14);
    expect(trialDaysLeft(new Date(now.getTime() + 13 * DAY + 1), now)).toBe(14);
    expect(trialDaysLeft(new Date(now.getTime() + 1000), now)).toBe(1);
  });

  it('has no days left once ended, or without a trial', () => {
    expect(trialDaysLeft(new Date(now.getTime() - 1000), now)).toBe(0);
    expect(trialDaysLeft(now, now)).toBe(0);
    expect(trialDaysLeft(null, now)).toBe(0);
  });

  it('gives Pro during the trial and what was bought after it', () => {
    const running = new Date(now.getTime() + DAY);
    const ended = new Date(now.getTime() - DAY);
    expect(effectivePlan('free', running, now)).toBe('pro');
    expect(effectivePlan('free', ended, now)).toBe('free');
    expect(effectivePlan('basic', running, now)).toBe('basic');
  });
});
