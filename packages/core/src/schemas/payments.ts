import cardValidator from 'card-validator';
import { z } from 'zod';
import { text } from './text.js';

/** Card brands the card form names; any other Luhn-valid number is `unknown`. */
export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'diners', 'jcb', 'unknown'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

const BRAND_OF_VALIDATOR: Record<string, CardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  discover: 'discover',
  'diners-club': 'diners',
  jcb: 'jcb',
};

export const cardMessages = {
  numberRequired: 'Please enter the card number.',
  numberInvalid: 'This card number is not valid. Please check it.',
  monthInvalid: 'Please choose the month (1 to 12).',
  yearInvalid: 'Please choose the year.',
  expired: 'This card has expired.',
  cvcRequired: 'Please enter the security code (CVV).',
  cvcInvalid: 'The security code (CVV) has 3 digits.',
  cvcInvalidAmex: 'The security code (CID) of an American Express card has 4 digits.',
  nameRequired: 'Please enter the name on the card.',
  nameTooLong: 'The name on the card must be at most 100 characters.',
} as const;

/** Digits only: spaces and dashes people type between groups are dropped. */
export const cardDigits = (value: string): string => value.replace(/[\s-]/g, '');

/** The Luhn (mod 10) checksum every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand a (partial) number shows, for the form to show it live. */
export function cardBrandOf(number: string): CardBrand {
  const type = cardValidator.number(cardDigits(number)).card?.type;
  return (type && BRAND_OF_VALIDATOR[type]) || 'unknown';
}

/** Whether month/year is this month or later (a card is valid through the end of its month). */
export function isExpired(month: number, year: number, now: Date = new Date()): boolean {
  const thisYear = now.getUTCFullYear();
  return year < thisYear || (year === thisYear && month < now.getUTCMonth() + 1);
}

/**
 * A card as the tokenisation endpoint takes it (and the card form checks it): the number with a
 * valid Luhn digit (12 to 19 digits), a month and four-digit year not in the past, and a CVC of
 * 3 digits (4 for American Express). Only the gateway ever sees this; it answers a token.
 */
export const cardTokenBody = z
  .object({
    number: z
      .string({ error: cardMessages.numberRequired })
      .transform(cardDigits)
      .refine((value) => value.length > 0, cardMessages.numberRequired)
      .refine((value) => /^\d{12,19}$/.test(value) && passesLuhn(value), cardMessages.numberInvalid),
    expMonth: z.coerce
      .number({ error: cardMessages.monthInvalid })
      .int(cardMessages.monthInvalid)
      .min(1, cardMessages.monthInvalid)
      .max(12, cardMessages.monthInvalid),
    expYear: z.coerce
      .number({ error: cardMessages.yearInvalid })
      .int(cardMessages.yearInvalid)
      .min(2000, cardMessages.yearInvalid)
      .max(2100, cardMessages.yearInvalid),
    cvc: z.string({ error: cardMessages.cvcRequired }).trim().min(1, cardMessages.cvcRequired),
    name: text({ min: 1, max: 100, required: cardMessages.nameRequired, tooLong: cardMessages.nameTooLong }),
  })
  .superRefine((card, ctx) => {
    if (isExpired(card.expMonth, card.expYear)) {
      ctx.addIssue({ code: 'custom', path: ['expYear'], message: cardMessages.expired });
    }
    const amex = cardBrandOf(card.number) === 'amex';
    if (!(amex ? /^\d{4}$/ : /^\d{3}$/).test(card.cvc)) {
      ctx.addIssue({
        code: 'custom',
        path: ['cvc'],
        message: amex ? cardMessages.cvcInvalidAmex : cardMessages.cvcInvalid,
      });
    }
  });
export type CardTokenBody = z.input<typeof cardTokenBody>;

/** What a token stands for: never the number or the CVC. */
export const cardTokenView = z.object({
  id: z.string(),
  brand: z.enum(CARD_BRANDS),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export type CardTokenView = z.infer<typeof cardTokenView>;
