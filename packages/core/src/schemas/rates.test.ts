import { describe, expect, it } from 'vitest';
import { createRateBody, daySchema, reapplyRatesBody } from './rates.js';

describe('rate schemas', () => {
  it('accepts real calendar days only', () => {
    expect(daySchema.safeParse('2026-02-28').success).toBe(true);
    expect(daySchema.safeParse('2028-02-29').success).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '26-01-01', '2026-1-1', '1969-12-31', ''])
      expect(daySchema.safeParse(bad).success, bad).toBe(false);
  });

  it('wants a billable rate, a cost rate or both, in whole cents within range', () => {
    const base = { level: 'workspace', effectiveFrom: '2026-01-01' };
    expect(createRateBody.safeParse({ ...base, billableCents: 0 }).success).toBe(true);
    expect(createRateBody.safeParse({ ...base, costCents: 12_345 }).success).toBe(true);
    expect(createRateBody.safeParse({ ...base, billableCents: null, costCents: null }).success).toBe(false);
    expect(createRateBody.safeParse({ ...base, billableCents: 10.5 }).success).toBe(false);
    expect(createRateBody.safeParse({ ...base, billableCents: -1 }).success).toBe(false);
    expect(createRateBody.safeParse({ ...base, billableCents: 100_000_001 }).success).toBe(false);
  });

  it('re-applies over an ordered range of at most three years', () => {
    const range = (from: string, to: string) => reapplyRatesBody.safeParse({ level: 'workspace', from, to }).success;
    expect(range('2026-01-01', '2026-01-01')).toBe(true);
    expect(range('2026-01-02', '2026-01-01')).toBe(false);
    expect(range('2023-01-01', '2025-12-31')).toBe(true);
    expect(range('2020-01-01', '2026-01-01')).toBe(false);
  });
});
