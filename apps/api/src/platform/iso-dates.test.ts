import { describe, expect, it } from 'vitest';
import { isoString } from './iso-dates.js';

describe('isoString', () => {
  it('writes what toISOString writes, from 1970 to the year 9999', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const times = [
      0,
      1,
      999,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2024, 1, 29),
      Date.UTC(2100, 2, 1),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      253_402_300_799_999,
    ];
    for (let i = 0; i < 20_000; i++) times.push(Math.floor(random() * 253_402_300_800_000));
    for (let i = 0; i < 5_000; i++) times.push(Date.UTC(2026, 0, 1) + Math.floor(random() * 3 * 365 * 86_400_000));
    for (const time of times) expect(isoString(new Date(time))).toBe(new Date(time).toISOString());
  });

  it('leaves earlier, later and invalid dates to toISOString', () => {
    for (const time of [-1, Date.UTC(1969, 11, 31, 23, 59, 59), Date.UTC(-44, 2, 15), 253_402_300_800_000, 8.64e15]) {
      expect(isoString(new Date(time))).toBe(new Date(time).toISOString());
    }
    expect(() => isoString(new Date(Number.NaN))).toThrow(RangeError);
  });
});
