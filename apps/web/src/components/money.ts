import { formatMoney } from '@sundial/core';

/** Cents in the workspace's currency, in the reader's locale; an em dash for "no rate". */
export function money(cents: number | null | undefined, currency: string): string {
  if (cents === null || cents === undefined) return '—';
  const locale = typeof navigator === 'undefined' ? 'en-US' : navigator.language;
  try {
    return formatMoney(cents, currency, locale);
  } catch {
    return formatMoney(cents, currency, 'en-US');
  }
}

/** What a person typed in a money field ("150", "150.5") as cents; null when empty. */
export function toCents(value: string | number): number | null {
  if (value === '' || value === null) return null;
  const n = typeof value === 'number' ? value : Number.parseFloat(value);
  return Number.isFinite(n) ? Math.round(n * 100) : null;
}

/** Today as YYYY-MM-DD in the reader's zone. */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
