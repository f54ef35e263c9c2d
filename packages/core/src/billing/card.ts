import cardValidator from 'card-validator';

/**
 * Checks of the payment form, in the browser only: card numbers never reach our server, the
 * payment gateway tokenises them. The brands we accept, as the card preview names them.
 */
export const CARD_BRANDS = ['visa', 'mastercard', 'discover', 'amex', 'diners', 'jcb'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

export const CARD_BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  discover: 'Discover',
  amex: 'American Express',
  diners: 'Diners Club',
  jcb: 'JCB',
};

// card-validator's (credit-card-type's) names for the same brands.
const FROM_LIBRARY: Record<string, CardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  discover: 'discover',
  'american-express': 'amex',
  'diners-club': 'diners',
  jcb: 'jcb',
};

export const cardMessages = {
  numberRequired: 'Please enter the card number.',
  numberIncomplete: 'The card number is incomplete.',
  numberTypo: 'This card number is not valid: check the digits.',
  brandNotAccepted: 'We accept Visa, Mastercard, Discover, American Express, Diners Club and JCB.',
  monthRequired: 'Please choose the month.',
  yearRequired: 'Please choose the year.',
  expired: 'This card has expired.',
  cvvDigits: (digits: number) => `Please enter the ${digits}-digit security code (CVV).`,
  // The gateway's tokenisation endpoint checks what the form's choices already ensure.
  monthInvalid: 'Please choose the month (1 to 12).',
  yearInvalid: 'Please choose the year.',
  cvcRequired: 'Please enter the security code (CVV).',
  nameRequired: 'Please enter the name on the card.',
  nameTooLong: 'The name on the card must be at most 100 characters.',
} as const;

type CardTypesOf = (digits: string) => { type: string }[];
// card-validator hands credit-card-type on as a CommonJS namespace: the function itself, or
// its `default` after an ES module interop (Node, Vite), depending on the bundler.
const library = cardValidator.creditCardType as unknown as CardTypesOf | { default: CardTypesOf };
const cardTypesOf: CardTypesOf = typeof library === 'function' ? library : library.default;

const digitsOf = (value: string) => value.replace(/[\s-]/g, '');

/**
 * The brand of a card number as typed so far ("4" -> visa), or null while it is unknown or
 * could still be several of the brands we accept ("3": Amex, Diners or JCB).
 */
export function cardBrand(partialNumber: string): CardBrand | null {
  const digits = digitsOf(partialNumber);
  if (!/^\d+$/.test(digits)) return null;
  // Other brands share prefixes with ours (4011 is Elo, a Visa prefix): only ours count here.
  const brands = new Set(cardTypesOf(digits).flatMap((card) => FROM_LIBRARY[card.type] ?? []));
  return brands.size === 1 ? ([...brands][0] ?? null) : null;
}

/** Where to put spaces in a card number of this brand, for the input and the preview (4-4-4-4, Amex 4-6-5). */
export function cardNumberGroups(partialNumber: string): string {
  const digits = digitsOf(partialNumber);
  const gaps = cardValidator.number(digits).card?.gaps ?? [4, 8, 12];
  let grouped = '';
  for (const [index, digit] of [...digits].entries()) grouped += (gaps.includes(index) ? ' ' : '') + digit;
  return grouped;
}

/** The digits of a card's security code: 4 for American Express, 3 for the others. */
export function cvvLength(brand: CardBrand | null): 3 | 4 {
  return brand === 'amex' ? 4 : 3;
}

/** What is wrong with a card number (length, Luhn check, accepted brand), or null when it is fine. */
export function cardNumberError(number: string): string | null {
  const digits = digitsOf(number);
  if (digits.length === 0) return cardMessages.numberRequired;
  if (!/^\d+$/.test(digits)) return cardMessages.numberTypo;
  const check = cardValidator.number(digits);
  if (check.card && !FROM_LIBRARY[check.card.type]) return cardMessages.brandNotAccepted;
  if (check.isValid) return null;
  if (cardValidator.number(digits, { skipLuhnValidation: true }).isValid) return cardMessages.numberTypo;
  return check.isPotentiallyValid ? cardMessages.numberIncomplete : cardMessages.numberTypo;
}

/** Whether a card number passes the Luhn check and has a length its (accepted) brand uses. */
export function isValidCardNumber(number: string): boolean {
  return cardNumberError(number) === null;
}

/**
 * Whether a card expiring at the end of `month` (1-12) of `year` (four digits) can still pay on
 * `now`, in the browser's time zone: this month's cards still can.
 */
export function isExpiryValid(options: { month: number; year: number; now: Date }): boolean {
  const { month, year, now } = options;
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) return false;
  return year * 12 + month >= now.getFullYear() * 12 + now.getMonth() + 1;
}

/** What is wrong with an expiry, or null when it is fine. */
export function expiryError(options: { month: number | null; year: number | null; now: Date }): string | null {
  if (options.month === null) return cardMessages.monthRequired;
  if (options.year === null) return cardMessages.yearRequired;
  return isExpiryValid({ month: options.month, year: options.year, now: options.now }) ? null : cardMessages.expired;
}

/** What is wrong with a security code for the card's brand, or null when it is fine. */
export function cvvError(cvv: string, brand: CardBrand | null): string | null {
  const digits = cvvLength(brand);
  return new RegExp(`^\\d{${digits}}$`).test(cvv.trim()) ? null : cardMessages.cvvDigits(digits);
}

/** The Month choices of the form: value 1-12, label "01"-"12". */
export const EXPIRY_MONTHS: readonly { value: number; label: string }[] = Array.from({ length: 12 }, (_, i) => ({
  value: i + 1,
  label: String(i + 1).padStart(2, '0'),
}));

/** The Year choices of the form: this year and the ten after it. */
export function expiryYears(now: Date): number[] {
  return Array.from({ length: 11 }, (_, i) => now.getFullYear() + i);
}

/** The payment form's fields, in the browser. */
export interface CardForm {
  number: string;
  month: number | null;
  year: number | null;
  cvv: string;
}

/** Every problem of a card form by field, empty when the card can be sent to the gateway. */
export function cardFormErrors(form: CardForm, now: Date): Partial<Record<'number' | 'expiry' | 'cvv', string>> {
  const errors: Partial<Record<'number' | 'expiry' | 'cvv', string>> = {};
  const number = cardNumberError(form.number);
  const expiry = expiryError({ month: form.month, year: form.year, now });
  const cvv = cvvError(form.cvv, cardBrand(form.number));
  if (number) errors.number = number;
  if (expiry) errors.expiry = expiry;
  if (cvv) errors.cvv = cvv;
  return errors;
}
