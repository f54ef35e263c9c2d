import { describe, expect, it } from 'vitest';
import {
  formatCalendarDay,
  formatClockTime,
  formatDate,
  formatDateTime,
  formatDayLabel,
  formatDayRange,
  formatMonthLabel,
  formatWeekday,
  formatWeekdayTime,
} from './format.js';

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

  it("moves a calendar day's digits as the date-fns pattern would write it, for exports' million cells", () => {
    for (const dateFormat of ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY', 'nonsense'])
      for (const day of ['2026-01-05', '2026-11-30', '2024-02-29'])
        expect(formatCalendarDay(day, dateFormat)).toBe(
          formatDate(new Date(`${day}T12:00:00Z`), { dateFormat, timeFormat: '24h', timeZone: 'UTC' }),
        );
    // A wall-clock time's day part ("2026-11-02T09:30:00") reads as its day.
    expect(formatCalendarDay('2026-11-02T09:30:00', 'DD.MM.YYYY')).toBe('02.11.2026');
    expect(formatWeekday('2026-11-02')).toBe('Mon');
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

describe('days, months and ranges in words', () => {
  const dmy = { dateFormat: 'DD.MM.YYYY' };
  const us = { dateFormat: 'MM/DD/YYYY' };
  it("names a day in the order the person writes dates, whatever the browser's language", () => {
    expect(formatDayLabel('2026-11-23', dmy)).toBe('Mon, 23 Nov');
    expect(formatDayLabel('2026-11-23', us)).toBe('Mon, Nov 23');
    expect(formatDayLabel('2026-11-23', us, { year: true })).toBe('Mon, Nov 23, 2026');
    expect(formatDayLabel('2026-11-23', dmy, { weekday: false, year: true })).toBe('23 Nov 2026');
    expect(formatDayLabel('2026-11-23', us, { month: false })).toBe('Mon 23');
    // An instant is named by its day in the zone given: 23:30 UTC is already Tuesday in Berlin.
    expect(formatDayLabel('2026-11-23T23:30:00Z', { ...dmy, timeZone: 'Europe/Berlin' })).toBe('Tue, 24 Nov');
    expect(formatMonthLabel('2026-11-23')).toBe('Nov 2026');
  });

  it('writes a range as short as reads unambiguously', () => {
    expect(formatDayRange('2026-11-23', '2026-11-29', dmy)).toBe('23 – 29 Nov 2026');
    expect(formatDayRange('2026-11-30', '2026-12-06', dmy)).toBe('30 Nov – 6 Dec 2026');
    expect(formatDayRange('2026-12-28', '2027-01-03', dmy)).toBe('28 Dec 2026 – 3 Jan 2027');
    expect(formatDayRange('2026-11-23', '2026-11-23', dmy)).toBe('23 Nov 2026');
    expect(formatDayRange('2026-11-23', '2026-11-29', us)).toBe('Nov 23 – 29, 2026');
    expect(formatDayRange('2026-11-30', '2026-12-06', us)).toBe('Nov 30 – Dec 6, 2026');
    expect(formatDayRange('2026-12-28', '2027-01-03', us)).toBe('Dec 28, 2026 – Jan 3, 2027');
  });

  it('writes a weekday with a time on the person’s clock', () => {
    expect(formatWeekdayTime('2026-11-27T13:30:00Z', berlin('DD.MM.YYYY', '24h'))).toBe('Fri 14:30');
    expect(formatWeekdayTime('2026-11-27T13:30:00Z', berlin('MM/DD/YYYY', '12h'))).toBe('Fri 2:30 PM');
  });
});
