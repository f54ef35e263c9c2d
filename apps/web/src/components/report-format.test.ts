import { describe, expect, it } from 'vitest';
import { daysOf } from './report-format';

describe('report figures', () => {
  it('lists the days of a range, across a DST change, and refuses a long one', () => {
    const days = daysOf('2026-03-28', '2026-03-30');
    expect(days).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(daysOf('2026-01-01', '2026-12-31')).toBeNull();
  });
});
