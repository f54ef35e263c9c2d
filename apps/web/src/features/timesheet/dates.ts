import { type ClockFormat, formatClockTime, formatDayLabel, formatDayRange } from '@sundial/core';

/** "Mon, 23 Nov" ("Mon, Nov 23" for MM/DD/YYYY) for a calendar day. */
export const formatDay = (day: string, f: Pick<ClockFormat, 'dateFormat'>): string => formatDayLabel(day, f);

/** "Mon 23" for a grid column head. */
export const formatShortDay = (day: string, f: Pick<ClockFormat, 'dateFormat'>): string =>
  formatDayLabel(day, f, { month: false });

/** Local wall time of an instant in the user's zone, 24 h or 12 h. */
export const formatTime = (instant: string | number, timeZone: string, timeFormat: string): string =>
  formatClockTime(instant, { dateFormat: 'YYYY-MM-DD', timeFormat, timeZone });

/** "23 – 29 Nov 2026" for a week ("Nov 23 – 29, 2026" for MM/DD/YYYY). */
export const formatRange = (first: string, last: string, f: Pick<ClockFormat, 'dateFormat'>): string =>
  formatDayRange(first, last, f);
