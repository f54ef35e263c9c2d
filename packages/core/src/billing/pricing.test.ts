import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BillingError, billingMessages, licenseCountError, quote, roundedShare } from './pricing.js';

describe('quote', () => {
  it('prices every paid plan and cycle from the catalogue, per license and in total', () => {
    expect(quote({ plan: 'basic', cycle: 'monthly', licenses: 1 })).toMatchObject({
      pricePerLicenseCents: 700,
      subtotalCents: 700,
    });
    expect(quote({ plan: 'basic', cycle: 'annual', licenses: 2 })).toMatchObject({
      pricePerLicenseCents: 7560,
      subtotalCents: 15_120,
    });
    expect(quote({ plan: 'pro', cycle: 'monthly', licenses: 3 })).toMatchObject({
      pricePerLicenseCents: 1000,
      subtotalCents: 3000,
    });
    expect(quote({ plan: 'pro', cycle: 'annual', licenses: 999 })).toEqual({
      plan: 'pro',
      cycle: 'annual',
      licenses: 999,
      pricePerLicenseCents: 10_800,
      subtotalCents: 10_789_200,
    });
  });

  it('prices Free at nothing', () => {
    expect(quote({ plan: 'free', cycle: 'annual', licenses: 25 })).toMatchObject({ subtotalCents: 0 });
  });

  it('refuses Enterprise, which is sold by contract', () => {
    const attempt = () => quote({ plan: 'enterprise', cycle: 'annual', licenses: 10 });
    expect(attempt).toThrow(BillingError);
    expect(attempt).toThrow(billingMessages.enterprise);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: 'plan_not_purchasable', field: 'plan' });
    }
  });

  it.each([0, -1, 1000, 1.5, Number.NaN])('refuses %s licenses with a message naming the range', (licenses) => {
    const attempt = () => quote({ plan: 'pro', cycle: 'monthly', licenses });
    expect(attempt).toThrow('Number of licenses must be a whole number from 1 to 999.');
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ code: 'invalid_licenses', field: 'licenses' });
    }
  });

  it('accepts the edges of the range', () => {
    expect(quote({ plan: 'basic', cycle: 'monthly', licenses: 1 }).licenses).toBe(1);
    expect(quote({ plan: 'basic', cycle: 'monthly', licenses: 999 }).licenses).toBe(999);
  });
});

describe('licenseCountError', () => {
  it('needs 1 to 999 licenses and never fewer than the members in use', () => {
    expect(licenseCountError(5, 5)).toBeNull();
    expect(licenseCountError(1)).toBeNull();
    expect(licenseCountError(4, 5)).toBe('5 members are in use: buy at least 5 licenses, or remove members first.');
    expect(licenseCountError(0, 0)).toBe(billingMessages.licensesRange);
    expect(licenseCountError(1000, 3)).toBe(billingMessages.licensesRange);
  });
});

describe('roundedShare', () => {
  it('rounds halves up and mirrors them for credits', () => {
    expect(roundedShare(1000, 1, 8)).toBe(125);
    expect(roundedShare(1, 1, 2)).toBe(1);
    expect(roundedShare(3, 1, 2)).toBe(2);
    expect(roundedShare(-1, 1, 2)).toBe(-1);
    expect(roundedShare(1000, 10, 31)).toBe(323);
    expect(roundedShare(1000, 0, 31)).toBe(0);
    expect(roundedShare(1000, 31, 31)).toBe(1000);
  });

  it('refuses fractions of cents and an empty period', () => {
    expect(() => roundedShare(10.5, 1, 2)).toThrow(TypeError);
    expect(() => roundedShare(10, 1, 0)).toThrow(TypeError);
    expect(() => roundedShare(10, -1, 2)).toThrow(TypeError);
  });

  it('is the nearest cent, halves away from zero, for any amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -20_000_000, max: 20_000_000 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        (cents, denominator, numeratorSeed) => {
          const numerator = numeratorSeed % (denominator + 1);
          const share = roundedShare(cents, numerator, denominator);
          expect(Number.isInteger(share)).toBe(true);
          // Exact in integers: |share * d - cents * n| <= d / 2, and a tie goes away from zero.
          const error = share * denominator - cents * numerator;
          expect(2 * Math.abs(error)).toBeLessThanOrEqual(denominator);
          if (2 * Math.abs(error) === denominator)
            expect(Math.abs(share * denominator)).toBeGreaterThan(Math.abs(cents * numerator));
        },
      ),
    );
  });
});
