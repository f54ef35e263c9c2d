/** Formats integer cents as money in the customer's currency and locale, with two decimals. */
export function formatMoney(cents: number, currency = 'USD', locale = 'en-US'): string {
  if (!Number.isInteger(cents)) throw new TypeError('Money must be integer cents.');
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}
