import { tzOffset } from '@date-fns/tz';
import { dayBounds, type Instant, toMs } from './days.js';

/*
 * The calendar draws a day as 24 hours of wall clock (the labels 00:00 … 23:00), so blocks,
 * the now-line and a drag are placed by the time the clock shows, not by time elapsed since
 * midnight. On a DST day the two differ by an hour after the change. These functions convert
 * between an instant and the minutes on a day's wall clock.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 00:00 of a calendar day, read as if it were UTC: wall-clock minutes count from it. */
function wallMidnight(day: string): number {
  const [y, m, d] = day.split('-').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

const offsetMs = (ms: number, timeZone: string) => tzOffset(timeZone, new Date(ms)) * MINUTE;

/**
 * Minutes since 00:00 of `day` that the wall clock of the zone shows at an instant: on
 * 2026-03-29 in Berlin 09:00 CEST is 540 although only 8 hours have passed since midnight.
 * Instants of other days run past: the next day's 01:00 is 1500, the previous day's 23:00 is -60.
 */
export function wallMinutes(instant: Instant, day: string, timeZone: string): number {
  const ms = toMs(instant);
  return (ms + offsetMs(ms, timeZone) - wallMidnight(day)) / MINUTE;
}

/** The first whole minute in (lo, hi] whose UTC offset is that of `hi` (the offset changes once between them). */
function changeBetween(lo: number, hi: number, timeZone: string): number {
  const after = offsetMs(hi, timeZone);
  let a = Math.floor(lo / MINUTE);
  let b = Math.ceil(hi / MINUTE);
  while (b - a > 1) {
    const mid = Math.floor((a + b) / 2);
    if (offsetMs(mid * MINUTE, timeZone) === after) b = mid;
    else a = mid;
  }
  return b * MINUTE;
}

/**
 * The instant whose wall clock shows `minutes` after 00:00 of `day` in the zone (minutes may run
 * below 0 or past 1440 into the neighbouring days). A time the clocks skip (spring forward, Berlin's
 * 02:30 on 29 March) gives the first instant after the gap (03:00 CEST); a time shown twice (fall
 * back, 02:30 on 25 October) gives its first occurrence (02:30 CEST, before the clocks go back).
 */
export function wallInstant(day: string, minutes: number, timeZone: string): number {
  const naive = wallMidnight(day) + minutes * MINUTE;
  const offsets = new Set([naive - DAY, naive, naive + DAY].map((ms) => offsetMs(ms, timeZone)));
  const fits = [...offsets].map((o) => naive - o).filter((ms) => naive - offsetMs(ms, timeZone) === ms);
  if (fits.length > 0) return Math.min(...fits);
  // In a gap: the later offset puts the instant before the change, the earlier one after it.
  const sorted = [...offsets].sort((a, b) => a - b);
  const before = naive - (sorted.at(-1) ?? 0);
  const after = naive - (sorted[0] ?? 0);
  return changeBetween(before, after, timeZone);
}

/** A change of the clocks within a local day, as the stretch of its wall clock it concerns. */
export interface ClockChange {
  /** The instant the clocks change. */
  atMs: number;
  /** Spring forward skips the wall-clock stretch [from, to); fall back shows it twice. */
  kind: 'skipped' | 'repeated';
  /** Wall-clock minutes of the day (02:00 to 03:00 is 120 to 180). */
  from: number;
  to: number;
}

/** The clock changes (DST and other offset changes) within a local day of the zone; usually none. */
export function clockChanges(day: string, timeZone: string): ClockChange[] {
  const { startMs, endMs } = dayBounds(day, timeZone);
  const changes: ClockChange[] = [];
  if (offsetMs(startMs, timeZone) === offsetMs(endMs, timeZone)) return changes;
  for (let t = startMs; t < endMs; t += HOUR) {
    const next = Math.min(t + HOUR, endMs);
    const a = offsetMs(t, timeZone);
    const b = offsetMs(next, timeZone);
    if (a === b) continue;
    const atMs = changeBetween(t, next, timeZone);
    const shown = [atMs + a, atMs + b].map((ms) => (ms - wallMidnight(day)) / MINUTE);
    changes.push({
      atMs,
      kind: b > a ? 'skipped' : 'repeated',
      from: Math.min(...shown),
      to: Math.max(...shown),
    });
  }
  return changes;
}
