import { z } from 'zod';
import { isCountryCode } from '../billing/countries.js';
import { billingMessages, MAX_LICENSES, MIN_LICENSES } from '../billing/pricing.js';
import { PLAN_IDS } from '../plans.js';
import { text } from './text.js';

/**
 * The subscription API (modules/billing): what a workspace buys, the quote and checkout of it,
 * and the views of its subscription and invoices. Money is integer cents in USD.
 */
export const subscriptionMessages = {
  plan: 'Choose a plan: free, basic, pro or enterprise.',
  cycle: 'Choose a billing cycle: annual or monthly.',
  paymentToken: 'The card token is missing or malformed: enter the card again.',
  amount: 'Enter the amount to credit in cents: a whole number of at least 1.',
  reasonRequired: 'Please say why the credit note is issued.',
  reasonTooLong: 'The reason must be at most 500 characters.',
  country: 'Choose the billing address’s country from the list.',
  vatIdTooLong: 'VAT ID must be at most 30 characters.',
} as const;

const m = subscriptionMessages;

/** The terms a purchase or a quote is for. Licenses: 1 to 999 (and the service checks the members in use). */
export const subscriptionTermsBody = z.object({
  plan: z.enum(PLAN_IDS, { error: m.plan }),
  cycle: z.enum(['monthly', 'annual'], { error: m.cycle }),
  licenses: z
    .number({ error: billingMessages.licensesRange })
    .int(billingMessages.licensesRange)
    .min(MIN_LICENSES, billingMessages.licensesRange)
    .max(MAX_LICENSES, billingMessages.licensesRange),
});
export type SubscriptionTermsBody = z.infer<typeof subscriptionTermsBody>;

/**
 * POST /billing/quote: the terms and, while the invoice information is being filled in, the
 * billing address as typed so far (the VAT depends on it). Without it the saved details count.
 * A VAT id counts only when valid for the country (reverse charge); an unfinished one is no error.
 */
export const quoteBody = subscriptionTermsBody.extend({
  billingAddress: z
    .object({
      /** ISO 3166-1 alpha-2 code. */
      country: z.string({ error: m.country }).trim().toUpperCase().refine(isCountryCode, { message: m.country }),
      isBusiness: z.boolean().default(false),
      vatId: z.string().trim().max(30, m.vatIdTooLong).nullish(),
    })
    .optional(),
});
export type QuoteBody = z.infer<typeof quoteBody>;

/** A checkout: the terms and, unless the saved card pays, the token the gateway's card form made. */
export const checkoutBody = subscriptionTermsBody.extend({
  paymentToken: z.string({ error: m.paymentToken }).trim().min(1, m.paymentToken).max(200, m.paymentToken).optional(),
});
export type CheckoutBody = z.infer<typeof checkoutBody>;

/** PUT /billing/payment-method: the token of the card that replaces the saved one. */
export const paymentMethodBody = z.object({
  paymentToken: z.string({ error: m.paymentToken }).trim().min(1, m.paymentToken).max(200, m.paymentToken),
});
export type PaymentMethodBody = z.infer<typeof paymentMethodBody>;

export const creditNoteBody = z.object({
  /** Gross cents to give back; all that is left to credit when left out. */
  amountCents: z.number({ error: m.amount }).int(m.amount).min(1, m.amount).optional(),
  reason: text({ min: 1, max: 500, required: m.reasonRequired, tooLong: m.reasonTooLong }),
});
export type CreditNoteBody = z.infer<typeof creditNoteBody>;

const planId = z.enum(PLAN_IDS);
const cycle = z.enum(['monthly', 'annual']);
const day = z.string().describe('YYYY-MM-DD');
const termsView = z.object({ plan: planId, cycle, licenses: z.number().int() });

export const taxView = z.object({
  kind: z.enum(['standard', 'reverse_charge', 'none']),
  /** Basis points: 2300 = 23%. */
  rateBasisPoints: z.number().int(),
  note: z.string(),
});

export const billingDetailsView = z.object({
  name: z.string(),
  invoiceEmail: z.string().nullable(),
  address: z.string(),
  city: z.string(),
  postalCode: z.string(),
  country: z.string(),
  countryName: z.string(),
  vatId: z.string().nullable(),
  isBusiness: z.boolean(),
});
export type BillingDetailsView = z.infer<typeof billingDetailsView>;

export const savedCardView = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});

export const subscriptionView = termsView.extend({
  status: z.enum(['active', 'past_due', 'canceled', 'none']),
  periodStart: day.nullable(),
  /** The first day after the period: the renewal day. */
  periodEnd: day.nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** A downgrade or seat decrease waiting for `periodEnd`. */
  scheduledChange: termsView.extend({ effectiveOn: day }).nullable(),
  card: savedCardView.nullable(),
});

