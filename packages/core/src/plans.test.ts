import { describe, expect, it } from 'vitest';
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
