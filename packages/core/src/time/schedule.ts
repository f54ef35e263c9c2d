import { dayKey, shiftDay, zonedInstant } from './days.js';

/** When a scheduled report goes out: a local hour on every day, one weekday, or one day of the month. */
export interface SendTime {
  frequency: 'daily' | 'weekly' | 'monthly';
  /** Weekly: 0 Sunday … 6 Saturday. */
  weekday: number | null;
  /** Monthly: 1 … 28. */
  monthDay: number | null;
  /** 0 … 23, local to `timeZone`. */
  hour: number;
  timeZone: string;
}

const weekdayOf = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();

/**
 * The first send strictly after `after`: the chosen local hour of the next matching local day, in
 * the schedule's zone. An hour that DST skips moves forward (02:00 on a spring-forward night sends
 * at 03:00); an hour that happens twice sends once, at its first occurrence.
 */
export function nextSendAt(time: SendTime, after: Date): Date {
  const hour = `${String(time.hour).padStart(2, '0')}:00`;
  let day = dayKey(after, time.timeZone);
  for (let i = 0; i < 400; i++, day = shiftDay(day, 1)) {
    if (time.frequency === 'weekly' && weekdayOf(day) !== time.weekday) continue;
    if (time.frequency === 'monthly' && Number(day.slice(8, 10)) !== time.monthDay) continue;
    const at = zonedInstant(day, hour, time.timeZone);
    if (at > after.getTime()) return new Date(at);
  }
  throw new Error('a schedule has no next send within a year');
}
