import { describe, expect, it } from 'vitest';
import { nextSendAt, type SendTime } from './schedule.js';

const at = (iso: string) => new Date(iso);
const berlin = (t: Partial<SendTime>): SendTime => ({
  frequency: 'daily',
  weekday: null,
  monthDay: null,
  hour: 8,
  timeZone: 'Europe/Berlin',
  ...t,
});

describe('nextSendAt', () => {
  it('sends a daily schedule at the local hour, later today or else tomorrow', () => {
    expect(nextSendAt(berlin({}), at('2026-01-10T06:00:00Z')).toISOString()).toBe('2026-01-10T07:00:00.000Z');
    expect(nextSendAt(berlin({}), at('2026-01-10T07:00:00Z')).toISOString()).toBe('2026-01-11T07:00:00.000Z');
  });

  it('keeps the local hour across the spring-forward and fall-back nights', () => {
    // Berlin moves from UTC+1 to UTC+2 on 29 March 2026 and back on 25 October 2026.
    expect(nextSendAt(berlin({}), at('2026-03-28T07:00:00Z')).toISOString()).toBe('2026-03-29T06:00:00.000Z');
    expect(nextSendAt(berlin({}), at('2026-10-24T06:00:00Z')).toISOString()).toBe('2026-10-25T07:00:00.000Z');
  });

  it('moves an hour that DST skips forward, and sends an hour that happens twice once', () => {
    const skipped = berlin({ hour: 2 });
    expect(nextSendAt(skipped, at('2026-03-28T12:00:00Z')).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    const twice = berlin({ hour: 2 });
    const first = nextSendAt(twice, at('2026-10-24T12:00:00Z'));
    const second = nextSendAt(twice, first);
    expect(second.getTime() - first.getTime()).toBeGreaterThan(23 * 3_600_000);
    expect(second.toISOString().slice(0, 10)).toBe('2026-10-26');
  });

  it('finds the chosen weekday in the schedule’s own zone, not in UTC', () => {
    // Monday 07:00 in Tokyo is Sunday 22:00 UTC.
    const monday = { frequency: 'weekly', weekday: 1, monthDay: null, hour: 7, timeZone: 'Asia/Tokyo' } as const;
    expect(nextSendAt(monday, at('2026-11-20T00:00:00Z')).toISOString()).toBe('2026-11-22T22:00:00.000Z');
  });

  it('sends a monthly schedule on its day, next month once this month’s has passed', () => {
    const fifth = berlin({ frequency: 'monthly', monthDay: 5, hour: 9 });
    expect(nextSendAt(fifth, at('2026-02-05T08:00:00Z')).toISOString()).toBe('2026-03-05T08:00:00.000Z');
    expect(nextSendAt(fifth, at('2026-02-04T08:00:00Z')).toISOString()).toBe('2026-02-05T08:00:00.000Z');
  });

  it('counts from the US zones’ own DST dates', () => {
    const ny = { frequency: 'daily', weekday: null, monthDay: null, hour: 9, timeZone: 'America/New_York' } as const;
    expect(nextSendAt(ny, at('2026-03-08T12:00:00Z')).toISOString()).toBe('2026-03-08T13:00:00.000Z');
    expect(nextSendAt(ny, at('2026-03-07T12:00:00Z')).toISOString()).toBe('2026-03-07T14:00:00.000Z');
  });
});
