import { dayKey } from '../time/days.js';

/**
 * Working-time rules (issue 37), as data: a preset is a value of `WorkingTimeRules`, so another
 * country's law is a new entry, not new code. Minutes throughout; null switches a rule off.
 */
export interface WorkingTimeRules {
  /** The most work in one working day. */
  maxDailyMinutes: number | null;
  /**
   * Breaks a working day needs, by its work: more than `afterMinutes` of work needs at least
   * `breakMinutes` of breaks in all (the tier with the highest `afterMinutes` exceeded applies).
   */
  breakTiers: readonly { afterMinutes: number; breakMinutes: number }[];
  /** A pause counts as a break only when it lasts at least this long; shorter ones neither break a stretch nor count. */
  minBreakBlockMinutes: number;
  /** The most work in a row without a break (of at least `minBreakBlockMinutes`). */
  maxStretchMinutes: number | null;
  /** The least rest between the end of one working day and the start of the next. */
  minRestMinutes: number | null;
}

/**
 * Germany's Arbeitszeitgesetz, sections 3 to 5: at most 10 hours a working day (s. 3, the
 * 8-hour average over six months aside); more than 6 hours of work need 30 minutes of breaks and
 * more than 9 hours 45, in blocks of at least 15 minutes, and nobody works more than 6 hours in a
 * row without one (s. 4); 11 hours of uninterrupted rest after the working day (s. 5).
 */
export const GERMAN_WORKING_TIME: WorkingTimeRules = {
  maxDailyMinutes: 600,
  breakTiers: [
    { afterMinutes: 360, breakMinutes: 30 },
    { afterMinutes: 540, breakMinutes: 45 },
  ],
  minBreakBlockMinutes: 15,
  maxStretchMinutes: 360,
  minRestMinutes: 660,
};

export const WORKING_TIME_PRESETS = {
  de: { label: 'Germany (ArbZG sections 3, 4 and 5)', rules: GERMAN_WORKING_TIME },
} as const satisfies Record<string, { label: string; rules: WorkingTimeRules }>;
export type WorkingTimePreset = keyof typeof WORKING_TIME_PRESETS;

/** [start, end) in epoch milliseconds. */
export type Interval = readonly [number, number];

export type WorkingTimeViolation =
  | { rule: 'max_daily'; limitMinutes: number; minutes: number }
  | { rule: 'breaks'; requiredMinutes: number; minutes: number }
  | { rule: 'stretch'; limitMinutes: number; minutes: number; startMs: number }
  | { rule: 'rest'; requiredMinutes: number; minutes: number; sinceMs: number };

/** One working day: its work, its breaks (those long enough to count), and what it breaks. */
export interface WorkingDay {
  /** The local day the working day began on. */
  day: string;
  intervals: Interval[];
  workMinutes: number;
  breakMinutes: number;
  violations: WorkingTimeViolation[];
}

const MINUTE = 60_000;
/**
 * Work that begins on a later calendar day but this soon after the last work belongs to the same
 * working day (a night shift's second half after its break); later, it starts a new one.
 */
const SAME_SHIFT_GAP_MS = 3 * 60 * MINUTE;
const DAY_MS = 24 * 60 * MINUTE;

/** Sorted, overlapping and touching intervals joined (work of two entries at once counts once). */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = merged.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

const minutesOf = (ms: number) => Math.floor(ms / MINUTE);
const workOf = (intervals: readonly Interval[]) => intervals.reduce((sum, [a, b]) => sum + (b - a), 0);

/** The breaks between a working day's intervals that are long enough to count. */
function breaksOf(intervals: readonly Interval[], rules: WorkingTimeRules): Interval[] {
  const breaks: Interval[] = [];
  for (let i = 1; i < intervals.length; i++) {
    const gap: Interval = [(intervals[i - 1] as Interval)[1], (intervals[i] as Interval)[0]];
    if (gap[1] - gap[0] >= rules.minBreakBlockMinutes * MINUTE) breaks.push(gap);
  }
  return breaks;
}

/** The stretches of work between breaks that count: [start, work ms]. */
function stretchesOf(intervals: readonly Interval[], rules: WorkingTimeRules): { startMs: number; workMs: number }[] {
  const stretches: { startMs: number; workMs: number }[] = [];
  let current: { startMs: number; workMs: number } | null = null;
  let lastEnd = Number.NEGATIVE_INFINITY;
  for (const [a, b] of intervals) {
    if (!current || a - lastEnd >= rules.minBreakBlockMinutes * MINUTE) {
      current = { startMs: a, workMs: 0 };
      stretches.push(current);
    }
    current.workMs += b - a;
    lastEnd = b;
  }
  return stretches;
}

/** The breaks a day of this much work needs under the rules, in minutes. */
export function requiredBreakMinutes(workMinutes: number, rules: WorkingTimeRules): number {
  let required = 0;
  for (const tier of rules.breakTiers)
    if (workMinutes > tier.afterMinutes) required = Math.max(required, tier.breakMinutes);
  return required;
}

/**
 * A person's work (intervals over any range, e.g. their entries' work intervals) as working days
 * checked against the rules. A working day is the work that begins on one local calendar day in
 * `timeZone`, with work that follows it within three hours past midnight (a night shift).
 * Breaks are the gaps between the day's work; rest is the gap between one working day's end and
 * the next one's start (flagged on the later day).
 */
