import { type BillingCycle, PLAN_IDS } from '../plans.js';
import { type Quote, quote, roundedShare, type SubscriptionTerms } from './pricing.js';

/**
 * One billing period as calendar days ("2026-01-31"), with no time zone: it covers `start` up
 * to but not including `end`, the first day of the next period. `days` is their distance.
 */
export interface BillingPeriod {
  start: string;
  end: string;
  days: number;
  /**
   * The day of the month the subscription began on, which every later period keeps: begun on
   * Jan 31, it runs Feb 28 -> Mar 31, not Mar 28.
   */
  anchorDay: number;
}

/** When a change of terms takes effect: at once (and prorated), at the period's end, or never (nothing changes). */
export type ChangeTiming = 'immediate' | 'period_end' | 'none';

/** One line of a plan change: a credit (negative) for the unused old terms or a charge for the new. */
export interface ProrationLine {
  kind: 'credit' | 'charge';
  terms: SubscriptionTerms;
  /** The days the line pays for (or gives back): `start` up to but not including `end`. */
  start: string;
  end: string;
  days: number;
  /** Length in days of the period the line's price is for. */
  periodDays: number;
  /** `round(subtotal * days / periodDays)`, halves up, negative for a credit. */
  amountCents: number;
}

/** What a change of terms does: when it starts, the period the new terms run in, and what it costs now. */
export interface PlanChange {
  timing: ChangeTiming;
  /** The day the new terms start: the change day when immediate, else the period's end. */
  effectiveOn: string;
  /** The period the new terms run in from `effectiveOn` (a new one on a cycle change or a first purchase). */
  period: BillingPeriod;
  /** Lines to invoice now: empty unless the change is immediate. */
  lines: ProrationLine[];
  /** Sum of the lines, in cents: what to charge now (never negative). */
  totalCents: number;
}

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toUtcMs(day: string): number {
  const match = DAY.exec(day);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day)
    throw new RangeError(`Not a calendar day (YYYY-MM-DD): ${day}`);
  return ms;
}

/** Whole days from one calendar day to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / DAY_MS);
}

/**
 * The billing period that starts on `start`. Monthly ends on the same day next month, annual on
 * the same day next year, clamped to the month's last day (Jan 31 -> Feb 28 or 29; Feb 29 ->
 * Feb 28). `anchorDay` (see BillingPeriod) defaults to the day of `start`: pass the previous
 * period's to chain periods.
 */
export function billingPeriod(options: { start: string; cycle: BillingCycle; anchorDay?: number }): BillingPeriod {
  const start = new Date(toUtcMs(options.start));
  const anchorDay = options.anchorDay ?? start.getUTCDate();
  if (!Number.isInteger(anchorDay) || anchorDay < 1 || anchorDay > 31)
    throw new RangeError(`An anchor day is a day of the month, 1 to 31: ${anchorDay}`);
  const months = start.getUTCMonth() + (options.cycle === 'annual' ? 12 : 1);
  const lastDay = new Date(Date.UTC(start.getUTCFullYear(), months + 1, 0)).getUTCDate();
  const end = new Date(Date.UTC(start.getUTCFullYear(), months, Math.min(anchorDay, lastDay)));
  const endDay = end.toISOString().slice(0, 10);
  return { start: options.start, end: endDay, days: daysBetween(options.start, endDay), anchorDay };
}

// PLAN_IDS lists the plans from the lowest to the highest.
const rank = (terms: SubscriptionTerms) => PLAN_IDS.indexOf(terms.plan);

/**
 * When a change from the current terms to new ones takes effect. An upgrade (plan up, licenses
 * up, monthly to annual, or a first paid plan after Free) is immediate and prorated when nothing
 * in it goes down; any change with a decrease in it (plan down, licenses down, annual to
 * monthly, a move to Free) waits for the end of the period, as a whole.
 */
