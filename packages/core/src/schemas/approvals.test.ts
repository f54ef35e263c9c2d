import { describe, expect, it } from 'vitest';
import { approvalPeriodOf, rejectBody } from './approvals.js';

describe('approvalPeriodOf', () => {
  it('gives the week from the week start', () => {
    // 2026-11-25 is a Wednesday.
    expect(approvalPeriodOf('2026-11-25', 'week', 'monday')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(approvalPeriodOf('2026-11-25', 'week', 'sunday')).toEqual({ start: '2026-11-22', end: '2026-11-28' });
    expect(approvalPeriodOf('2026-11-23', 'week', 'monday')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(approvalPeriodOf('2026-12-31', 'week', 'monday')).toEqual({ start: '2026-12-28', end: '2027-01-03' });
  });

  it('gives the calendar month, leap years included', () => {
    expect(approvalPeriodOf('2028-02-10', 'month', 'monday')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(approvalPeriodOf('2026-12-31', 'month', 'monday')).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    expect(approvalPeriodOf('2026-04-01', 'month', 'sunday')).toEqual({ start: '2026-04-01', end: '2026-04-30' });
  });
});

describe('rejectBody', () => {
  it('needs a comment', () => {
    expect(rejectBody.safeParse({ comment: '  ' }).success).toBe(false);
    expect(rejectBody.safeParse({ comment: 'Tuesday is missing' }).success).toBe(true);
  });
});
