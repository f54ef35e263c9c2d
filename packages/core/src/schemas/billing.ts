import { z } from 'zod';
import {
  checkVatId,
  findCountryName,
  isCountryCode,
  isEuCountry,
  isValidPostalCode,
  normalizeVatId,
} from '../billing/countries.js';
import { text } from './text.js';

export const billingDetailsMessages = {
  nameRequired: 'Please enter your company or your name.',
  nameTooLong: 'Company or name must be at most 200 characters.',
  emailInvalid: 'Please enter a valid e-mail address for invoices, like billing@company.com, or leave it empty.',
  addressRequired: 'Please enter the street address.',
  addressTooLong: 'Address must be at most 300 characters.',
  cityRequired: 'Please enter the city.',
  cityTooLong: 'City must be at most 100 characters.',
  postalCodeRequired: 'Please enter the postal code.',
  postalCodeText: 'A postal code has only letters, digits, spaces and dashes (at most 12).',
  postalCodeCountry: (country: string) => `This is not a postal code of ${country}: check it or the country.`,
  countryRequired: 'Please choose your country.',
  vatIdTooLong: 'VAT ID must be at most 30 characters.',
  vatIdNotBusiness: 'A VAT ID is for businesses: choose "Business" or leave the VAT ID empty.',
  oneLine: 'Please keep this on one line.',
} as const;

const m = billingDetailsMessages;
const CROSS_CHECKED = new Set(['postalCode', 'country', 'vatId', 'isBusiness']);

const oneLine = (required: string, tooLong: string, max: number) =>
  text({ min: 1, max, required, tooLong }).regex(/^[^\r\n]*$/, m.oneLine);

// An empty optional field of the form means "not given".
const optionalText = (max: number, tooLong: string) =>
  text({ max, tooLong })
    .nullish()
    .transform((value) => (value ? value : null));

/**
 * The buyer details of invoices (the invoice information and billing address forms, and the
 * API that stores them). The postal code is checked by the country's rule where one is known;
 * an EU business's VAT id by its format and check digits, and its prefix must be the country's
 * (EL for Greece). The output has the country in upper case and the VAT id normalised.
 */
export const billingDetailsSchema = z
  .object({
    /** The company, or the person's name when buying privately. */
    name: oneLine(m.nameRequired, m.nameTooLong, 200),
    /** Where invoices are sent; the owner's e-mail when left out. */
    invoiceEmail: optionalText(254, m.emailInvalid).pipe(
      z
        .email({ error: m.emailInvalid })
        .transform((value) => value.toLowerCase())
        .nullable(),
    ),
    address: oneLine(m.addressRequired, m.addressTooLong, 300),
    city: oneLine(m.cityRequired, m.cityTooLong, 100),
    postalCode: text({ min: 1, max: 12, required: m.postalCodeRequired, tooLong: m.postalCodeText }),
    /** ISO 3166-1 alpha-2 code ("GR" for Greece). */
    country: z
      .string({ error: m.countryRequired })
      .trim()
      .toUpperCase()
      .refine(isCountryCode, { message: m.countryRequired, abort: true }),
    vatId: optionalText(30, m.vatIdTooLong),
    isBusiness: z.boolean().default(false),
  })
  .superRefine(
    (value, ctx) => {
      if (!isValidPostalCode(value.postalCode, value.country)) {
        const isText = /^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$/.test(value.postalCode);
        const country = findCountryName(value.country) ?? value.country;
        ctx.addIssue({
          code: 'custom',
          path: ['postalCode'],
          message: isText ? m.postalCodeCountry(country) : m.postalCodeText,
        });
      }
      if (value.vatId && !value.isBusiness)
        ctx.addIssue({ code: 'custom', path: ['vatId'], message: m.vatIdNotBusiness });
      else if (value.vatId && isEuCountry(value.country)) {
        const check = checkVatId(value.vatId, value.country);
        if (!check.ok) ctx.addIssue({ code: 'custom', path: ['vatId'], message: check.message });
      }
    },
    // The checks need only these fields: run them even when others are missing, so the form shows every problem at once.
    {
      when: (payload) =>
        typeof payload.value === 'object' &&
        payload.value !== null &&
        // An array is an object too, without the fields (a bad request body, not a form).
        !Array.isArray(payload.value) &&
        !payload.issues.some((issue) => CROSS_CHECKED.has(String(issue.path?.[0]))),
    },
  )
  .transform((value) => ({
    ...value,
    vatId: value.vatId && isEuCountry(value.country) ? normalizeVatId(value.vatId, value.country) : value.vatId,
  }));
export type BillingDetailsBody = z.input<typeof billingDetailsSchema>;
export type BillingDetails = z.output<typeof billingDetailsSchema>;
