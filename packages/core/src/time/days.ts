import { TZDate } from '@date-fns/tz';
import { addDays, format, startOfDay } from 'date-fns';
import { NO_ROUNDING, type Rounding, roundDuration } from './rounding.js';

export type Instant = string | number | Date;

/** A time entry as every view sees it; a running entry has no end, a paused one an open break. */
export interface TimedEntry {
  id: string;
  start: Instant;
  end: Instant | null;
  breaks?: readonly { start: Instant; end: Instant | null }[];
}

export interface ViewOptions {
  timeZone: string;
  rounding?: Rounding;
  /** Where running entries and open breaks end; defaults to the current time. */
  now?: Instant;
}

/** One entry's work on one local day: the seconds (rounded) and its span within the day. */
export interface DayPiece {
  entryId: string;
  day: string;
  seconds: number;
  startMs: number;
  endMs: number;
}

export const toMs = (value: Instant): number => (typeof value === 'number' ? value : new Date(value).getTime());

/** The local calendar day ("2026-03-29") of an instant in a time zone. */
export const dayKey = (instant: Instant, timeZone: string): string =>
  format(new TZDate(toMs(instant), timeZone), 'yyyy-MM-dd');

/** The instant of a local date and time in a time zone (a time skipped by DST moves forward). */
export function zonedInstant(day: string, time: string, timeZone: string): number {
  const [y, mo, d] = day.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  return new TZDate(y ?? 1970, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0, timeZone).getTime();
}

/** [start, end) of a local day in a time zone: 23, 24 or 25 hours long. */
export function dayBounds(day: string, timeZone: string): { startMs: number; endMs: number } {
  const start = new TZDate(zonedInstant(day, '00:00', timeZone), timeZone);
  return { startMs: start.getTime(), endMs: addDays(start, 1).getTime() };
}

/** A calendar day shifted by whole days ("2026-03-28", 1 -> "2026-03-29"); no time zone involved. */
export function shiftDay(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}

export const WEEK_START_INDEX = { sunday: 0, monday: 1, saturday: 6 } as const;
export type WeekStart = keyof typeof WEEK_START_INDEX;

/** The seven days of the week holding `day`, starting on the user's week start. */
export function weekDays(day: string, weekStart: WeekStart): string[] {
  const [y, m, d] = day.split('-').map(Number);
  const weekday = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).getUTCDay();
  const back = (weekday - WEEK_START_INDEX[weekStart] + 7) % 7;
  const first = shiftDay(day, -back);
  return Array.from({ length: 7 }, (_, i) => shiftDay(first, i));
}

/** The intervals an entry counts as work: start to end (or now) without its breaks. */
export function workIntervals(entry: TimedEntry, nowMs: number): [number, number][] {
  const start = toMs(entry.start);
  const end = entry.end === null ? Math.max(start, nowMs) : toMs(entry.end);
  const breaks = (entry.breaks ?? [])
    .map((b): [number, number] => [Math.max(start, toMs(b.start)), Math.min(end, b.end === null ? end : toMs(b.end))])
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0]);
  const intervals: [number, number][] = [];
  let cursor = start;
  for (const [a, b] of breaks) {
    if (a > cursor) intervals.push([cursor, a]);
    cursor = Math.max(cursor, b);
  }
  if (end > cursor) intervals.push([cursor, end]);
  return intervals;
}

/** Work seconds of an entry, unrounded. */
export function workSeconds(entry: TimedEntry, now: Instant = Date.now()): number {
  return workIntervals(entry, toMs(now)).reduce((sum, [a, b]) => sum + Math.round((b - a) / 1000), 0);
}

interface LocalDay {
  day: string;
  startMs: number;
  endMs: number;
}
/** Local days already worked out, per time zone: a week's thousand entries fall on seven of them. */
const localDays = new Map<string, LocalDay[]>();
const LOCAL_DAYS_KEPT = 400;

/** The local day holding an instant, with its [start, end) (time-zone arithmetic is slow: cached). */
function localDayOf(ms: number, timeZone: string): LocalDay {
  let days = localDays.get(timeZone);
  const known = days?.find((d) => d.startMs <= ms && ms < d.endMs);
  if (known) return known;
  const local = new TZDate(ms, timeZone);
  const start = startOfDay(local);
  const found = { day: format(local, 'yyyy-MM-dd'), startMs: start.getTime(), endMs: addDays(start, 1).getTime() };
  if (!days || days.length >= LOCAL_DAYS_KEPT) {
    days = [];
    localDays.set(timeZone, days);
  }
  days.push(found);
  return found;
}

/**
 * Pieces of finished entries already worked out, per entry object and zone and rounding: a view
 * ticking every second for a running timer then splits only the running entry again.
 */
const finishedPieces = new WeakMap<TimedEntry, { key: string; pieces: readonly DayPiece[] }>();

/**
 * Splits an entry's work into local days of the time zone (an entry may cross midnight and DST
 * changes) and rounds each day's part with the workspace rounding. Every view adds these parts.
 * The answer is shared for a finished entry: do not change it.
 */
export function dayPieces(entry: TimedEntry, options: ViewOptions): DayPiece[] {
  const open = entry.end === null || (entry.breaks ?? []).some((b) => b.end === null);
  if (open) return splitIntoDays(entry, options);
  const rounding = options.rounding ?? NO_ROUNDING;
  const key = `${options.timeZone}|${rounding.mode}|${rounding.minutes}`;
  const known = finishedPieces.get(entry);
  if (known?.key === key) return known.pieces as DayPiece[];
  const pieces = splitIntoDays(entry, options);
  finishedPieces.set(entry, { key, pieces });
  return pieces;
}

function splitIntoDays(entry: TimedEntry, options: ViewOptions): DayPiece[] {
  const nowMs = toMs(options.now ?? Date.now());
  const byDay = new Map<string, DayPiece>();
  for (const [a, b] of workIntervals(entry, nowMs)) {
    let cursor = a;
    while (cursor < b) {
      const local = localDayOf(cursor, options.timeZone);
      const next = Math.min(b, local.endMs);
      const day = local.day;
      const piece = byDay.get(day) ?? { entryId: entry.id, day, seconds: 0, startMs: cursor, endMs: next };
      piece.seconds += Math.round((next - cursor) / 1000);
      piece.endMs = next;
      byDay.set(day, piece);
      cursor = next;
    }
  }
  if (byDay.size === 0) {
    const start = toMs(entry.start);
    const day = dayKey(start, options.timeZone);
    return [{ entryId: entry.id, day, seconds: 0, startMs: start, endMs: start }];
  }
  const rounding = options.rounding ?? NO_ROUNDING;
  return [...byDay.values()].map((p) => ({ ...p, seconds: roundDuration(p.seconds, rounding) }));
}

/** Ids of entries whose time overlaps another entry of the list (allowed, but flagged). */
export function findOverlaps(entries: readonly TimedEntry[], now: Instant = Date.now()): Set<string> {
  const nowMs = toMs(now);
  const spans = entries
    .map((e) => ({ id: e.id, a: toMs(e.start), b: e.end === null ? Math.max(toMs(e.start), nowMs) : toMs(e.end) }))
    .sort((x, y) => x.a - y.a);
  const found = new Set<string>();
  let last: (typeof spans)[number] | undefined;
  for (const span of spans) {
    if (last && span.a < last.b) {
      found.add(span.id);
      found.add(last.id);
    }
    if (!last || span.b > last.b) last = span;
  }
  return found;
}
