import { describe, expect, it } from 'vitest';
import { wholeMonths } from './reports.repository.js';

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
