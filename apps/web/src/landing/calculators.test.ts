import { describe, expect, it } from 'vitest';
import { CALCULATORS, defaultValues, hourlyRateCents, overtimePay } from './calculators';

describe('hourly rate', () => {
  it('spreads income and costs over the billable hours of a year, in cents', () => {
    expect(
      hourlyRateCents({ targetIncome: 60000, yearlyCosts: 8000, billableHoursPerWeek: 25, weeksPerYear: 46 }),
    ).toBe(5913);
  });

  it('gives no rate without billable hours or with negative money', () => {
    expect(hourlyRateCents({ targetIncome: 1, yearlyCosts: 0, billableHoursPerWeek: 0, weeksPerYear: 46 })).toBeNull();
    expect(hourlyRateCents({ targetIncome: -1, yearlyCosts: 0, billableHoursPerWeek: 1, weeksPerYear: 1 })).toBeNull();
  });
});

describe('overtime', () => {
  it('pays hours past the regular limit at the multiplied rate', () => {
    expect(overtimePay({ hourlyRate: 25, hoursWorked: 46, regularHours: 40, multiplier: 1.5 })).toEqual({
      overtimeHours: 6,
      regularPayCents: 100000,
      overtimePayCents: 22500,
      totalCents: 122500,
    });
  });

  it('has no overtime under the limit', () => {
    expect(overtimePay({ hourlyRate: 20, hoursWorked: 30.5, regularHours: 40, multiplier: 1.5 })).toMatchObject({
      overtimeHours: 0,
      totalCents: 61000,
    });
  });

  it('refuses a multiplier below one and empty fields', () => {
    expect(overtimePay({ hourlyRate: 20, hoursWorked: 45, regularHours: 40, multiplier: 0.5 })).toBeNull();
    expect(overtimePay({ hourlyRate: Number.NaN, hoursWorked: 45, regularHours: 40, multiplier: 1.5 })).toBeNull();
  });
});

describe('calculator pages', () => {
  it('format their first results from the default values', () => {
    const [hourly, overtime] = CALCULATORS;
    expect(hourly?.compute(defaultValues(hourly))).toEqual({ rate: '$59.13', billableHours: '1150 h' });
    expect(overtime?.compute(defaultValues(overtime))).toMatchObject({ overtimeHours: '6 h', total: '$1,225.00' });
  });
});