export function changeTiming(from: SubscriptionTerms, to: SubscriptionTerms): ChangeTiming {
  if (from.plan === 'free' && to.plan === 'free') return 'none';
  if (from.plan === 'free') return 'immediate';
  if (to.plan === 'free') return 'period_end';
  if (from.plan === to.plan && from.cycle === to.cycle && from.licenses === to.licenses) return 'none';
  const isDecrease =
    rank(to) < rank(from) || to.licenses < from.licenses || (from.cycle === 'annual' && to.cycle === 'monthly');
  return isDecrease ? 'period_end' : 'immediate';
}

function line(
  kind: ProrationLine['kind'],
  priced: Quote,
  range: { start: string; end: string },
  period: BillingPeriod,
) {
  const days = daysBetween(range.start, range.end);
  const share = roundedShare(priced.subtotalCents, days, period.days);
  const terms = { plan: priced.plan, cycle: priced.cycle, licenses: priced.licenses };
  return { kind, terms, ...range, days, periodDays: period.days, amountCents: kind === 'credit' ? -share : share };
}

/**
 * The credit and charge of moving from one set of terms to another on day `on` of `period`,
 * both in the same cycle: a credit for the unused days of the old terms and a charge for the
 * same days of the new, each rounded on its own (halves up). Pure arithmetic for any pair of
 * terms (a downgrade gives a negative total): `planChange` decides whether it applies.
 * Throws BillingError for terms that cannot be bought and RangeError for a day outside the period.
 */
export function prorate(options: {
  from: SubscriptionTerms;
  to: SubscriptionTerms;
  period: BillingPeriod;
  on: string;
}): ProrationLine[] {
  const { from, to, period, on } = options;
  if (from.cycle !== to.cycle) throw new RangeError('Proration within a period needs the same billing cycle.');
  assertWithin(period, on);
  const range = { start: on, end: period.end };
  return [line('credit', quote(from), range, period), line('charge', quote(to), range, period)];
}

function assertWithin(period: BillingPeriod, on: string) {
  if (daysBetween(period.start, on) < 0 || daysBetween(on, period.end) <= 0)
    throw new RangeError(`${on} is not a day of the period ${period.start} to ${period.end}.`);
}

/**
 * What changing the current terms (`from`, running in `period`) to `to` on day `on` does.
 * Immediate in the same cycle: the prorated credit and charge for the rest of the period.
 * Immediate from monthly to annual: the unused days of the month come back as a credit and a
 * year starts on `on` at its full price. From Free (or the trial): a first period starts on
 * `on` at the full price; `period` is ignored and may be null.
 * At the period's end or no change: nothing to charge now.
 * Throws BillingError for terms that cannot be bought, RangeError for a paid subscription
 * without a period or a day outside it.
 */
export function planChange(options: {
  from: SubscriptionTerms;
  to: SubscriptionTerms;
  period: BillingPeriod | null;
  on: string;
}): PlanChange {
  const { from, to, period, on } = options;
  const toQuote = quote(to);
  const timing = changeTiming(from, to);
  if (from.plan === 'free') {
    const first = billingPeriod({ start: on, cycle: to.cycle });
    return outcome(timing, on, first, timing === 'none' ? [] : [line('charge', toQuote, first, first)]);
  }
  if (!period) throw new RangeError('A paid subscription always has a current period.');
  const fromQuote = quote(from);
  assertWithin(period, on);
  if (timing === 'none') return outcome(timing, on, period, []);
  if (timing === 'period_end') {
    const next = billingPeriod({ start: period.end, cycle: to.cycle, anchorDay: period.anchorDay });
    return outcome(timing, period.end, next, []);
  }
  if (from.cycle === to.cycle) return outcome(timing, on, period, prorate({ from, to, period, on }));
  const year = billingPeriod({ start: on, cycle: to.cycle });
  const credit = line('credit', fromQuote, { start: on, end: period.end }, period);
  return outcome(timing, on, year, [credit, line('charge', toQuote, year, year)]);
}

function outcome(timing: ChangeTiming, effectiveOn: string, period: BillingPeriod, lines: ProrationLine[]): PlanChange {
  const totalCents = lines.reduce((total, item) => total + item.amountCents, 0);
  return { timing, effectiveOn, period, lines, totalCents };
}
