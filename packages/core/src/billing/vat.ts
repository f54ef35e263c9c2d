import { type EuCountry, findCountryName, isEuCountry, isValidVatId } from './countries.js';
import { roundedShare } from './pricing.js';

/**
 * Standard VAT rates of the 27 EU member states, in basis points (2100 = 21%).
 * Checked 2026-11-25, from the rates known to be in force (no live source was at hand: compare
 * with the European Commission's "VAT rates in the EU" page before going live). Recent changes:
 * Estonia 24% since 2025-07-01, Finland 25.5% since 2024-09-01, Slovakia 23% since 2025-01-01,
 * Romania 21% since 2025-08-01, Luxembourg back at 17% since 2024-01-01.
 * A rate change is a one-line edit here; issued invoices keep the rate they were issued with.
 */
export const EU_STANDARD_VAT_BASIS_POINTS: Record<EuCountry, number> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  HR: 2500,
  CY: 1900,
  CZ: 2100,
  DK: 2500,
  EE: 2400,
  FI: 2550,
  FR: 2000,
  DE: 1900,
  GR: 2400,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LV: 2100,
  LT: 2100,
  LU: 1700,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SK: 2300,
  SI: 2200,
  ES: 2100,
  SE: 2500,
};

export const REVERSE_CHARGE_NOTE =
  'Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC)';
export const OUTSIDE_EU_NOTE = 'No VAT: the customer is outside the EU.';

/** Who sells to whom, for the tax of an invoice. Countries are ISO alpha-2 codes ("GR", not "EL"). */
export interface TaxOptions {
  sellerCountry: string;
  buyerCountry: string;
  buyerIsBusiness: boolean;
  /** The buyer's VAT id, as entered or normalised; only a valid one for the buyer's country counts. */
  buyerVatId?: string | null;
}

/** The tax line of an invoice. */
export interface Tax {
  /** `standard`: VAT at the buyer country's rate; `reverse_charge`: the buyer accounts for it; `none`: outside the EU. */
  kind: 'standard' | 'reverse_charge' | 'none';
  /** The VAT rate in basis points (2100 = 21%); 0 unless `standard`. */
  ratePercentBasisPoints: number;
  /** Text for the invoice: "VAT 21% (Belgium)", the reverse-charge note, or why there is no VAT. */
  note: string;
}

/** "21", "25.5": a rate in basis points as a percentage, without trailing zeros. */
export function formatVatRate(basisPoints: number): string {
  return String(basisPoints / 100);
}

/**
 * The tax of a sale (DECISIONS.md, Money and billing): a buyer outside the EU pays no VAT; an
 * EU business with a valid VAT id for its country, in another country than the seller's, gets
 * reverse charge; every other EU buyer (a consumer, a business without a valid id, any buyer
 * in the seller's own country) pays its country's standard rate.
 */
export function taxFor(options: TaxOptions): Tax {
  const { sellerCountry, buyerCountry } = options;
  if (!isEuCountry(buyerCountry)) return { kind: 'none', ratePercentBasisPoints: 0, note: OUTSIDE_EU_NOTE };
  const hasVatId = options.buyerIsBusiness && !!options.buyerVatId && isValidVatId(options.buyerVatId, buyerCountry);
  if (hasVatId && buyerCountry !== sellerCountry)
    return { kind: 'reverse_charge', ratePercentBasisPoints: 0, note: REVERSE_CHARGE_NOTE };
  const rate = EU_STANDARD_VAT_BASIS_POINTS[buyerCountry];
  return {
    kind: 'standard',
    ratePercentBasisPoints: rate,
    note: `VAT ${formatVatRate(rate)}% (${findCountryName(buyerCountry) ?? buyerCountry})`,
  };
}

/** VAT on a net amount: `net * rate` rounded to the cent, halves away from zero (the billing rounding rule). */
export function vatCents(netCents: number, basisPoints: number): number {
  return roundedShare(netCents, basisPoints, 10_000);
}

/** An invoice line as the totals need it: its net amount in cents (negative for a credit). */
export interface InvoiceLineAmount {
  amountCents: number;
}

export interface InvoiceTotals {
  netCents: number;
  vatCents: number;
  grossCents: number;
}

/**
 * Net, VAT and gross of an invoice: the lines are added first and VAT is rounded once on the
 * net total, so gross is always net + VAT and VAT within half a cent of net * rate.
 */
export function invoiceTotals(
  lines: readonly InvoiceLineAmount[],
  tax: Pick<Tax, 'ratePercentBasisPoints'>,
): InvoiceTotals {
  const netCents = lines.reduce((total, line) => total + line.amountCents, 0);
  if (!Number.isSafeInteger(netCents)) throw new TypeError('Invoice lines must be integer cents.');
  const vat = vatCents(netCents, tax.ratePercentBasisPoints);
  return { netCents, vatCents: vat, grossCents: netCents + vat };
}
