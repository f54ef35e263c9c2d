import { z } from 'zod';
import { CARD_BRANDS, cardBrand, cardMessages, cardNumberError, cvvError, isExpiryValid } from '../billing/card.js';
import { text } from './text.js';

/** Digits only: spaces and dashes people type between groups are dropped. */
const cardDigits = (value: string): string => value.replace(/[\s-]/g, '');

/**
 * A card as the sandbox gateway's tokenisation endpoint takes it, checked as the card form checks
 * it (billing/card.ts): a number of an accepted brand with a valid Luhn digit, a month and
 * four-digit year not in the past, and a CVC of 3 digits (4 for American Express). Only the
 * gateway ever sees this; it answers a token.
 */
export const cardTokenBody = z
  .object({
    number: z
      .string({ error: cardMessages.numberRequired })
      .transform(cardDigits)
      .superRefine((value, ctx) => {
        const error = cardNumberError(value);
        if (error) ctx.addIssue({ code: 'custom', message: error });
      }),
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
    const month = card.expMonth;
    // A month out of 1-12 has its own message already.
    if (
      Number.isInteger(month) &&
      month >= 1 &&
      month <= 12 &&
      !isExpiryValid({ month, year: card.expYear, now: new Date() })
    ) {
      ctx.addIssue({ code: 'custom', path: ['expYear'], message: cardMessages.expired });
    }
    const cvv = cvvError(card.cvc, cardBrand(card.number));
    if (cvv) ctx.addIssue({ code: 'custom', path: ['cvc'], message: cvv });
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
