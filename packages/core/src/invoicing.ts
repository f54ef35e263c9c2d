import { roundedShare } from './billing/pricing.js';

/**
 * The money of a client invoice, in integer cents: the lines add up to the subtotal; a discount
 * (a percentage in basis points, or an amount) comes off it; each tax (one or two, in basis points)
 * is taken on what is left, rounded once with billing's one rule (`roundedShare`, halves away from
 * zero); the total is what is left plus the taxes. Every figure is a whole number of cents, so
 * the total equals the sum of what the invoice prints.
 */
export type InvoiceDiscount = { kind: 'percent'; basisPoints: number } | { kind: 'amount'; cents: number };

export interface InvoiceTax {
  name: string;
  /** 2000 = 20.00 % */
  basisPoints: number;
}

export interface InvoiceMoney {
  subtotalCents: number;
  discountCents: number;
  netCents: number;
  taxes: { name: string; basisPoints: number; amountCents: number }[];
  taxCents: number;
  totalCents: number;
}

/** 10000 basis points = 100 %. */
export const BASIS_POINTS = 10_000;

export function invoiceMoney(
  lineAmountsCents: readonly number[],
  discount: InvoiceDiscount | null,
  taxes: readonly InvoiceTax[],
): InvoiceMoney {
  for (const cents of lineAmountsCents)
    if (!Number.isSafeInteger(cents)) throw new TypeError('Line amounts must be integer cents.');
  const subtotalCents = lineAmountsCents.reduce((sum, cents) => sum + cents, 0);
  let discountCents = 0;
  if (discount?.kind === 'percent') {
    if (!Number.isInteger(discount.basisPoints) || discount.basisPoints < 0 || discount.basisPoints > BASIS_POINTS)
      throw new TypeError('A discount is 0 to 100 %.');
    discountCents = roundedShare(subtotalCents, discount.basisPoints, BASIS_POINTS);
  } else if (discount?.kind === 'amount') {
    if (!Number.isSafeInteger(discount.cents) || discount.cents < 0)
      throw new TypeError('A discount amount is whole, non-negative cents.');
    discountCents = Math.min(discount.cents, Math.max(subtotalCents, 0));
  }
  const netCents = subtotalCents - discountCents;
  const taxed = taxes.map((tax) => {
    if (!Number.isInteger(tax.basisPoints) || tax.basisPoints < 0 || tax.basisPoints > BASIS_POINTS)
      throw new TypeError('A tax rate is 0 to 100 %.');
    return { ...tax, amountCents: roundedShare(netCents, tax.basisPoints, BASIS_POINTS) };
  });
  const taxCents = taxed.reduce((sum, tax) => sum + tax.amountCents, 0);
  return { subtotalCents, discountCents, netCents, taxes: taxed, taxCents, totalCents: netCents + taxCents };
}

/** "20 %", "7.5 %" from basis points. */
export function formatBasisPoints(basisPoints: number): string {
  return `${(basisPoints / 100).toFixed(2).replace(/\.?0+$/, '')} %`;
}

/** The placeholders of an invoice number pattern: {YYYY}, {YY}, {MM} and the counter {0…0} (its zeros the padding). */
const COUNTER = /\{(0+)\}/;
const TOKENS = /\{(YYYY|YY|MM|0+)\}/g;

/** Why a number pattern cannot be used, or null when it can. */
export function invoiceNumberPatternError(pattern: string): string | null {
  if (!COUNTER.test(pattern)) return 'The pattern needs the counter, such as {0000}.';
  if ((pattern.match(/\{0+\}/g) ?? []).length > 1) return 'The pattern takes the counter once.';
  const unknown = pattern.replace(TOKENS, '').match(/[{}]/);
  if (unknown) return 'Use only {YYYY}, {YY}, {MM} and a counter such as {0000} in braces.';
  return null;
}

/** The number of the `counter`-th invoice issued on `day` (YYYY-MM-DD): "{YYYY}-{0000}" -> "2026-0007". */
export function formatInvoiceNumber(pattern: string, counter: number, day: string): string {
  if (!Number.isSafeInteger(counter) || counter < 1) throw new TypeError('The counter starts at 1.');
  return pattern.replace(TOKENS, (_, token: string) => {
    if (token === 'YYYY') return day.slice(0, 4);
    if (token === 'YY') return day.slice(2, 4);
    if (token === 'MM') return day.slice(5, 7);
    return String(counter).padStart(token.length, '0');
  });
}
