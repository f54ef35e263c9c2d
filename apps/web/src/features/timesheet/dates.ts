import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';

/** "Mon, 23 Nov" for a calendar day. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return format(new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1), 'EEE, d MMM');
}

/** "Mon 23" for a grid column head. */
export function formatShortDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return format(new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1), 'EEE d');
}

/** Local wall time of an instant in the user's zone, 24 h or 12 h. */
export function formatTime(instant: string | number, timeZone: string, timeFormat: string): string {
  return format(new TZDate(new Date(instant).getTime(), timeZone), timeFormat === '12h' ? 'h:mm a' : 'HH:mm');
}

/** "23 – 29 Nov 2026" for a week. */
export function formatRange(first: string, last: string): string {
  const a = new Date(`${first}T12:00:00Z`);
  const b = new Date(`${last}T12:00:00Z`);
  const sameMonth = a.getUTCMonth() === b.getUTCMonth();
  const opts = { timeZone: 'UTC' } as const;
  const left = sameMonth
    ? a.toLocaleDateString('en-GB', { day: 'numeric', ...opts })
    : a.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', ...opts });
  return `${left} – ${b.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', ...opts })}`;
}
