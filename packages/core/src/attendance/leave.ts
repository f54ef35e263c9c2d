/**
 * Leave balances (issue 37): a policy's yearly allowance, accrued yearly or monthly, prorated for
 * someone employed part of the year, carried over into the next with an expiry date, and the
 * bookings (approved requests, half days, company-wide mandatory days) taken from it. Amounts are
 * in the type's unit: days (half days allowed) or minutes for a type counted in hours.
 */
export interface LeavePolicy {
  /** The yearly allowance; null is unlimited (nothing accrues, nothing runs out). */
  allowance: number | null;
  accrual: 'yearly' | 'monthly';
  /** Whether someone who joins or leaves mid-year gets the share of the months they are employed. */
  prorate: boolean;
  /** What is left at a year's end that carries into the next (null: none), and when it lapses ("03-31"). */
  carryOver: { max: number | null; expires: string | null } | null;
  /** Whether a booking may take the balance below zero. */
  allowNegative: boolean;
  unit: 'days' | 'minutes';
}

export interface LeaveBooking {
  day: string;
  amount: number;
}

export interface LeaveYear {
  year: number;
  /** The year's allowance after proration. */
  entitlement: number;
  /** What of it has accrued by `asOf` (all of it for yearly accrual). */
  accrued: number;
  /** Brought in from the year before. */
  carried: number;
  /** The part of `carried` that lapsed unused by `asOf`. */
  lapsed: number;
  /** Booked in the year (taken or planned). */
  used: number;
  /** accrued + carried - lapsed - used; null when unlimited. */
  remaining: number | null;
}

/** Half days for days, whole minutes for minutes; a share rounds up (in the person's favour). */
function roundUp(amount: number, unit: LeavePolicy['unit']): number {
  const step = unit === 'days' ? 0.5 : 1;
  const rounded = Math.ceil(amount / step - 1e-9) * step;
  return rounded === 0 ? 0 : rounded;
}

const monthOf = (day: string) => Number(day.slice(5, 7));
const yearOf = (day: string) => Number(day.slice(0, 4));

/** The months of `year` someone employed from..until (inclusive days) is employed in, counting a month begun. */
function monthsEmployed(year: number, from: string | null, until: string | null): number[] {
  const months: number[] = [];
  for (let month = 1; month <= 12; month++) {
    const first = `${year}-${String(month).padStart(2, '0')}-01`;
    const last = `${year}-${String(month).padStart(2, '0')}-31`;
    if ((from === null || from <= last) && (until === null || until >= first)) months.push(month);
  }
  return months;
}

/**
 * A person's leave year of one type: entitlement (prorated by the months employed when the policy
 * says so), what has accrued by `asOf`, the carried days and the part of them that lapsed (bookings
 * up to the expiry take the carried days first), and what remains.
 */
export function leaveYear(input: {
  policy: LeavePolicy;
  year: number;
  asOf: string;
  employedFrom?: string | null;
  employedUntil?: string | null;
  carriedIn?: number;
  bookings: readonly LeaveBooking[];
}): LeaveYear {
  const { policy, year, asOf } = input;
  const inYear = input.bookings.filter((b) => yearOf(b.day) === year);
  const used = inYear.reduce((sum, b) => sum + b.amount, 0);
  if (policy.allowance === null) {
    return { year, entitlement: 0, accrued: 0, carried: 0, lapsed: 0, used, remaining: null };
  }
  const months = monthsEmployed(year, input.employedFrom ?? null, input.employedUntil ?? null);
  const share = policy.prorate ? months.length / 12 : months.length > 0 ? 1 : 0;
  const entitlement = roundUp(policy.allowance * share, policy.unit);
  let accrued = entitlement;
  if (policy.accrual === 'monthly') {
    const begun = yearOf(asOf) < year ? 0 : yearOf(asOf) > year ? 12 : monthOf(asOf);
    const monthsSoFar = months.filter((m) => m <= begun).length;
    accrued =
      months.length === 0
        ? 0
        : Math.min(entitlement, roundUp((entitlement * monthsSoFar) / months.length, policy.unit));
  }
  const carried = policy.carryOver ? Math.max(0, input.carriedIn ?? 0) : 0;
  let lapsed = 0;
  const expires = policy.carryOver?.expires;
  if (carried > 0 && expires) {
    const expiry = `${year}-${expires}`;
    if (asOf > expiry) {
      const usedByExpiry = inYear.filter((b) => b.day <= expiry).reduce((sum, b) => sum + b.amount, 0);
      lapsed = Math.max(0, carried - usedByExpiry);
    }
  }
  return { year, entitlement, accrued, carried, lapsed, used, remaining: accrued + carried - lapsed - used };
}

/** What carries from a year's end into the next under the policy (never negative). */
export function carryOut(policy: LeavePolicy, yearEnd: LeaveYear): number {
  if (!policy.carryOver || yearEnd.remaining === null) return 0;
  const left = Math.max(0, yearEnd.remaining);
  return policy.carryOver.max === null ? left : Math.min(left, policy.carryOver.max);
}

/**
 * Whether a new booking fits the year: always for an unlimited type or one that allows a negative
 * balance; else when the year, with the booking and all that accrues by its end, still has something
 * left (carried days count only where used before they lapse: a booking after the expiry cannot
 * use them).
 */
export function bookingFits(input: Omit<Parameters<typeof leaveYear>[0], 'asOf'>, booking: LeaveBooking): boolean {
  if (input.policy.allowance === null || input.policy.allowNegative) return true;
  const year = leaveYear({ ...input, asOf: `${input.year}-12-31`, bookings: [...input.bookings, booking] });
  return (year.remaining ?? 0) >= 0;
}
