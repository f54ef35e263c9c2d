import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EU_COUNTRIES } from './countries.js';
import {
  EU_STANDARD_VAT_BASIS_POINTS,
  invoiceTotals,
  OUTSIDE_EU_NOTE,
  REVERSE_CHARGE_NOTE,
  taxFor,
  vatCents,
} from './vat.js';

describe('EU standard rates', () => {
  it('has one rate for each of the 27 member states, the recent changes included', () => {
    expect(Object.keys(EU_STANDARD_VAT_BASIS_POINTS).sort()).toEqual([...EU_COUNTRIES].sort());
    expect(EU_STANDARD_VAT_BASIS_POINTS).toMatchObject({ EE: 2400, FI: 2550, SK: 2300, RO: 2100, DE: 1900, HU: 2700 });
    for (const rate of Object.values(EU_STANDARD_VAT_BASIS_POINTS)) {
      expect(rate).toBeGreaterThanOrEqual(1700);
      expect(rate).toBeLessThanOrEqual(2700);
    }
  });
});

describe('taxFor', () => {
  const seller = { sellerCountry: 'DE' };

  it('charges an EU consumer their own country’s rate', () => {
    expect(taxFor({ ...seller, buyerCountry: 'FR', buyerIsBusiness: false })).toEqual({
      kind: 'standard',
      ratePercentBasisPoints: 2000,
      note: 'VAT 20% (France)',
    });
    expect(taxFor({ ...seller, buyerCountry: 'FI', buyerIsBusiness: false }).note).toBe('VAT 25.5% (Finland)');
  });

  it('reverse-charges an EU business with a valid VAT id in another country', () => {
    expect(taxFor({ ...seller, buyerCountry: 'BE', buyerIsBusiness: true, buyerVatId: 'BE0411905847' })).toEqual({
      kind: 'reverse_charge',
      ratePercentBasisPoints: 0,
      note: REVERSE_CHARGE_NOTE,
    });
    expect(REVERSE_CHARGE_NOTE).toBe(
      'Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC)',
    );
    expect(taxFor({ ...seller, buyerCountry: 'GR', buyerIsBusiness: true, buyerVatId: 'EL094259216' }).kind).toBe(
      'reverse_charge',
    );
  });

  it('charges VAT to a business in the seller’s own country, VAT id or not', () => {
    expect(taxFor({ ...seller, buyerCountry: 'DE', buyerIsBusiness: true, buyerVatId: 'DE136695976' })).toMatchObject({
      kind: 'standard',
      ratePercentBasisPoints: 1900,
    });
  });

  it('charges VAT to an EU business without a valid VAT id for its country', () => {
    const business = { ...seller, buyerCountry: 'BE', buyerIsBusiness: true };
    expect(taxFor(business).kind).toBe('standard');
    expect(taxFor({ ...business, buyerVatId: '' }).kind).toBe('standard');
    expect(taxFor({ ...business, buyerVatId: 'BE0411905848' }).kind).toBe('standard');
    expect(taxFor({ ...business, buyerVatId: 'DE136695976' }).kind).toBe('standard');
    expect(taxFor({ ...business, buyerIsBusiness: false, buyerVatId: 'BE0411905847' }).kind).toBe('standard');
  });

  it('charges no VAT outside the EU, business or not', () => {
    for (const buyerCountry of ['US', 'GB', 'CH', 'NO', 'JP'])
      expect(taxFor({ ...seller, buyerCountry, buyerIsBusiness: false })).toEqual({
        kind: 'none',
        ratePercentBasisPoints: 0,
        note: OUTSIDE_EU_NOTE,
      });
  });

  it('applies the same rules for a seller outside the EU', () => {
    expect(taxFor({ sellerCountry: 'US', buyerCountry: 'IT', buyerIsBusiness: false }).ratePercentBasisPoints).toBe(
      2200,
    );
    expect(
      taxFor({ sellerCountry: 'US', buyerCountry: 'IT', buyerIsBusiness: true, buyerVatId: 'IT00743110157' }).kind,
    ).toBe('reverse_charge');
  });
});

describe('VAT amounts', () => {
  it('rounds VAT on the net total, halves up', () => {
    expect(vatCents(1000, 2100)).toBe(210);
    expect(vatCents(50, 2100)).toBe(11); // 10.5
    expect(vatCents(10, 2550)).toBe(3); // 2.55
    expect(vatCents(-50, 2100)).toBe(-11);
    expect(vatCents(32_400, 0)).toBe(0);
  });

  it('adds invoice lines, then VAT once', () => {
    expect(invoiceTotals([{ amountCents: 32_400 }], { ratePercentBasisPoints: 1900 })).toEqual({
      netCents: 32_400,
      vatCents: 6156,
      grossCents: 38_556,
    });
    // Rounded per line it would be 10.5 + 10.5 -> 11 + 11; on the net total it is 21.
    expect(invoiceTotals([{ amountCents: 50 }, { amountCents: 50 }], { ratePercentBasisPoints: 2100 }).vatCents).toBe(
      21,
    );
    expect(invoiceTotals([{ amountCents: -933 }, { amountCents: 30_240 }], { ratePercentBasisPoints: 2000 })).toEqual({
      netCents: 29_307,
      vatCents: 5861,
      grossCents: 35_168,
    });
    expect(invoiceTotals([], { ratePercentBasisPoints: 2100 })).toEqual({ netCents: 0, vatCents: 0, grossCents: 0 });
  });

  it('refuses fractions of cents', () => {
    expect(() => invoiceTotals([{ amountCents: 10.5 }], { ratePercentBasisPoints: 2100 })).toThrow(TypeError);
  });

  it('always makes gross = net + VAT, with VAT within half a cent of net * rate', () => {
    const rates = [0, ...Object.values(EU_STANDARD_VAT_BASIS_POINTS)];
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -2_000_000, max: 20_000_000 }), { maxLength: 12 }),
        fc.constantFrom(...rates),
        (amounts, rate) => {
          const totals = invoiceTotals(
            amounts.map((amountCents) => ({ amountCents })),
            { ratePercentBasisPoints: rate },
          );
          expect(Number.isInteger(totals.vatCents)).toBe(true);
          expect(totals.grossCents).toBe(totals.netCents + totals.vatCents);
          expect(totals.netCents).toBe(amounts.reduce((sum, amount) => sum + amount, 0));
          // In integers: |vat * 10000 - net * rate| <= 5000.
          expect(Math.abs(totals.vatCents * 10_000 - totals.netCents * rate)).toBeLessThanOrEqual(5000);
        },
      ),
    );
  });
});
