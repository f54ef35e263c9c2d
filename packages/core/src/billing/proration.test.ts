import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BillingCycle } from '../plans.js';
import { quote, type SubscriptionTerms } from './pricing.js';
import { type BillingPeriod, billingPeriod, changeTiming, daysBetween, planChange, prorate } from './proration.js';

const terms = (plan: SubscriptionTerms['plan'], cycle: BillingCycle, licenses: number): SubscriptionTerms => ({
  plan,
  cycle,
  licenses,
});

describe('billing periods', () => {
  it('end on the same day of the next month, clamped to the end of a shorter month', () => {
    expect(billingPeriod({ start: '2026-11-15', cycle: 'monthly' })).toEqual({
      start: '2026-11-15',
      end: '2026-12-15',
      days: 30,
      anchorDay: 15,
    });
    expect(billingPeriod({ start: '2026-12-20', cycle: 'monthly' }).end).toBe('2027-01-20');
    expect(billingPeriod({ start: '2027-01-31', cycle: 'monthly' })).toMatchObject({ end: '2027-02-28', days: 28 });
    expect(billingPeriod({ start: '2028-01-31', cycle: 'monthly' })).toMatchObject({ end: '2028-02-29', days: 29 });
    expect(billingPeriod({ start: '2026-03-31', cycle: 'monthly' }).end).toBe('2026-04-30');
  });

  it('keep the day the subscription began on once a short month is past', () => {
    const february = billingPeriod({ start: '2027-02-28', cycle: 'monthly', anchorDay: 31 });
    expect(february).toMatchObject({ end: '2027-03-31', days: 31, anchorDay: 31 });
    expect(billingPeriod({ start: february.end, cycle: 'monthly', anchorDay: february.anchorDay }).end).toBe(
      '2027-04-30',
    );
  });

  it('end on the same day next year, Feb 29 on Feb 28, and come back to Feb 29 in a leap year', () => {
    expect(billingPeriod({ start: '2026-11-25', cycle: 'annual' })).toMatchObject({ end: '2027-11-25', days: 365 });
    expect(billingPeriod({ start: '2027-03-01', cycle: 'annual' })).toMatchObject({ end: '2028-03-01', days: 366 });
    expect(billingPeriod({ start: '2028-02-29', cycle: 'annual' })).toMatchObject({ end: '2029-02-28', days: 365 });
    let period = billingPeriod({ start: '2028-02-29', cycle: 'annual' });
    for (let year = 0; year < 3; year++)
      period = billingPeriod({ start: period.end, cycle: 'annual', anchorDay: period.anchorDay });
    expect(period.end).toBe('2032-02-29');
  });

  it('refuse what is not a calendar day', () => {
    expect(() => billingPeriod({ start: '2026-02-30', cycle: 'monthly' })).toThrow(RangeError);
    expect(() => billingPeriod({ start: '26-1-1', cycle: 'monthly' })).toThrow(RangeError);
    expect(() => daysBetween('2026-01-01', 'tomorrow')).toThrow(RangeError);
  });

  it('chain without gaps or overlaps and keep the anchor day wherever the month has it', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2090-12-31'), noInvalidDate: true }),
        fc.constantFrom<BillingCycle>('monthly', 'annual'),
        (date, cycle) => {
          let period = billingPeriod({ start: date.toISOString().slice(0, 10), cycle });
          const anchor = period.anchorDay;
          for (let i = 0; i < 24; i++) {
            const next = billingPeriod({ start: period.end, cycle, anchorDay: period.anchorDay });
            expect(next.start).toBe(period.end);
            expect(next.anchorDay).toBe(anchor);
            const day = Number(next.end.slice(8));
            const lastOfMonth = new Date(
              Date.UTC(Number(next.end.slice(0, 4)), Number(next.end.slice(5, 7)), 0),
            ).getUTCDate();
            expect(day).toBe(Math.min(anchor, lastOfMonth));
            if (cycle === 'monthly') expect(next.days).toBeGreaterThanOrEqual(28);
            if (cycle === 'monthly') expect(next.days).toBeLessThanOrEqual(31);
            if (cycle === 'annual') expect([365, 366]).toContain(next.days);
            period = next;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('changeTiming', () => {
  it.each([
    ['more licenses', 'immediate', terms('basic', 'monthly', 3), terms('basic', 'monthly', 5)],
    ['a higher plan', 'immediate', terms('basic', 'monthly', 3), terms('pro', 'monthly', 3)],
    ['a higher plan with more licenses', 'immediate', terms('basic', 'annual', 3), terms('pro', 'annual', 4)],
    ['monthly to annual', 'immediate', terms('pro', 'monthly', 3), terms('pro', 'annual', 3)],
    ['a first paid plan after Free', 'immediate', terms('free', 'annual', 1), terms('basic', 'monthly', 2)],
    ['fewer licenses', 'period_end', terms('pro', 'monthly', 5), terms('pro', 'monthly', 4)],
    ['a lower plan', 'period_end', terms('pro', 'monthly', 5), terms('basic', 'monthly', 5)],
    ['a higher plan with fewer licenses', 'period_end', terms('basic', 'monthly', 5), terms('pro', 'monthly', 4)],
    ['annual to monthly', 'period_end', terms('pro', 'annual', 5), terms('pro', 'monthly', 5)],
    ['annual to monthly on a higher plan', 'period_end', terms('basic', 'annual', 5), terms('pro', 'monthly', 9)],
    ['a move to Free', 'period_end', terms('pro', 'annual', 5), terms('free', 'annual', 5)],
    ['the same terms', 'none', terms('pro', 'annual', 5), terms('pro', 'annual', 5)],
    ['Free to Free', 'none', terms('free', 'annual', 5), terms('free', 'monthly', 2)],
  ] as const)('takes %s as %s', (_name, timing, from, to) => {
    expect(changeTiming(from, to)).toBe(timing);
  });
});

describe('planChange', () => {
  const november = billingPeriod({ start: '2026-11-01', cycle: 'monthly' });

  it('charges more licenses mid-period for the remaining days only', () => {
    const change = planChange({
      from: terms('pro', 'monthly', 3),
      to: terms('pro', 'monthly', 5),
      period: november,
      on: '2026-11-16',
    });
    expect(change.timing).toBe('immediate');
    expect(change.effectiveOn).toBe('2026-11-16');
    expect(change.period).toEqual(november);
    expect(change.lines).toEqual([
      {
        kind: 'credit',
        terms: terms('pro', 'monthly', 3),
        start: '2026-11-16',
        end: '2026-12-01',
        days: 15,
        periodDays: 30,
        amountCents: -1500,
      },
      {
        kind: 'charge',
        terms: terms('pro', 'monthly', 5),
        start: '2026-11-16',
        end: '2026-12-01',
        days: 15,
        periodDays: 30,
        amountCents: 2500,
      },
    ]);
    expect(change.totalCents).toBe(1000);
  });

  it('rounds each line to the cent, halves up', () => {
    const year = billingPeriod({ start: '2026-01-01', cycle: 'annual' });
    const change = planChange({
      from: terms('basic', 'annual', 2),
      to: terms('pro', 'annual', 2),
      period: year,
      on: '2026-07-02',
    });
    // 183 of 365 days: 15,120 * 183 / 365 = 7,580.71 and 21,600 * 183 / 365 = 10,829.59.
    expect(change.lines.map((line) => line.amountCents)).toEqual([-7581, 10830]);
    expect(change.totalCents).toBe(3249);
  });

  it('starts an annual period at once on a move from monthly, crediting the unused month', () => {
    const change = planChange({
      from: terms('basic', 'monthly', 4),
      to: terms('basic', 'annual', 4),
      period: november,
      on: '2026-11-21',
    });
    expect(change.timing).toBe('immediate');
    expect(change.period).toEqual({ start: '2026-11-21', end: '2027-11-21', days: 365, anchorDay: 21 });
    expect(change.lines.map((line) => [line.kind, line.amountCents, line.days])).toEqual([
      ['credit', -933, 10],
      ['charge', 30_240, 365],
    ]);
    expect(change.totalCents).toBe(29_307);
  });

  it('charges a first paid plan in full for a period starting that day', () => {
    const change = planChange({
      from: terms('free', 'annual', 1),
      to: terms('pro', 'annual', 3),
      period: null,
      on: '2026-11-25',
    });
    expect(change).toMatchObject({
      timing: 'immediate',
      effectiveOn: '2026-11-25',
      period: { start: '2026-11-25', end: '2027-11-25' },
      totalCents: 32_400,
    });
    expect(change.lines).toHaveLength(1);
    // A trial or Free workspace may have any license count on record: only the new terms count.
    const fromTrial = planChange({
      from: terms('free', 'monthly', 0),
      to: terms('basic', 'monthly', 2),
      period: null,
      on: '2027-01-31',
    });
    expect(fromTrial.period).toMatchObject({ start: '2027-01-31', end: '2027-02-28', anchorDay: 31 });
    expect(fromTrial.totalCents).toBe(1400);
  });

  it('charges nothing now for a downgrade, which starts with the next period', () => {
    const change = planChange({
      from: terms('pro', 'annual', 5),
      to: terms('pro', 'monthly', 2),
      period: billingPeriod({ start: '2026-01-31', cycle: 'annual' }),
      on: '2026-06-10',
    });
    expect(change).toEqual({
      timing: 'period_end',
      effectiveOn: '2027-01-31',
      period: { start: '2027-01-31', end: '2027-02-28', days: 28, anchorDay: 31 },
      lines: [],
      totalCents: 0,
    });
  });

  it('charges nothing for the same terms', () => {
    const same = terms('basic', 'monthly', 2);
    expect(planChange({ from: same, to: same, period: november, on: '2026-11-02' })).toMatchObject({
      timing: 'none',
      lines: [],
      totalCents: 0,
    });
  });

  it('refuses a day outside the period, Enterprise and a paid plan without a period', () => {
    const from = terms('basic', 'monthly', 2);
    expect(() => planChange({ from, to: terms('pro', 'monthly', 2), period: november, on: '2026-12-01' })).toThrow(
      RangeError,
    );
    expect(() => planChange({ from, to: terms('pro', 'monthly', 2), period: november, on: '2026-10-31' })).toThrow(
      RangeError,
    );
    expect(() =>
      planChange({ from, to: terms('enterprise', 'monthly', 2), period: november, on: '2026-11-02' }),
    ).toThrow('Enterprise is sold by contract');
    expect(() => planChange({ from, to: terms('pro', 'monthly', 2), period: null, on: '2026-11-02' })).toThrow(
      RangeError,
    );
  });
});

// Random subscriptions and changes for the properties below.
const PAID = ['basic', 'pro'] as const;
const dayArb = fc
  .date({ min: new Date('2024-01-01'), max: new Date('2032-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const paidTermsArb = (cycle: BillingCycle) =>
  fc.record({ plan: fc.constantFrom(...PAID), cycle: fc.constant(cycle), licenses: fc.integer({ min: 1, max: 999 }) });
const cycleArb = fc.constantFrom<BillingCycle>('monthly', 'annual');
const dayIn = (period: BillingPeriod, seed: number) => shift(period.start, seed % period.days);
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** One requested change: licenses up or down, another paid plan, or the other cycle. */
const changeArb = fc.oneof(
  fc.record({ kind: fc.constant('seats' as const), delta: fc.integer({ min: -40, max: 40 }) }),
  fc.record({ kind: fc.constant('plan' as const), plan: fc.constantFrom(...PAID) }),
  fc.record({ kind: fc.constant('cycle' as const) }),
);
type Change = typeof changeArb extends fc.Arbitrary<infer T> ? T : never;

function apply(active: SubscriptionTerms, change: Change): SubscriptionTerms {
  if (change.kind === 'seats')
    return { ...active, licenses: Math.min(999, Math.max(1, active.licenses + change.delta)) };
  if (change.kind === 'plan') return { ...active, plan: change.plan };
  return { ...active, cycle: active.cycle === 'monthly' ? 'annual' : 'monthly' };
}

describe('proration properties', () => {
  it('keeps every amount in whole cents, charges never negative and credits never positive, over any sequence of changes; and a period never costs more than its highest terms for the whole period plus half a cent per line', () => {
    fc.assert(
      fc.property(
        dayArb,
        cycleArb.chain((cycle) => paidTermsArb(cycle)),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), changeArb), { maxLength: 25 }),
        (start, initial, steps) => {
          let active: SubscriptionTerms = initial;
          let period = billingPeriod({ start, cycle: initial.cycle });
          let paid = quote(initial).subtotalCents;
          let highest = paid;
          let lineCount = 0;
          let on = period.start;
          const closePeriod = (credit: number) => {
            // What the period cost: its first charge, the prorated upgrades, and the credit back when it is cut short.
            expect(paid + credit).toBeLessThanOrEqual(highest + lineCount / 2);
          };
          for (const [gap, change] of steps) {
            const next = shift(on, gap % 40);
            if (daysBetween(next, period.end) <= 0) break;
            on = next;
            const to = apply(active, change);
            const result = planChange({ from: active, to, period, on });
            for (const line of result.lines) {
              expect(Number.isInteger(line.amountCents)).toBe(true);
              if (line.kind === 'charge') expect(line.amountCents).toBeGreaterThanOrEqual(0);
              else expect(line.amountCents).toBeLessThanOrEqual(0);
            }
            expect(Number.isInteger(result.totalCents)).toBe(true);
            expect(result.totalCents).toBeGreaterThanOrEqual(0);
            if (result.timing !== 'immediate') {
              expect(result.lines).toEqual([]);
              continue;
            }
            if (result.period.start !== period.start) {
              // Monthly to annual: the old period ends today with its credit, a new one begins.
              const credit = result.lines.filter((line) => line.kind === 'credit');
              lineCount += credit.length;
              closePeriod(credit.reduce((sum, line) => sum + line.amountCents, 0));
              period = result.period;
              paid = quote(to).subtotalCents;
              highest = paid;
              lineCount = 1;
            } else {
              paid += result.totalCents;
              lineCount += result.lines.length;
              highest = Math.max(highest, quote(to).subtotalCents);
            }
            active = to;
          }
          closePeriod(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('charges the full price of the new terms and credits the full old price when changed on the first day', () => {
    fc.assert(
      fc.property(
        dayArb,
        cycleArb.chain((cycle) => fc.tuple(paidTermsArb(cycle), paidTermsArb(cycle))),
        (start, [from, to]) => {
          const period = billingPeriod({ start, cycle: from.cycle });
          const [credit, charge] = prorate({ from, to, period, on: period.start });
          expect(charge?.amountCents).toBe(quote(to).subtotalCents);
          expect(credit?.amountCents).toBe(-quote(from).subtotalCents);
          // A first purchase (after Free or the trial) on any day is a whole period at the full price.
          const first = planChange({ from: { ...from, plan: 'free' }, to, period: null, on: start });
          expect(first.totalCents).toBe(quote(to).subtotalCents);
          expect(first.period.start).toBe(start);
        },
      ),
    );
  });

  it('nets an upgrade and the reverse change on the same day to at most a rounding cent per line', () => {
    fc.assert(
      fc.property(
        dayArb,
        cycleArb.chain((cycle) => fc.tuple(paidTermsArb(cycle), paidTermsArb(cycle))),
        fc.nat(),
        (start, [a, b], seed) => {
          const period = billingPeriod({ start, cycle: a.cycle });
          const on = dayIn(period, seed);
          const lines = [...prorate({ from: a, to: b, period, on }), ...prorate({ from: b, to: a, period, on })];
          const net = lines.reduce((sum, line) => sum + line.amountCents, 0);
          expect(Math.abs(net)).toBeLessThanOrEqual(lines.length);
          // As charged: the upgrade is billed now, and undoing it bills nothing until the period ends.
          const [low, high] = changeTiming(a, b) === 'immediate' ? [a, b] : [b, a];
          if (changeTiming(low, high) !== 'immediate') return;
          expect(planChange({ from: high, to: low, period, on }).totalCents).toBe(0);
        },
      ),
    );
  });
});
