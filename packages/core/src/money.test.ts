import { describe, expect, it } from 'vitest';
import { formatMoney } from './money.js';

describe('money', () => {
  it('shows integer cents with two decimals in the currency format', () => {
    expect(formatMoney(7560)).toBe('$75.60');
    expect(formatMoney(900)).toBe('$9.00');
    expect(formatMoney(123456, 'EUR', 'de-DE')).toBe('1.234,56\u00a0€');
  });

  it('refuses fractions of a cent', () => {
    expect(() => formatMoney(10.5)).toThrow(TypeError);
  });
});
