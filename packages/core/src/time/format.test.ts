import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDate, formatDateTime } from './format.js';

const berlin = (dateFormat: string, timeFormat: string) => ({ dateFormat, timeFormat, timeZone: 'Europe/Berlin' });

describe('the one date and time formatter', () => {
  it("writes a date in each of the profile's formats, in the person's zone", () => {
    // 23:30 UTC on 27 November is already the 28th in Berlin.
    const late = '2026-11-27T23:30:00Z';
    expect(formatDate(late, berlin('YYYY-MM-DD', '24h'))).toBe('2026-11-28');
    expect(formatDate(late, berlin('DD/MM/YYYY', '24h'))).toBe('28/11/2026');
    expect(formatDate(late, berlin('MM/DD/YYYY', '24h'))).toBe('11/28/2026');
    expect(formatDate(late, berlin('DD.MM.YYYY', '24h'))).toBe('28.11.2026');
    expect(formatDate(late, { ...berlin('DD.MM.YYYY', '24h'), timeZone: 'America/New_York' })).toBe('27.11.2026');
  });

  it('writes a calendar day as that day, whatever the zone', () => {
    expect(formatDate('2026-03-29', { ...berlin('MM/DD/YYYY', '12h'), timeZone: 'Pacific/Auckland' })).toBe(
      '03/29/2026',
    );
  });

  it('writes times on a 24- or 12-hour clock, midnight and noon included, across a DST change', () => {
    expect(formatClockTime('2026-11-27T13:30:00Z', berlin('YYYY-MM-DD', '24h'))).toBe('14:30');
    expect(formatClockTime('2026-11-27T13:30:00Z', berlin('YYYY-MM-DD', '12h'))).toBe('2:30 PM');
    expect(formatClockTime('2026-11-27T23:00:00Z', berlin('YYYY-MM-DD', '12h'))).toBe('12:00 AM');
    expect(formatClockTime('2026-11-27T11:00:00Z', berlin('YYYY-MM-DD', '12h'))).toBe('12:00 PM');
    // Berlin moved from 02:00 to 03:00 on 29 March 2026: 01:30 UTC is 03:30 local.
    expect(formatClockTime('2026-03-29T00:30:00Z', berlin('YYYY-MM-DD', '24h'))).toBe('01:30');
    expect(formatClockTime('2026-03-29T01:30:00Z', berlin('YYYY-MM-DD', '24h'))).toBe('03:30');
  });

  it('writes both together, and reads an unknown date format as ISO', () => {
    expect(formatDateTime('2026-11-27T13:30:00Z', berlin('DD.MM.YYYY', '24h'))).toBe('27.11.2026 14:30');
    expect(formatDateTime('2026-11-27T13:30:00Z', berlin('MM/DD/YYYY', '12h'))).toBe('11/27/2026 2:30 PM');
    expect(formatDate('2026-11-27T13:30:00Z', berlin('nonsense', '24h'))).toBe('2026-11-27');
  });
});
