import { describe, expect, it } from 'vitest';
import { holidayCountries, holidayRegions, isHolidayPlace, publicHolidays } from './attendance.holidays.js';

describe('public holidays (date-holidays)', () => {
  it('knows Bavaria’s public holidays of 2027, in English, Easter and its moving feasts included', () => {
    const days = publicHolidays({ country: 'DE', region: 'BY' }, '2027-01-01', '2027-12-31');
    expect(days.map((d) => d.day)).toEqual([
      '2027-01-01',
      '2027-01-06',
      '2027-03-26',
      '2027-03-29',
      '2027-05-01',
      '2027-05-06',
      '2027-05-17',
      '2027-05-27',
      '2027-10-03',
      '2027-11-01',
      '2027-12-25',
      '2027-12-26',
    ]);
    expect(days.find((d) => d.day === '2027-03-26')?.name).toBe('Good Friday');
  });

  it('gives each region its own: Berlin has Women’s Day and not Epiphany', () => {
    const berlin = publicHolidays({ country: 'DE', region: 'BE' }, '2027-01-01', '2027-03-31').map((d) => d.day);
    expect(berlin).toContain('2027-03-08');
    expect(berlin).not.toContain('2027-01-06');
    const country = publicHolidays({ country: 'DE', region: null }, '2027-01-01', '2027-03-31').map((d) => d.day);
    expect(country).not.toContain('2027-01-06');
  });

  it('reads a range across years and keeps to it', () => {
    const days = publicHolidays({ country: 'GB', region: 'ENG' }, '2026-12-24', '2027-01-02');
    // Boxing Day falls on a Saturday in 2026: the Monday after is its substitute.
    expect(days.map((d) => d.day)).toEqual(['2026-12-25', '2026-12-26', '2026-12-28', '2027-01-01']);
    expect(days.find((d) => d.day === '2026-12-28')?.substitute).toBe(true);
    expect(publicHolidays({ country: 'DE', region: 'BY' }, '2027-01-02', '2027-01-05')).toEqual([]);
  });

  it('lists countries and regions, and refuses places it does not know', () => {
    expect(holidayCountries().find((c) => c.code === 'DE')?.name).toBe('Germany');
    expect(holidayRegions('DE')?.map((r) => r.code)).toContain('BY');
    expect(holidayRegions('XX')).toBeNull();
    expect(isHolidayPlace({ country: 'DE', region: 'BY' })).toBe(true);
    expect(isHolidayPlace({ country: 'DE', region: 'ZZ' })).toBe(false);
    expect(publicHolidays({ country: 'XX', region: null }, '2027-01-01', '2027-12-31')).toEqual([]);
  });
});