/**
 * PUT /billing/payment-method and its confirm: `saved` (the card pays from now on) or
 * `requires_action` (send the browser to `nextActionUrl`; it comes back to
 * /homepage/billing?card=<changeId>). `renewal` says how retrying a past-due renewal on the new
 * card went (null when none was due): `requires_action` has the payment's own second step.
 */
export const cardChangeView = z.object({
  status: z.enum(['saved', 'requires_action']),
  changeId: z.string(),
  nextActionUrl: z.string().nullable(),
  card: savedCardView.nullable(),
  renewal: z
    .object({
      status: z.enum(['renewed', 'declined', 'requires_action']),
      message: z.string().nullable(),
      nextActionUrl: z.string().nullable(),
    })
    .nullable(),
});
export type CardChangeView = z.infer<typeof cardChangeView>;

/** GET /billing: everything the billing page shows. */
export const billingView = z.object({
  /** The stored plan ('free' during a trial that bought nothing). */
  plan: planId,
  /** What the workspace has now: Pro while the trial runs. */
  effectivePlan: planId,
  isTrial: z.boolean(),
  /** The same figure as the shell's banner. */
  trialDaysLeft: z.number().int(),
  trialEndsAt: z.string().nullable(),
  licenses: z.number().int(),
  seats: z.object({
    used: z.number().int(),
    limit: z.number().int().nullable(),
    pendingInvites: z.number().int(),
  }),
  subscription: subscriptionView.nullable(),
  details: billingDetailsView.nullable(),
  prices: z.array(
    z.object({
      plan: planId,
      name: z.string(),
      /** null for Enterprise (sold by contract). */
      monthlyCents: z.number().int().nullable(),
      annualCents: z.number().int().nullable(),
    }),
  ),
  currency: z.literal('USD'),
  sellerCountry: z.string(),
  /** How the payment page takes a card: the sandbox's form, or Stripe's Payment Element with this key. */
  payments: z.object({
    gateway: z.enum(['sandbox', 'stripe']),
    /** Stripe's publishable key (`pk_…`); null with the sandbox. */
    publishableKey: z.string().nullable(),
  }),
});
export type BillingView = z.infer<typeof billingView>;

export const quoteLineView = z.object({
  kind: z.enum(['charge', 'credit']),
  description: z.string(),
  quantity: z.number().int(),
  unitCents: z.number().int(),
  amountCents: z.number().int(),
});

/** POST /billing/quote. */
export const billingQuoteView = termsView.extend({
  pricePerLicenseCents: z.number().int(),
  /** One whole period at these terms, before tax. */
  subtotalCents: z.number().int(),
  timing: z.enum(['immediate', 'period_end', 'none']),
  effectiveOn: day,
  period: z.object({ start: day, end: day }),
  /** What is invoiced now (empty unless immediate). */
  lines: z.array(quoteLineView),
  /** null until the billing address is known (saved details, or the one sent with the quote): the VAT depends on it. */
  tax: taxView.nullable(),
  /** The country the VAT was priced for (null with `tax`). */
  taxCountry: z.string().nullable(),
  netCents: z.number().int(),
  vatCents: z.number().int(),
  grossCents: z.number().int(),
  currency: z.literal('USD'),
});
export type BillingQuoteView = z.infer<typeof billingQuoteView>;

export const invoiceLineView = z.object({
  description: z.string(),
  quantity: z.number().int(),
  unitCents: z.number().int(),
  amountCents: z.number().int(),
});

/** An invoice or credit note (a credit note's amounts are negative). */
export const invoiceView = z.object({
  id: z.uuid(),
  number: z.string(),
  kind: z.enum(['invoice', 'credit_note']),
  creditedInvoiceId: z.uuid().nullable(),
  status: z.enum(['open', 'paid', 'void']),
  issuedAt: z.string(),
  periodStart: day.nullable(),
  periodEnd: day.nullable(),
  plan: planId,
  cycle,
  licenses: z.number().int(),
  currency: z.string(),
  country: z.string(),
  tax: taxView,
  netCents: z.number().int(),
  vatCents: z.number().int(),
  grossCents: z.number().int(),
  /** Gross cents still open to a credit note (0 for a credit note). */
  creditableCents: z.number().int(),
  lines: z.array(invoiceLineView),
});
export type InvoiceView = z.infer<typeof invoiceView>;

export const invoiceListView = z.object({ items: z.array(invoiceView) });

/** POST /billing/checkout and its confirm: paid (with the invoice), scheduled, or waiting for the second step. */
export const checkoutView = z.discriminatedUnion('status', [
  z.object({ status: z.literal('succeeded'), checkoutId: z.uuid(), invoice: invoiceView }),
  z.object({ status: z.literal('scheduled'), checkoutId: z.uuid(), effectiveOn: day }),
  z.object({ status: z.literal('requires_action'), checkoutId: z.uuid(), nextActionUrl: z.string() }),
]);
export type CheckoutView = z.infer<typeof checkoutView>;
