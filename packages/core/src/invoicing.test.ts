import { describe, expect, it } from 'vitest';
import {
  convertCents,
  formatExchangeRate,
  formatHundredths,
  formatInvoiceNumber,
  invoiceMoney,
  invoiceNumberPatternError,
  lineAmountCents,
  lineHundredths,
  parseExchangeRate,
} from './invoicing.js';

describe('invoiceMoney', () => {
  it('adds the lines, takes the discount off, then each tax on what is left', () => {
    const money = invoiceMoney([100_00, 50_50], { kind: 'percent', basisPoints: 1000 }, [
      { name: 'VAT', basisPoints: 2000 },
      { name: 'City', basisPoints: 150 },
    ]);
    expect(money).toEqual({
      subtotalCents: 150_50,
      discountCents: 15_05,
      netCents: 135_45,
      taxes: [
        { name: 'VAT', basisPoints: 2000, amountCents: 27_09 },
        { name: 'City', basisPoints: 150, amountCents: 2_03 },
      ],
      taxCents: 29_12,
      totalCents: 164_57,
    });
  });

  it('rounds halves away from zero, once per figure', () => {
    // 10 % of 0.05 = 0.005 -> 0.01; 5 % tax of 0.04 = 0.002 -> 0.00
    expect(invoiceMoney([5], { kind: 'percent', basisPoints: 1000 }, [{ name: 'T', basisPoints: 500 }])).toMatchObject({
      discountCents: 1,
      netCents: 4,
      taxCents: 0,
      totalCents: 4,
    });
  });

  it('never discounts more than the lines, and refuses fractions of cents', () => {
    expect(invoiceMoney([1000], { kind: 'amount', cents: 5000 }, []).totalCents).toBe(0);
    expect(() => invoiceMoney([10.5], null, [])).toThrow(TypeError);
    expect(() => invoiceMoney([10], { kind: 'percent', basisPoints: 10_001 }, [])).toThrow(TypeError);
    expect(() => invoiceMoney([10], null, [{ name: 'T', basisPoints: -1 }])).toThrow(TypeError);
  });

  it('is exact to the cent for any lines, discount and taxes (property)', () => {
    let seed = 17;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 2000; run++) {
      const lines = Array.from({ length: 1 + random(30) }, () => random(5_000_000));
      const discount =
        random(3) === 0
          ? null
          : random(2) === 0
            ? ({ kind: 'percent', basisPoints: random(10_001) } as const)
            : ({ kind: 'amount', cents: random(10_000_000) } as const);
      const taxes = Array.from({ length: random(3) }, (_, i) => ({ name: `T${i}`, basisPoints: random(10_001) }));
      const m = invoiceMoney(lines, discount, taxes);
      for (const value of [m.subtotalCents, m.discountCents, m.netCents, m.taxCents, m.totalCents])
        expect(Number.isSafeInteger(value)).toBe(true);
      expect(m.subtotalCents).toBe(lines.reduce((a, b) => a + b, 0));
      expect(m.netCents).toBe(m.subtotalCents - m.discountCents);
      expect(m.netCents).toBeGreaterThanOrEqual(0);
      expect(m.totalCents).toBe(m.netCents + m.taxes.reduce((a, t) => a + t.amountCents, 0));
      for (const tax of m.taxes) {
        // within half a cent of the exact share
        expect(Math.abs(tax.amountCents - (m.netCents * tax.basisPoints) / 10_000)).toBeLessThanOrEqual(0.5);
      }
    }
  });
});

describe('invoice numbers', () => {
  it('fills the pattern from the issue day and the counter', () => {
    expect(formatInvoiceNumber('{YYYY}-{0000}', 7, '2026-03-04')).toBe('2026-0007');
    expect(formatInvoiceNumber('INV/{YY}{MM}/{000}', 12_345, '2026-03-04')).toBe('INV/2603/12345');
    expect(() => formatInvoiceNumber('{0000}', 0, '2026-03-04')).toThrow(TypeError);
  });

  it('needs exactly one counter and known placeholders', () => {
    expect(invoiceNumberPatternError('{YYYY}-{0000}')).toBeNull();
    expect(invoiceNumberPatternError('{YYYY}')).toMatch(/counter/);
    expect(invoiceNumberPatternError('{00}-{00}')).toMatch(/once/);
    expect(invoiceNumberPatternError('{DD}-{00}')).toMatch(/Use only/);
  });
});

describe('time lines and conversions', () => {
  it('prints a quantity in hundredths of an hour whose product with the unit price is the amount', () => {
    // 27 h 0 min 24 s: 27.0067 h prints as 27.01, and 27.01 x 120.00 is 3,241.20.
    const hundredths = lineHundredths(27 * 3600 + 24);
    expect(formatHundredths(hundredths)).toBe('27.01');
    expect(lineAmountCents(120_00, hundredths)).toBe(3241_20);
    expect(lineHundredths(18)).toBe(1); // halves up
    expect(lineHundredths(17)).toBe(0);
    expect(lineAmountCents(333, 25)).toBe(83); // 0.25 x 3.33 = 0.8325
    expect(lineAmountCents(334, 25)).toBe(84); // 0.835, halves up
  });

  it('converts cents at a stated rate in millionths and reads rates of up to six decimals', () => {
    expect(parseExchangeRate('0.9234')).toBe(923_400);
    expect(parseExchangeRate(' 1 ')).toBe(1_000_000);
    for (const bad of ['0', '-1', '1.1234567', 'abc', '', '1e3']) expect(parseExchangeRate(bad)).toBeNull();
    expect(formatExchangeRate(923_400)).toBe('0.9234');
    expect(formatExchangeRate(2_000_000)).toBe('2');
    expect(convertCents(100_00, 923_400)).toBe(92_34);
    expect(convertCents(1, 500_000)).toBe(1); // half a cent rounds up
    expect(convertCents(-1, 500_000)).toBe(-1);
    expect(convertCents(1_000_000_000, 150_000_000)).toBe(150_000_000_000);
  });
});
