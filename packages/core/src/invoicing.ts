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

/**
 * The quantity a time line prints: its seconds in hundredths of an hour, halves up (27.01 h is
 * 2701). The invoice multiplies this printed quantity by the unit price, so the line reads true
 * (decision 0019).
 */
export function lineHundredths(seconds: number): number {
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new TypeError('Seconds are a whole, non-negative number.');
  return Math.floor((seconds * 2 + 36) / 72);
}

/** Hundredths of an hour as printed: 2701 -> "27.01". */
export function formatHundredths(hundredths: number): string {
  return (hundredths / 100).toFixed(2);
}

/** A time line's amount: the printed quantity (hundredths of an hour) times the unit price, rounded to the cent, halves up. */
export function lineAmountCents(rateCents: number, hundredths: number): number {
  if (!Number.isSafeInteger(rateCents) || !Number.isSafeInteger(hundredths))
    throw new TypeError('Rates and quantities must be integers.');
  return Number((BigInt(rateCents) * BigInt(hundredths) * 2n + 100n) / 200n);
}

/** Exchange rates are stored in millionths: 1 of the rate currency = micros / 1e6 of the invoice currency. */
export const EXCHANGE_RATE_SCALE = 1_000_000;

/** Cents of one currency in another at a stated rate (millionths), rounded to the cent, halves away from zero. */
export function convertCents(cents: number, rateMicros: number): number {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(rateMicros) || rateMicros <= 0)
    throw new TypeError('Cents and the rate (in millionths) must be integers, the rate positive.');
  const scaled = BigInt(Math.abs(cents)) * BigInt(rateMicros);
  const rounded = Number((scaled * 2n + BigInt(EXCHANGE_RATE_SCALE)) / BigInt(2 * EXCHANGE_RATE_SCALE));
  return cents < 0 ? -rounded : rounded;
}

/** "0.9234" -> 923400 (at most six decimals), or null when it is not such a positive number. */
export function parseExchangeRate(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) return null;
  const micros = Number(match[1]) * EXCHANGE_RATE_SCALE + Number((match[2] ?? '').padEnd(6, '0'));
  return micros > 0 ? micros : null;
}

/** 923400 -> "0.9234" */
export function formatExchangeRate(micros: number): string {
  const whole = Math.floor(micros / EXCHANGE_RATE_SCALE);
  const fraction = String(micros % EXCHANGE_RATE_SCALE)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
