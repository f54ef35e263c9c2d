import { z } from 'zod';
import { BASIS_POINTS, invoiceNumberPatternError, parseExchangeRate } from '../invoicing.js';
import { emailSchema } from './auth.js';
import { daySchema } from './rates.js';
import { text } from './text.js';

/**
 * Client invoices (issue 17, Pro's "invoicing"): made from a client's unbilled billable time in a
 * range of days, numbered when issued. Money is integer cents; rates are basis points (20 % = 2000).
 */
export const CLIENT_INVOICE_STATUSES = ['draft', 'issued', 'sent', 'paid', 'void'] as const;
export type ClientInvoiceStatus = (typeof CLIENT_INVOICE_STATUSES)[number];

export const INVOICE_GROUPINGS = ['project', 'task', 'person', 'entry'] as const;
export type InvoiceGrouping = (typeof INVOICE_GROUPINGS)[number];

/** The largest amount one line, discount or invoice carries: 10,000,000.00. */
export const MAX_INVOICE_CENTS = 1_000_000_000;

export const clientInvoiceMessages = {
  noTime: 'This client has no unbilled billable time in these days.',
  alreadyInvoiced: 'Some of this time is already on another invoice. Refresh the preview and try again.',
  allInvoiced: 'All billable time of this client in these days is already on an invoice.',
  rangeOrder: 'The last day must be on or after the first.',
  rangeTooLong: 'Invoice at most one year of time at once.',
  notDraft: 'Only a draft can be changed or deleted; void an issued invoice instead.',
  notIssuable: 'Only a draft can be issued.',
  noLines: 'An invoice needs at least one line.',
  negativeTotal: 'The discount cannot exceed the lines.',
  cannotVoid: 'A paid or draft invoice cannot be voided (delete a draft instead).',
  cannotPay: 'Only an issued or sent invoice can be marked paid.',
  cannotSend: 'Only an issued invoice can be sent (issue the draft first).',
  clientNotFound: 'Client not found.',
  amount: 'Enter an amount in cents: a whole number up to 1,000,000,000.',
  rate: 'Enter a rate from 0 to 100 % (in basis points: 0 to 10000).',
  currency: 'Enter a currency code of three capital letters, such as EUR.',
  sameCurrency: 'The invoice is in the workspace currency already: convert only to another currency.',
  exchangeRate: 'Enter the exchange rate as a positive number with at most six decimals, such as 0.9234.',
  exchangeSource: 'Say where the rate comes from, such as ECB reference rate.',
} as const;

const cents = z
  .number({ error: clientInvoiceMessages.amount })
  .int(clientInvoiceMessages.amount)
  .min(0, clientInvoiceMessages.amount)
  .max(MAX_INVOICE_CENTS, clientInvoiceMessages.amount);
const basisPoints = z
  .number({ error: clientInvoiceMessages.rate })
  .int(clientInvoiceMessages.rate)
  .min(0, clientInvoiceMessages.rate)
  .max(BASIS_POINTS, clientInvoiceMessages.rate);
const notes = text({ max: 5000, tooLong: 'Notes must be at most 5000 characters.' });
const description = text({ min: 1, max: 500, required: 'Describe the line.' });

export const invoiceDiscountSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percent'), basisPoints }),
  z.object({ kind: z.literal('amount'), cents }),
]);
export const invoiceTaxSchema = z.object({ name: text({ min: 1, max: 60, required: 'Name the tax.' }), basisPoints });

/**
 * Converting an invoice out of the workspace currency: the operator states the rate (1 workspace
 * currency = `rate` of `currency`), its day and its source; the invoice prints all three.
 */
export const invoiceConversionSchema = z.object({
  currency: z.string({ error: clientInvoiceMessages.currency }).regex(/^[A-Z]{3}$/, clientInvoiceMessages.currency),
  rate: z
    .string({ error: clientInvoiceMessages.exchangeRate })
    .refine((r) => parseExchangeRate(r) !== null, clientInvoiceMessages.exchangeRate),
  on: daySchema,
  source: text({ min: 1, max: 200, required: clientInvoiceMessages.exchangeSource }),
});
export type InvoiceConversion = z.infer<typeof invoiceConversionSchema>;

