export const ROUNDING_MODES = ['none', 'up', 'down', 'nearest'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];
export const ROUNDING_MINUTES = [1, 5, 6, 10, 15, 30, 60] as const;
export type RoundingMinutes = (typeof ROUNDING_MINUTES)[number];

export interface Rounding {
  mode: RoundingMode;
  minutes: RoundingMinutes;
}

export const NO_ROUNDING: Rounding = { mode: 'none', minutes: 1 };

/**
 * The one rounding function: every view (day list, week grid, calendar, reports) rounds each
 * entry's part of a day with it and then adds, so all of them show the same totals.
 * `nearest` rounds halves up.
 */
export function roundDuration(seconds: number, rounding: Rounding): number {
  if (rounding.mode === 'none') return seconds;
  const step = rounding.minutes * 60;
  const steps = seconds / step;
  const whole =
    rounding.mode === 'up' ? Math.ceil(steps) : rounding.mode === 'down' ? Math.floor(steps) : Math.floor(steps + 0.5);
  return whole * step;
}
