// Building an Intl.NumberFormat costs far more than formatting: a 10,000-row PDF formats each amount.
const formats = new Map<string, Intl.NumberFormat>();

/** Formats integer cents as money in the customer's currency and locale, with two decimals. */
export function formatMoney(cents: number, currency = 'USD', locale = 'en-US'): string {
  if (!Number.isInteger(cents)) throw new TypeError('Money must be integer cents.');
  const key = `${locale} ${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formats.set(key, format);
  }
  return format.format(cents / 100);
}

/**
 * The one amount rule: an hourly rate (integer cents) times a duration, rounded to the cent
 * (halves up). Reports apply it to each entry's rounded part of a day and then add, as the
 * timesheet adds durations; SQL mirrors it as round(rate * seconds / 3600.0).
 */
export function amountCents(rateCents: number, seconds: number): number {
  if (!Number.isInteger(rateCents) || !Number.isInteger(seconds))
    throw new TypeError('Rates and seconds must be integers.');
  return Math.round((rateCents * seconds) / 3600);
}
