import { type AwayPeriodView, dayKey } from '@sundial/core';

/** A day of away periods, newest day first, each day's periods in order. */
export interface AwayDay {
  day: string;
  periods: AwayPeriodView[];
  seconds: number;
}

/** Periods grouped by the local day they start on (newest day first). */
export function awayDays(periods: readonly AwayPeriodView[], timeZone: string): AwayDay[] {
  const days = new Map<string, AwayDay>();
  for (const period of [...periods].sort((a, b) => Date.parse(a.start) - Date.parse(b.start))) {
    const day = dayKey(Date.parse(period.start), timeZone);
    const found = days.get(day) ?? { day, periods: [], seconds: 0 };
    found.periods.push(period);
    found.seconds += period.seconds;
    days.set(day, found);
  }
  return [...days.values()].sort((a, b) => b.day.localeCompare(a.day));
}

/** Seconds away in all, answered, and still to answer. */
export function awayTotals(periods: readonly AwayPeriodView[]): { away: number; resolved: number; open: number } {
  let away = 0;
  let resolved = 0;
  for (const period of periods) {
    away += period.seconds;
    if (period.resolution) resolved += period.seconds;
  }
  return { away, resolved, open: away - resolved };
}

/** A short stable id for a new away activity, from its name. */
export function activityIdOf(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30) || 'activity';
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  return id;
}