const range = {
  clientId: z.uuid({ error: clientInvoiceMessages.clientNotFound }),
  from: daySchema,
  to: daySchema,
  groupBy: z.enum(INVOICE_GROUPINGS, { error: 'Group lines by project, task, person or entry.' }),
  /** Absent or null: the invoice is in the workspace currency, the one its rates are in. */
  conversion: invoiceConversionSchema.nullable().optional(),
};
const rangeChecks = <T extends { from: string; to: string }>(schema: z.ZodType<T>) =>
  schema
    .refine((b) => b.to >= b.from, { message: clientInvoiceMessages.rangeOrder, path: ['to'] })
    .refine((b) => Date.parse(b.to) - Date.parse(b.from) <= 366 * 86_400_000, {
      message: clientInvoiceMessages.rangeTooLong,
      path: ['to'],
    });

export const previewClientInvoiceBody = rangeChecks(z.object(range));
export type PreviewClientInvoiceBody = z.infer<typeof previewClientInvoiceBody>;

export const createClientInvoiceBody = rangeChecks(
  z.object({ ...range, dueOn: daySchema.nullable().optional(), notes: notes.optional() }),
);
export type CreateClientInvoiceBody = z.infer<typeof createClientInvoiceBody>;

export const updateClientInvoiceBody = z.object({
  /** The fixed-price lines, replacing those the draft has (time lines come from entries). */
  fixedLines: z
    .array(z.object({ description, amountCents: cents }))
    .max(50, 'At most 50 fixed lines.')
    .optional(),
  discount: invoiceDiscountSchema.nullable().optional(),
  taxes: z.array(invoiceTaxSchema).max(2, 'An invoice has one or two tax rates.').optional(),
  notes: notes.optional(),
  dueOn: daySchema.nullable().optional(),
});
export type UpdateClientInvoiceBody = z.infer<typeof updateClientInvoiceBody>;

export const markClientInvoicePaidBody = z.object({ paidOn: daySchema });
export const sendClientInvoiceBody = z.object({
  to: z.array(emailSchema).min(1, 'Enter at least one address.').max(10, 'At most 10 addresses.'),
  message: text({ max: 2000, tooLong: 'The message must be at most 2000 characters.' }).optional(),
});
export type SendClientInvoiceBody = z.infer<typeof sendClientInvoiceBody>;

export const listClientInvoicesQuery = z.object({
  status: z.enum(CLIENT_INVOICE_STATUSES, { error: 'Unknown status.' }).optional(),
  clientId: z.uuid({ error: clientInvoiceMessages.clientNotFound }).optional(),
  /** The invoice a time entry is on (an entry links to its invoice). */
  entryId: z.uuid({ error: 'Entry not found.' }).optional(),
});
export type ListClientInvoicesQuery = z.infer<typeof listClientInvoicesQuery>;

export const clientInvoiceSettingsBody = z.object({
  numberPattern: text({ min: 1, max: 40, required: 'Enter a number pattern such as {YYYY}-{0000}.' })
    .refine((p) => invoiceNumberPatternError(p) === null, {
      error: (issue) => invoiceNumberPatternError(String(issue.input)) ?? 'Invalid pattern.',
    })
    .optional(),
  nextNumber: z
    .number({ error: 'The next number is a whole number from 1.' })
    .int('The next number is a whole number from 1.')
    .min(1, 'The next number is a whole number from 1.')
    .max(1_000_000_000, 'The next number is a whole number from 1.')
    .optional(),
  address: text({ max: 1000, tooLong: 'The address must be at most 1000 characters.' }).optional(),
  paymentDetails: text({ max: 1000, tooLong: 'Payment details must be at most 1000 characters.' }).optional(),
  /** Invoices round each entry's time as the reports do (the workspace rounding); on by default. */
  roundAsReports: z.boolean({ error: 'Round as reports do is on or off.' }).optional(),
});
export type ClientInvoiceSettingsBody = z.infer<typeof clientInvoiceSettingsBody>;

export const clientInvoiceSettingsView = z.object({
  numberPattern: z.string(),
  nextNumber: z.number().int(),
  address: z.string(),
  paymentDetails: z.string(),
  roundAsReports: z.boolean(),
});
export type ClientInvoiceSettingsView = z.infer<typeof clientInvoiceSettingsView>;

