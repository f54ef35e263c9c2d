import { shiftDay } from '../time/days.js';

/**
 * Working-time contracts (issue 37): from a day on, how many minutes a person is expected to work
 * on each weekday. A contract holds until the next one begins, so a person's history is a list of
 * them (full-time, then part-time from March, ...). Before the first, nothing is expected.
 */
export interface WorkContract {
  /** The first day it holds ("2026-03-01"). */
  from: string;
  /** Minutes expected on Monday, Tuesday, ..., Sunday. */
  weekdayMinutes: readonly [number, number, number, number, number, number, number];
}

/** Monday 0 ... Sunday 6 of a calendar day. */
export function weekdayIndex(day: string): number {
  const [y, m, d] = day.split('-').map(Number);
  return (new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay() + 6) % 7;
}

/**
 * A weekly total spread over working weekdays (Monday 0 ... Sunday 6) in whole minutes: the
 * minutes left over go one each to the first days, so the week adds up exactly (38.5 h over five
 * days is 462 minutes a day).
 */
export function spreadWeek(weeklyMinutes: number, workdays: readonly number[]): WorkContract['weekdayMinutes'] {
  const days = [...new Set(workdays)].filter((d) => d >= 0 && d <= 6).sort((a, b) => a - b);
  const minutes: [number, number, number, number, number, number, number] = [0, 0, 0, 0, 0, 0, 0];
  if (days.length === 0) return minutes;
  const each = Math.floor(weeklyMinutes / days.length);
  let left = weeklyMinutes - each * days.length;
  for (const day of days) {
    minutes[day] = each + (left > 0 ? 1 : 0);
    left -= 1;
  }
  return minutes;
}

/** The contract holding on a day, from contracts in any order; undefined before the first. */
export function contractOn(contracts: readonly WorkContract[], day: string): WorkContract | undefined {
  let found: WorkContract | undefined;
  for (const contract of contracts) {
    if (contract.from <= day && (!found || contract.from > found.from)) found = contract;
  }
  return found;
}

/** What a day takes off the expected time: a public holiday all of it; leave the share it covers (a half day 0.5). */
export interface DayOff {
  holiday?: boolean;
  /** 0 to 1 of the day's expected time taken as leave that the leave type counts as worked or excuses. */
  leave?: number;
}

export interface BalanceDay {
  day: string;
  /** Minutes the contract expects, before holidays and leave. */
  contractMinutes: number;
  /** Minutes expected after holidays and leave. */
  expectedMinutes: number;
  workedMinutes: number;
  /** Worked minus expected, plus the day's adjustments. */
  deltaMinutes: number;
  /** The running balance at the end of the day, from `openingMinutes`. */
  balanceMinutes: number;
}

/**
 * Expected time, worked time and the running overtime balance over the days from..to (inclusive):
 * each day expects what its contract says, nothing on a public holiday, and less the share taken
 * as leave; worked minutes and manual adjustments (an admin's correction, + or -) come per day.
 */
export function overtimeBalance(input: {
  from: string;
  to: string;
  contracts: readonly WorkContract[];
  worked: ReadonlyMap<string, number>;
  daysOff?: ReadonlyMap<string, DayOff>;
  adjustments?: ReadonlyMap<string, number>;
  openingMinutes?: number;
}): BalanceDay[] {
  const days: BalanceDay[] = [];
  let balance = input.openingMinutes ?? 0;
  for (let day = input.from; day <= input.to; day = shiftDay(day, 1)) {
    const contractMinutes = contractOn(input.contracts, day)?.weekdayMinutes[weekdayIndex(day)] ?? 0;
    const off = input.daysOff?.get(day);
    const share = off?.holiday ? 1 : Math.min(1, Math.max(0, off?.leave ?? 0));
    const expectedMinutes = Math.round(contractMinutes * (1 - share));
    const workedMinutes = input.worked.get(day) ?? 0;
    const deltaMinutes = workedMinutes - expectedMinutes + (input.adjustments?.get(day) ?? 0);
    balance += deltaMinutes;
    days.push({ day, contractMinutes, expectedMinutes, workedMinutes, deltaMinutes, balanceMinutes: balance });
  }
  return days;
}
