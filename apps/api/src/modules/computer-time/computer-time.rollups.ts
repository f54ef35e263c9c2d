import { dayBounds, dayKey, hostOf, shiftDay } from '@sundial/core';
import type { DailyDelta } from './computer-time.repository.js';

/** What counts toward the daily rollups of a span: active time, by application and site. */
export interface RolledSpan {
  kind: 'active' | 'away';
  app: string | null;
  /** The page, where the workspace keeps sites: its host is the rollup's site. */
  url: string | null;
  started_at: Date;
  ended_at: Date;
}

const keyOf = (day: string, app: string, site: string) => `${day}\u0000${app}\u0000${site}`;

/**
 * The seconds of active spans per local day (midnight in `timeZone` splits a span), application
 * and site (the page's host; '' without one), each span's piece rounded to the second; `sign` -1 takes them away. The same spans
 * always give the same pieces, so adding and later removing them leaves the rollups as they were.
 */
export function dailyDeltas(spans: readonly RolledSpan[], timeZone: string, sign: 1 | -1 = 1): Map<string, DailyDelta> {
  const deltas = new Map<string, DailyDelta>();
  addDeltas(deltas, spans, timeZone, sign);
  return deltas;
}

/** Adds the spans' pieces (see `dailyDeltas`) into `deltas`. */
export function addDeltas(
  deltas: Map<string, DailyDelta>,
  spans: readonly RolledSpan[],
  timeZone: string,
  sign: 1 | -1,
): void {
  // Spans come in runs within one day: its bounds are worked out once, not per span.
  const boundsOf = new Map<string, { startMs: number; endMs: number }>();
  const bounded = (day: string) => {
    const known = boundsOf.get(day);
    if (known) return known;
    const bounds = dayBounds(day, timeZone);
    boundsOf.set(day, bounds);
    return bounds;
  };
  let last: { day: string; startMs: number; endMs: number } | undefined;
  for (const span of spans) {
    if (span.kind !== 'active' || span.app === null) continue;
    const start = span.started_at.getTime();
    const end = span.ended_at.getTime();
    const site = hostOf(span.url) ?? '';
    let day = last && start >= last.startMs && start < last.endMs ? last.day : dayKey(start, timeZone);
    for (;;) {
      const bounds = bounded(day);
      last = { day, ...bounds };
      const seconds = Math.round((Math.min(end, bounds.endMs) - Math.max(start, bounds.startMs)) / 1000);
      if (seconds > 0) {
        const key = keyOf(day, span.app, site);
        const delta = deltas.get(key) ?? { day, app: span.app, site, seconds: 0 };
        delta.seconds += sign * seconds;
        deltas.set(key, delta);
      }
      if (end <= bounds.endMs) break;
      day = shiftDay(day, 1);
    }
  }
}
