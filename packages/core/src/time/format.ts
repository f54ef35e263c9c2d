import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import type { DATE_FORMATS, TIME_FORMATS } from '../schemas/profile.js';

export type DateFormat = (typeof DATE_FORMATS)[number];
export type TimeFormat = (typeof TIME_FORMATS)[number];

/** How a person reads dates and times: their profile's date and time formats and time zone. */
export interface ClockFormat {
  dateFormat: DateFormat | string;
  timeFormat: TimeFormat | string;
  timeZone: string;
}

/** The profile's date formats as date-fns patterns; an unknown one reads as ISO. */
const DATE_PATTERNS: Record<DateFormat, string> = {
  'YYYY-MM-DD': 'yyyy-MM-dd',
  'DD/MM/YYYY': 'dd/MM/yyyy',
  'MM/DD/YYYY': 'MM/dd/yyyy',
  'DD.MM.YYYY': 'dd.MM.yyyy',
};
const datePattern = (f: ClockFormat) => DATE_PATTERNS[f.dateFormat as DateFormat] ?? DATE_PATTERNS['YYYY-MM-DD'];
const timePattern = (f: ClockFormat) => (f.timeFormat === '12h' ? 'h:mm a' : 'HH:mm');

const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** An instant in the person's zone (a calendar day "YYYY-MM-DD" is that day, whatever the zone). */
function local(when: string | number | Date, f: ClockFormat): Date {
  if (typeof when === 'string' && CALENDAR_DAY.test(when)) {
    const [y, m, d] = when.split('-').map(Number);
    return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  }
  return new TZDate(new Date(when).getTime(), f.timeZone);
}

/**
 * The one way Sundial writes a date, a time or both for a person (issue 30): in their profile's
 * date format ("27.11.2026", "11/27/2026", ...), their 12- or 24-hour clock and their time zone.
 */
export const formatDate = (when: string | number | Date, f: ClockFormat): string =>
  format(local(when, f), datePattern(f));

export const formatClockTime = (when: string | number | Date, f: ClockFormat): string =>
  format(local(when, f), timePattern(f));

export const formatDateTime = (when: string | number | Date, f: ClockFormat): string =>
  format(local(when, f), `${datePattern(f)} ${timePattern(f)}`);
