import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shiftDay } from '../time/days.js';
import { contractOn, overtimeBalance, spreadWeek, type WorkContract, weekdayIndex } from './contracts.js';

const FULL: WorkContract = { from: '2026-01-01', weekdayMinutes: spreadWeek(40 * 60, [0, 1, 2, 3, 4]) };
const PART: WorkContract = { from: '2026-03-01', weekdayMinutes: [300, 300, 300, 0, 0, 0, 0] };

describe('contracts', () => {
  it('spreads a week over its working days, whole minutes adding up exactly', () => {
    expect(FULL.weekdayMinutes).toEqual([480, 480, 480, 480, 480, 0, 0]);
    expect(spreadWeek(38.5 * 60, [0, 1, 2, 3, 4])).toEqual([462, 462, 462, 462, 462, 0, 0]);
    expect(spreadWeek(1001, [4, 0, 2])).toEqual([334, 0, 334, 0, 333, 0, 0]);
    expect(spreadWeek(600, [])).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('knows the weekday, Monday first, across leap days', () => {
    expect(weekdayIndex('2026-11-30')).toBe(0);
    expect(weekdayIndex('2028-02-29')).toBe(1);
    expect(weekdayIndex('2026-11-29')).toBe(6);
  });

  it('finds the contract in force, the later one from its first day', () => {
    expect(contractOn([PART, FULL], '2025-12-31')).toBeUndefined();
    expect(contractOn([PART, FULL], '2026-02-28')).toBe(FULL);
    expect(contractOn([PART, FULL], '2026-03-01')).toBe(PART);
  });
});

describe('overtimeBalance', () => {
  it('expects the contract’s time, none on a holiday, half on a half day of leave, and runs the balance', () => {
    // Monday 2026-02-23 to Tuesday 2026-03-03: full time until February ends, then part time.
    const worked = new Map([
      ['2026-02-23', 540],
      ['2026-02-24', 480],
      ['2026-02-25', 0],
      ['2026-02-26', 240],
      ['2026-02-27', 480],
      ['2026-02-28', 60],
      ['2026-03-02', 300],
      ['2026-03-03', 330],
    ]);
    const days = overtimeBalance({
      from: '2026-02-23',
      to: '2026-03-03',
      contracts: [FULL, PART],
      worked,
      daysOff: new Map([
        ['2026-02-25', { holiday: true }],
        ['2026-02-26', { leave: 0.5 }],
      ]),
      adjustments: new Map([['2026-03-03', -30]]),
      openingMinutes: 120,
    });
    expect(days.map((d) => [d.day, d.expectedMinutes, d.deltaMinutes, d.balanceMinutes])).toEqual([
      ['2026-02-23', 480, 60, 180],
      ['2026-02-24', 480, 0, 180],
      ['2026-02-25', 0, 0, 180],
      ['2026-02-26', 240, 0, 180],
      ['2026-02-27', 480, 0, 180],
      ['2026-02-28', 0, 60, 240],
      ['2026-03-01', 0, 0, 240],
      ['2026-03-02', 300, 0, 240],
      ['2026-03-03', 300, 0, 240],
    ]);
  });

  it('ends on the opening balance plus worked minus expected plus adjustments, over any range', () => {
    const day = fc.integer({ min: 0, max: 1500 }).map((n) => shiftDay('2027-12-01', n));
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 120 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 900 }))),
        fc.integer({ min: -5000, max: 5000 }),
        (from, length, work, opening) => {
          const to = shiftDay(from, length);
          const worked = new Map(work.map(([offset, minutes]) => [shiftDay(from, offset), minutes]));
          const days = overtimeBalance({ from, to, contracts: [FULL, PART], worked, openingMinutes: opening });
          expect(days).toHaveLength(length + 1);
          const inRange = [...worked].filter(([d]) => d <= to).reduce((sum, [, m]) => sum + m, 0);
          const expected = days.reduce((sum, d) => sum + d.expectedMinutes, 0);
          expect(days.at(-1)?.balanceMinutes).toBe(opening + inRange - expected);
        },
      ),
    );
  });
});