export const clientInvoiceLineView = z.object({
  kind: z.enum(['time', 'fixed']),
  description: z.string(),
  /** Time lines: the tracked seconds and the hourly rate when every entry of the line has the same. */
  seconds: z.number().int().nullable(),
  /** Time lines: the quantity printed, hundredths of an hour; amountCents = hundredths x rateCents / 100 to the cent. */
  hundredths: z.number().int().nullable(),
  /** The unit price (per hour on time lines), in the invoice's currency. */
  rateCents: z.number().int().nullable(),
  amountCents: z.number().int(),
});
export type ClientInvoiceLineView = z.infer<typeof clientInvoiceLineView>;

export const invoiceMoneyView = z.object({
  subtotalCents: z.number().int(),
  discountCents: z.number().int(),
  netCents: z.number().int(),
  taxes: z.array(z.object({ name: z.string(), basisPoints: z.number().int(), amountCents: z.number().int() })),
  taxCents: z.number().int(),
  totalCents: z.number().int(),
});

/** A stated conversion as printed: 1 `from` = `rate` `currency`, on `on`, from `source`. */
export const invoiceConversionView = z.object({
  from: z.string(),
  currency: z.string(),
  rate: z.string(),
  on: z.string(),
  source: z.string(),
});

export const clientInvoicePreviewView = z.object({
  currency: z.string(),
  /** The workspace currency the rates are in (the entries' amounts). */
  rateCurrency: z.string(),
  conversion: invoiceConversionView.nullable(),
  entryCount: z.number().int(),
  lines: z.array(clientInvoiceLineView),
  money: invoiceMoneyView,
});
export type ClientInvoicePreviewView = z.infer<typeof clientInvoicePreviewView>;

export const clientInvoiceSummaryView = z.object({
  id: z.uuid(),
  number: z.string().nullable(),
  status: z.enum(CLIENT_INVOICE_STATUSES),
  clientId: z.uuid(),
  clientName: z.string(),
  currency: z.string(),
  periodFrom: z.string(),
  periodTo: z.string(),
  issuedOn: z.string().nullable(),
  dueOn: z.string().nullable(),
  paidOn: z.string().nullable(),
  totalCents: z.number().int(),
  createdAt: z.string(),
});
export type ClientInvoiceSummaryView = z.infer<typeof clientInvoiceSummaryView>;

export const clientInvoiceEntryView = z.object({
  id: z.uuid(),
  userName: z.string(),
  start: z.string(),
  /** The entry's day in the workspace's report time zone. */
  day: z.string(),
  seconds: z.number().int(),
  rateCents: z.number().int().nullable(),
  amountCents: z.number().int(),
  note: z.string(),
  project: z.string().nullable(),
  task: z.string().nullable(),
});
export type ClientInvoiceEntryView = z.infer<typeof clientInvoiceEntryView>;

export const clientInvoiceView = clientInvoiceSummaryView.extend({
  groupBy: z.enum(INVOICE_GROUPINGS),
  notes: z.string(),
  discount: invoiceDiscountSchema.nullable(),
  sentAt: z.string().nullable(),
  /** The workspace currency of the rates and of the entries' amounts. */
  rateCurrency: z.string(),
  conversion: invoiceConversionView.nullable(),
  voidedAt: z.string().nullable(),
  /** Who voided it (their name, or null when unknown). */
  voidedBy: z.string().nullable(),
  lines: z.array(clientInvoiceLineView),
  money: invoiceMoneyView,
  entries: z.array(clientInvoiceEntryView),
});
export type ClientInvoiceView = z.infer<typeof clientInvoiceView>;

export const clientInvoiceListView = z.object({
  items: z.array(clientInvoiceSummaryView),
  /** Per status and currency: how many invoices and their total (of the whole workspace, whatever the filter). */
  totals: z.array(
    z.object({
      status: z.enum(CLIENT_INVOICE_STATUSES),
      currency: z.string(),
      count: z.number().int(),
      totalCents: z.number().int(),
    }),
  ),
});
export type ClientInvoiceListView = z.infer<typeof clientInvoiceListView>;
