import type { AwayPeriodView } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { activityIdOf, awayDays, awayTotals } from './away';

const period = (start: string, minutes: number, resolved = false): AwayPeriodView => ({
  start,
  end: new Date(Date.parse(start) + minutes * 60_000).toISOString(),
  seconds: minutes * 60,
  reason: 'idle',
  resolution: resolved ? { outcome: 'dismissed', activityId: null, entryId: null, at: start } : null,
});

describe('away time on the page', () => {
  it('groups periods by the local day they start on, newest day first', () => {
    const periods = [
      period('2026-06-10T22:30:00Z', 20),
      period('2026-06-10T08:00:00Z', 10),
      period('2026-06-11T09:00:00Z', 5),
    ];
    const utc = awayDays(periods, 'UTC');
    expect(utc.map((d) => [d.day, d.periods.length, d.seconds])).toEqual([
      ['2026-06-11', 1, 300],
      ['2026-06-10', 2, 1800],
    ]);
    // In Berlin (UTC+2 in June) 22:30 UTC is the next day already.
    expect(awayDays(periods, 'Europe/Berlin').map((d) => d.periods.length)).toEqual([2, 1]);
  });

  it('totals away, answered and open time', () => {
    expect(awayTotals([period('2026-06-10T08:00:00Z', 10, true), period('2026-06-10T09:00:00Z', 5)])).toEqual({
      away: 900,
      resolved: 600,
      open: 300,
    });
  });

  it('makes short ids from names, unique in the list', () => {
    expect(activityIdOf('Client call (phone)', new Set())).toBe('client-call-phone');
    expect(activityIdOf('Call', new Set(['call', 'call-2']))).toBe('call-3');
    expect(activityIdOf('☕', new Set())).toBe('activity');
  });
});
