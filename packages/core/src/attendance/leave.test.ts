import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookingFits, carryOut, type LeavePolicy, leaveYear } from './leave.js';

const VACATION: LeavePolicy = {
  allowance: 25,
  accrual: 'yearly',
  prorate: true,
  carryOver: { max: 5, expires: '03-31' },
  allowNegative: false,
  unit: 'days',
};
const days = (...list: [string, number][]) => list.map(([day, amount]) => ({ day, amount }));

describe('leaveYear', () => {
  it('gives a whole year’s allowance, less what was booked, with nothing carried', () => {
    const year = leaveYear({
      policy: VACATION,
      year: 2027,
      asOf: '2027-06-01',
      bookings: days(['2027-05-03', 1], ['2027-05-04', 0.5]),
    });
    expect(year).toEqual({
      year: 2027,
      entitlement: 25,
      accrued: 25,
      carried: 0,
      lapsed: 0,
      used: 1.5,
      remaining: 23.5,
    });
  });

  it('prorates a start in mid-year by the months employed, rounding up to half days', () => {
    // From 15 August: August to December, 5 months of 12: 10.42 days, rounded up to 10.5.
    const year = leaveYear({
      policy: VACATION,
      year: 2027,
      asOf: '2027-09-01',
      employedFrom: '2027-08-15',
      bookings: [],
    });
    expect(year.entitlement).toBe(10.5);
    const leaving = leaveYear({
      policy: VACATION,
      year: 2027,
      asOf: '2027-02-01',
      employedUntil: '2027-03-31',
      bookings: [],
    });
    expect(leaving.entitlement).toBe(6.5);
    const unprorated = leaveYear({
      policy: { ...VACATION, prorate: false },
      year: 2027,
      asOf: '2027-09-01',
      employedFrom: '2027-08-15',
      bookings: [],
    });
    expect(unprorated.entitlement).toBe(25);
  });

  it('accrues monthly: a twelfth a month begun, all of it by December', () => {
    const monthly = { ...VACATION, allowance: 24, accrual: 'monthly' as const };
    const at = (asOf: string) => leaveYear({ policy: monthly, year: 2027, asOf, bookings: [] }).accrued;
    expect([at('2026-12-31'), at('2027-01-01'), at('2027-03-15'), at('2027-12-01'), at('2028-01-01')]).toEqual([
      0, 2, 6, 24, 24,
    ]);
  });

  it('lets carried days lapse after their expiry, unless used before it', () => {
    const base = { policy: VACATION, year: 2027, carriedIn: 4 };
    const early = leaveYear({ ...base, asOf: '2027-03-15', bookings: days(['2027-02-01', 3]) });
    expect(early).toMatchObject({ carried: 4, lapsed: 0, remaining: 26 });
    const after = leaveYear({ ...base, asOf: '2027-04-01', bookings: days(['2027-02-01', 3]) });
    expect(after).toMatchObject({ carried: 4, lapsed: 1, remaining: 25 });
    const late = leaveYear({ ...base, asOf: '2027-04-01', bookings: days(['2027-04-01', 3]) });
    expect(late).toMatchObject({ lapsed: 4, remaining: 22 });
  });

  it('carries at most the policy’s maximum, never a negative balance', () => {
    const end = leaveYear({ policy: VACATION, year: 2027, asOf: '2027-12-31', bookings: days(['2027-07-01', 17]) });
    expect(carryOut(VACATION, end)).toBe(5);
    expect(carryOut({ ...VACATION, carryOver: { max: null, expires: null } }, end)).toBe(8);
    expect(carryOut({ ...VACATION, carryOver: null }, end)).toBe(0);
    const over = leaveYear({
      policy: { ...VACATION, allowNegative: true },
      year: 2027,
      asOf: '2027-12-31',
      bookings: days(['2027-07-01', 30]),
    });
    expect(carryOut(VACATION, over)).toBe(0);
  });

  it('counts an unlimited type’s use, with no balance', () => {
    const sick = { ...VACATION, allowance: null };
    expect(
      leaveYear({ policy: sick, year: 2027, asOf: '2027-06-01', bookings: days(['2027-02-01', 3]) }),
    ).toMatchObject({ used: 3, remaining: null });
  });
});

describe('bookingFits', () => {
  const base = { policy: VACATION, year: 2027, carriedIn: 2, bookings: days(['2027-06-01', 24]) };

  it('fits what is left, with carried days only before they lapse', () => {
    expect(bookingFits(base, { day: '2027-03-01', amount: 3 })).toBe(true);
    expect(bookingFits(base, { day: '2027-08-01', amount: 1 })).toBe(true);
    expect(bookingFits(base, { day: '2027-08-01', amount: 1.5 })).toBe(false);
    expect(
      bookingFits({ ...base, policy: { ...VACATION, allowNegative: true } }, { day: '2027-08-01', amount: 9 }),
    ).toBe(true);
  });

  it('never leaves a balance below zero it refuses, for any bookings (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 364 }), fc.integer({ min: 1, max: 6 })), { maxLength: 20 }),
        fc.integer({ min: 0, max: 5 }),
        (wanted, carriedIn) => {
          const booked: { day: string; amount: number }[] = [];
          for (const [offset, halves] of wanted) {
            const day = new Date(Date.UTC(2027, 0, 1 + offset)).toISOString().slice(0, 10);
            const booking = { day, amount: halves / 2 };
            if (bookingFits({ policy: VACATION, year: 2027, carriedIn, bookings: booked }, booking))
              booked.push(booking);
          }
          const end = leaveYear({ policy: VACATION, year: 2027, asOf: '2027-12-31', carriedIn, bookings: booked });
          expect(end.remaining).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
