import { describe, expect, it } from 'vitest';
import { partialMonth, wholeMonths } from './reports.repository.js';

describe('wholeMonths', () => {
  it('finds the whole months of a range and the days around them', () => {
    expect(wholeMonths('2025-11-27', '2026-11-26')).toEqual({
      first: '2025-12-01',
      last: '2026-10-01',
      ragged: [
        ['2025-11-27', '2025-11-30'],
        ['2026-11-01', '2026-11-26'],
      ],
    });
  });

  it('takes a range of whole months as it is, February and leap years included', () => {
    expect(wholeMonths('2024-02-01', '2024-02-29')).toEqual({ first: '2024-02-01', last: '2024-02-01', ragged: [] });
    expect(wholeMonths('2025-12-01', '2026-01-31')).toEqual({ first: '2025-12-01', last: '2026-01-01', ragged: [] });
  });

  it('finds none in a range without a whole month', () => {
    expect(wholeMonths('2026-10-02', '2026-11-30')).toEqual({
      first: '2026-11-01',
      last: '2026-11-01',
      ragged: [['2026-10-02', '2026-10-31']],
    });
    expect(wholeMonths('2026-10-02', '2026-10-31')).toBeUndefined();
    expect(wholeMonths('2026-10-28', '2026-11-27')).toBeUndefined();
  });
});

describe('partialMonth', () => {
  it('reads most of a month as the month less its other days', () => {
    expect(partialMonth('2026-11-01', '2026-11-26')).toEqual({
      month: '2026-11-01',
      outside: [['2026-11-27', '2026-11-30']],
    });
    expect(partialMonth('2026-11-03', '2026-11-29')).toEqual({
      month: '2026-11-01',
      outside: [
        ['2026-11-01', '2026-11-02'],
        ['2026-11-30', '2026-11-30'],
      ],
    });
    expect(partialMonth('2024-02-02', '2024-02-29')).toEqual({
      month: '2024-02-01',
      outside: [['2024-02-01', '2024-02-01']],
    });
  });

  it('reads the days themselves when they are no more than the rest of the month', () => {
    expect(partialMonth('2025-11-27', '2025-11-30')).toBeUndefined();
    expect(partialMonth('2026-10-01', '2026-10-15')).toBeUndefined();
    expect(partialMonth('2026-10-01', '2026-10-16')).toEqual({
      month: '2026-10-01',
      outside: [['2026-10-17', '2026-10-31']],
    });
  });
});
