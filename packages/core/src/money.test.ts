import { describe, expect, it } from 'vitest';
import { amountCents, formatMoney } from './money.js';

describe('money', () => {
  it('shows integer cents with two decimals in the currency format', () => {
    expect(formatMoney(7560)).toBe('$75.60');
    expect(formatMoney(900)).toBe('$9.00');
    expect(formatMoney(123456, 'EUR', 'de-DE')).toBe('1.234,56\u00a0€');
  });

  it('refuses fractions of a cent', () => {
    expect(() => formatMoney(10.5)).toThrow(TypeError);
  });

  it('prices a duration at an hourly rate to the cent, halves up', () => {
    expect(amountCents(10_000, 3600)).toBe(10_000);
    expect(amountCents(10_000, 900)).toBe(2_500);
    expect(amountCents(1, 1800)).toBe(1);
    expect(amountCents(1, 1799)).toBe(0);
    expect(amountCents(0, 3600)).toBe(0);
  });
});