export function workingDays(work: readonly Interval[], timeZone: string, rules: WorkingTimeRules): WorkingDay[] {
  const days: WorkingDay[] = [];
  for (const interval of mergeIntervals(work)) {
    const day = dayKey(interval[0], timeZone);
    const current = days.at(-1);
    const lastEnd = current?.intervals.at(-1)?.[1];
    const sameDay =
      current !== undefined &&
      lastEnd !== undefined &&
      (current.day === day ||
        (interval[0] - lastEnd < SAME_SHIFT_GAP_MS && interval[0] - (current.intervals[0] as Interval)[0] < DAY_MS));
    if (sameDay) current.intervals.push(interval);
    else days.push({ day, intervals: [interval], workMinutes: 0, breakMinutes: 0, violations: [] });
  }
  days.forEach((working, i) => {
    working.workMinutes = minutesOf(workOf(working.intervals));
    working.breakMinutes = minutesOf(workOf(breaksOf(working.intervals, rules)));
    working.violations = violationsOf(working, days[i - 1], rules);
  });
  return days;
}

function violationsOf(
  working: WorkingDay,
  previous: WorkingDay | undefined,
  rules: WorkingTimeRules,
): WorkingTimeViolation[] {
  const found: WorkingTimeViolation[] = [];
  if (rules.maxDailyMinutes !== null && working.workMinutes > rules.maxDailyMinutes) {
    found.push({ rule: 'max_daily', limitMinutes: rules.maxDailyMinutes, minutes: working.workMinutes });
  }
  const required = requiredBreakMinutes(working.workMinutes, rules);
  if (working.breakMinutes < required) {
    found.push({ rule: 'breaks', requiredMinutes: required, minutes: working.breakMinutes });
  }
  if (rules.maxStretchMinutes !== null) {
    for (const stretch of stretchesOf(working.intervals, rules)) {
      const minutes = minutesOf(stretch.workMs);
      if (minutes > rules.maxStretchMinutes) {
        found.push({ rule: 'stretch', limitMinutes: rules.maxStretchMinutes, minutes, startMs: stretch.startMs });
      }
    }
  }
  const previousEnd = previous?.intervals.at(-1)?.[1];
  if (rules.minRestMinutes !== null && previousEnd !== undefined) {
    const minutes = minutesOf((working.intervals[0] as Interval)[0] - previousEnd);
    if (minutes < rules.minRestMinutes) {
      found.push({ rule: 'rest', requiredMinutes: rules.minRestMinutes, minutes, sinceMs: previousEnd });
    }
  }
  return found;
}

/** Whether work (one working day's intervals) keeps the break rules: enough breaks, no stretch too long. */
function keepsBreakRules(intervals: readonly Interval[], rules: WorkingTimeRules): boolean {
  const breaks = minutesOf(workOf(breaksOf(intervals, rules)));
  if (breaks < requiredBreakMinutes(minutesOf(workOf(intervals)), rules)) return false;
  const limit = rules.maxStretchMinutes;
  return limit === null || stretchesOf(intervals, rules).every((s) => minutesOf(s.workMs) <= limit);
}

/** The work left when `takenMs` of it, from the instant `fromMs` on, becomes a break. */
function takeWork(intervals: readonly Interval[], fromMs: number, takenMs: number): Interval[] {
  const left: Interval[] = [];
  let rest = takenMs;
  for (const [a, b] of intervals) {
    if (b <= fromMs || rest <= 0) {
      left.push([a, b]);
      continue;
    }
    const from = Math.max(a, fromMs);
    if (from > a) left.push([a, from]);
    const to = Math.min(b, from + rest);
    rest -= to - from;
    if (b > to) left.push([to, b]);
  }
  return left;
}

/** The instant at which a stretch's work reaches `workMs`. */
function instantInto(intervals: readonly Interval[], stretchStart: number, workMs: number): number {
  let left = workMs;
  for (const [a, b] of intervals) {
    if (b <= stretchStart) continue;
    if (left <= b - a) return a + left;
    left -= b - a;
  }
  return (intervals.at(-1) as Interval)[1];
}

/**
 * The break to add to a working day so that it keeps the break rules (the option that adds the
 * legal minimum automatically), or null when it keeps them already or no one break can. The least
 * work is taken: a day of 6 h 10 min in one stretch ends 10 minutes earlier (6 hours in a row need
 * no break), one of 6 h 40 min gets a break of 30 minutes where the stretch reaches its limit (in
 * the middle of the longest stretch when no stretch is too long). A day too long, or too close to
 * the previous one, is not mended by a break: the caller flags it.
 */
export function legalBreak(working: WorkingDay, rules: WorkingTimeRules): Interval | null {
  const intervals = working.intervals;
  if (intervals.length === 0 || keepsBreakRules(intervals, rules)) return null;
  const block = rules.minBreakBlockMinutes * MINUTE;
  const most = (Math.max(0, ...rules.breakTiers.map((t) => t.breakMinutes)) + rules.minBreakBlockMinutes) * MINUTE;
  const limit = rules.maxStretchMinutes === null ? null : rules.maxStretchMinutes * MINUTE;
  const longest = stretchesOf(intervals, rules).reduce((a, b) => (b.workMs > a.workMs ? b : a));
  for (let taken = MINUTE; taken <= most; taken += MINUTE) {
    // Shorter than a block, it counts only as less work: it ends the longest stretch earlier.
    const into =
      taken < block
        ? longest.workMs - taken
        : limit !== null && longest.workMs > limit
          ? limit
          : Math.floor(longest.workMs / 2 / MINUTE) * MINUTE;
    const from = instantInto(intervals, longest.startMs, into);
    const left = takeWork(intervals, from, taken);
    if (keepsBreakRules(left, rules)) {
      const to = instantInto(intervals, longest.startMs, into + taken);
      // Across a gap, the break ends where the taken work does.
      return [from, Math.max(to, from + taken)];
    }
  }
  return null;
}
