import type { AwayReason } from '@sundial/core';

/** An away span as stored: idle, locked or suspended from its start to its end. */
export interface AwaySpan {
  started_at: Date;
  ended_at: Date;
  away_reason: AwayReason | null;
}

/** One away period of a person: away spans that follow one another without a gap, as one. */
export interface AwayPeriod {
  start: Date;
  end: Date;
  /** The reason that covers most of it (the first one on a tie). */
  reason: AwayReason;
}

/** The agent cuts spans at whole instants; a gap under this is none (clocks round). */
const ADJACENT_MS = 1000;

/**
 * A person's away spans as periods: a span that starts where another ends (idle, then the screen
 * locked), or inside it (two computers away at once), continues the same period.
 */
export function awayPeriods(spans: readonly AwaySpan[]): AwayPeriod[] {
  const sorted = [...spans].sort((a, b) => a.started_at.getTime() - b.started_at.getTime());
  const periods: { start: number; end: number; byReason: Map<AwayReason, number> }[] = [];
  for (const span of sorted) {
    const start = span.started_at.getTime();
    const end = span.ended_at.getTime();
    if (end <= start) continue;
    const reason = span.away_reason ?? 'idle';
    let last = periods.at(-1);
    if (!last || start - last.end >= ADJACENT_MS) {
      last = { start, end, byReason: new Map() };
      periods.push(last);
    }
    last.end = Math.max(last.end, end);
    last.byReason.set(reason, (last.byReason.get(reason) ?? 0) + (end - start));
  }
  return periods.map((p) => {
    let reason: AwayReason = 'idle';
    let most = -1;
    for (const [r, ms] of p.byReason) if (ms > most) [reason, most] = [r, ms];
    return { start: new Date(p.start), end: new Date(p.end), reason };
  });
}
