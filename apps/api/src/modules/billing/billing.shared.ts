import {
  type BillingDetails,
  BillingError,
  type BillingMode,
  type BillingPeriod,
  daysBetween,
  type InvoiceView,
  licenseCountError,
  PLANS,
  type PlanChange,
  planChange,
  type Quote,
  quote,
  type SubscriptionTerms,
  type SubscriptionTermsBody,
  type Tax,
  taxFor,
} from '@sundial/core';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Seller } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { BuyerSnapshot, SellerSnapshot } from '../../db/tables/billing.js';
import { seatUsage } from '../../platform/access.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import type { PaymentMethod, Payments } from '../../platform/payments/index.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import type { BillingMail } from './billing.mails.js';
import { type presentDetails, presentInvoice, type QuoteLine } from './billing.presenter.js';
import {
  type CheckoutAttemptRow,
  type InvoiceRow,
  billingRepository as repo,
  type SubscriptionRow,
} from './billing.repository.js';

export interface BillingDeps {
  db: Db;
  payments: Payments;
  workspaces: WorkspacesService;
  seller: Seller;
  /** BILLING=off: nothing is sold (every workspace has every feature); quotes and checkouts say so. */
  mode: BillingMode;
  /** The clock of every rule with a date in it; tests move it. */
  now?: () => Date;
  /** Sends the receipts, payment-failed, trial-ending and plan-changed e-mails. */
  mailer: Mailer;
  /** Runs the renewals and trial reminders on a schedule. */
  jobs: JobRunner;
  /** The web app's address, for the links in e-mails. */
  publicUrl: string;
  /** Where the renewals job logs one workspace's failure (the others go on). */
  log?: FastifyBaseLogger;
}

/** Renews subscriptions whose period ended and retries past-due ones (dunning); hourly. */
export const billingRenewalsJob = defineJob('billing.renewals', z.object({}));
/**
 * Sends a paid invoice's receipt with its PDF attached (retried while the mail server refuses).
 * `renewal` words it as a renewal; jobs queued before checkouts had receipts were all renewals.
 */
export const billingReceiptJob = defineJob(
  'billing.receipt',
  z.object({ workspaceId: z.uuid(), invoiceId: z.uuid(), renewal: z.boolean().default(true) }),
);
/** E-mails trial workspaces whose trial ends in 3 days; hourly. */
export const billingTrialRemindersJob = defineJob('billing.trial-reminders', z.object({}));

/** Days after the period's end on which a failed renewal is tried again; after the last, Free. */
export const RENEWAL_RETRY_DAYS = [1, 3, 5, 7, 14] as const;
export const DAY_MS = 86_400_000;
/** Workspaces handled per run of a job (the next run takes the rest). */
export const JOB_BATCH = 200;

export const CURRENCY = 'USD';
export const MAX_KEY_LENGTH = 200;
/** How long a checkout at its second step holds off another one of the workspace. */
export const WAITING_CHECKOUT_MS = 30 * 60_000;
/** How long one being charged does (seconds, unless its process died mid-charge). */
export const PENDING_CHECKOUT_MS = 2 * 60_000;
export const FREE: SubscriptionTerms = { plan: 'free', cycle: 'annual', licenses: 1 };

export const billingServiceMessages = {
  keyRequired: 'Send an Idempotency-Key header: a new one for each purchase, the same one to retry it.',
  keyTooLong: `The Idempotency-Key is too long (at most ${MAX_KEY_LENGTH}).`,
  keyReused: 'This Idempotency-Key was already used for another purchase. Send a new key for a new purchase.',
  keyReserved: 'An Idempotency-Key may not start with "renewal:" (that is how renewals are named). Send another key.',
  detailsRequired: 'Please fill in the invoice information (name, address, country) before paying.',
  cardRequired: 'Please enter a card to pay with.',
  cardChangeInProgress: 'This card is being saved already; wait a moment and reload the page.',
  freeByCheckout: 'To move to Free, use "Change plan to free": it takes effect at the end of the paid period.',
  checkoutInProgress:
    'Another payment for this workspace is under way or waiting for its confirmation step: finish it first, or try again in 30 minutes.',
  checkoutJustEnded: 'Another payment for this workspace has just ended. Reload the page to see where it stands.',
  checkoutSuperseded:
    'This payment was left unfinished and a later one replaced it: nothing more is charged for it. Reload the page to see where the workspace stands.',
  nothingToChange: 'The workspace already has this plan, billing cycle and number of licenses.',
  renewalDue: 'The current period has ended and its renewal is under way; try again in a moment.',
  paymentOverdue:
    'The last renewal of this workspace is unpaid. Replace the card on "Your subscription" to pay it, then change the plan.',
  noSubscription: 'This workspace has no paid subscription.',
  notCanceled: 'The subscription is not set to end, so there is nothing to reactivate.',
  periodOver: 'The paid period is over: buy a plan again instead.',
  notCreditable: 'Only a paid invoice can be credited.',
  creditOfCredit: 'A credit note cannot be credited itself.',
  fullyCredited: 'This invoice is credited in full already.',
  creditTooLarge: (left: number) => `At most ${(left / 100).toFixed(2)} USD is left to credit on this invoice.`,
} as const;
export const m = billingServiceMessages;

/** What a checkout attempt froze when it began: what is charged, and what it buys. */
export interface FrozenQuote {
  terms: SubscriptionTerms;
  lines: QuoteLine[];
  tax: Tax;
  netCents: number;
  vatCents: number;
  grossCents: number;
  period: { start: string; end: string; anchorDay: number };
  buyer: BuyerSnapshot;
  /** The card a first charge uses when the saved one pays. */
  savedCard: PaymentMethod | null;
}

export const today = (now: Date) => now.toISOString().slice(0, 10);
export const isPaid = (
  sub: SubscriptionRow | undefined,
): sub is SubscriptionRow & { period_start: string; period_end: string } =>
  !!sub && (sub.status === 'active' || sub.status === 'past_due') && !!sub.period_start && !!sub.period_end;

export function termsOf(sub: SubscriptionRow): SubscriptionTerms {
  return { plan: sub.plan, cycle: sub.cycle, licenses: sub.licenses };
}

/** The current terms and period: the paid subscription's, or Free (a trial has bought nothing). */
export function currentOf(sub: SubscriptionRow | undefined): { from: SubscriptionTerms; period: BillingPeriod | null } {
  if (!isPaid(sub)) return { from: FREE, period: null };
  return {
    from: termsOf(sub),
    period: {
      start: sub.period_start,
      end: sub.period_end,
      days: daysBetween(sub.period_start, sub.period_end),
      anchorDay: sub.anchor_day ?? Number(sub.period_start.slice(8)),
    },
  };
}

/** The saved card as the gateway names it, for a charge without a new token. */
export function savedCardOf(sub: SubscriptionRow): PaymentMethod | null {
  if (!sub.payment_method_id || !sub.card_brand || !sub.card_last4) return null;
  return {
    paymentMethodId: sub.payment_method_id,
    brand: sub.card_brand as PaymentMethod['brand'],
    last4: sub.card_last4,
    expMonth: sub.card_exp_month ?? 1,
    expYear: sub.card_exp_year ?? 1970,
    offSessionReady: true,
  };
}

export const planName = (terms: SubscriptionTerms) => PLANS[terms.plan].name;
export const licensesText = (n: number) => `${n} ${n === 1 ? 'license' : 'licenses'}`;

/** Invoice lines of a plan change: a whole period as licenses x price, a part of one as one prorated amount. */
export function linesOf(change: PlanChange, priced: Quote): QuoteLine[] {
  return change.lines.map((line) => {
    const what = `${planName(line.terms)}, ${line.terms.cycle}, ${licensesText(line.terms.licenses)}`;
    if (line.kind === 'charge' && line.days === line.periodDays && line.terms.licenses === priced.licenses)
      return {
        kind: 'charge',
        description: `${what}, ${line.start} to ${line.end}`,
        quantity: line.terms.licenses,
        unitCents: priced.pricePerLicenseCents,
        amountCents: line.amountCents,
      };
    const span = `${line.start} to ${line.end} (${line.days} of ${line.periodDays} days)`;
    return {
      kind: line.kind,
      description: line.kind === 'credit' ? `Unused time on ${what}, ${span}` : `${what}, ${span}`,
      quantity: 1,
      unitCents: line.amountCents,
      amountCents: line.amountCents,
    };
  });
}

export function buyerOf(details: BillingDetails | ReturnType<typeof presentDetails>): BuyerSnapshot {
  return {
    name: details.name,
    invoiceEmail: details.invoiceEmail,
    address: details.address,
    city: details.city,
    postalCode: details.postalCode,
    country: details.country,
    vatId: details.vatId,
    isBusiness: details.isBusiness,
  };
}

/** A BillingError of core as the 422 the client shows beside the field. */
export function priced(terms: SubscriptionTerms): Quote {
  try {
    return quote(terms);
  } catch (error) {
    if (error instanceof BillingError) throw validationError({ [error.field]: error.message });
    throw error;
  }
}

/** What the gateway says was taken: a checkout completes only for the amount and currency it priced. */
export interface PaidCharge {
  chargeId: string;
  amountCents: number;
  currency: string;
}

/** A new attempt's columns before it is charged: the terms and the quote it froze. */
export const pendingAttempt = (frozen: FrozenQuote) => ({
  terms: JSON.stringify(frozen.terms),
  quote: JSON.stringify(frozen),
  status: 'pending' as const,
  charge_id: null,
  next_action_url: null,
  decline_message: null,
  invoice_id: null,
});

/**
 * Where the browser comes back after the bank's second step. A checkout's path carries its terms
 * too, so a failed step can offer the card form again for the same purchase.
 */
export function returnPathOf(
  attempt: Pick<CheckoutAttemptRow, 'id' | 'idempotency_key'>,
  terms: SubscriptionTerms,
): string {
  const path = `/homepage/payment?checkout=${attempt.id}`;
  if (attempt.idempotency_key.startsWith('renewal:')) return path;
  return `${path}&plan=${terms.plan}&cycle=${terms.cycle}&licenses=${terms.licenses}`;
}

export const sameTerms = (a: SubscriptionTerms, b: SubscriptionTerms) =>
  a.plan === b.plan && a.cycle === b.cycle && a.licenses === b.licenses;

/** What every part of the billing service shares, built once from its dependencies. */
export function createBillingContext(deps: BillingDeps) {
  const { db, payments, workspaces, seller, mode, mailer, jobs, publicUrl, log } = deps;
  /** With billing off there is nothing to buy: every workspace has every feature already. */
  const assertSelling = () => {
    if (!mode.billing)
      throw new AppError('billing_off', 'Billing is off on this Sundial: every workspace has every feature.', {
        status: 409,
      });
  };
  const clock = deps.now ?? (() => new Date());
  const gateway = payments.gateway;

  const sellerSnapshot = (): SellerSnapshot => ({
    name: seller.name,
    addressLines: seller.addressLines,
    country: seller.country,
    vatId: seller.vatId,
    email: seller.email,
  });

  /**
   * The one place billing e-mails leave: to the workspace's owners and its invoice e-mail, once
   * per `key` (a retried job or a second completion sends nothing more), only if `tx` commits.
   */
  async function notify(tx: Db, workspaceId: string, key: string, mail: (workspace: string) => BillingMail) {
    if (!(await repo.claimMail(tx, workspaceId, key))) return;
    const { name, to } = await repo.mailTargets(tx, workspaceId);
    const message = mail(name);
    for (const address of to) await mailer.send({ to: address, ...message }, { db: tx });
  }
  const billingLink = `${publicUrl}/homepage/payment`;
  /** The billing page ("Your subscription"), and with the form to replace the saved card open. */
  const subscriptionLink = `${publicUrl}/homepage/billing`;
  const replaceCardLink = `${subscriptionLink}?replace-card=1`;

  const taxOf = (buyer: Pick<BuyerSnapshot, 'country' | 'isBusiness' | 'vatId'>): Tax =>
    taxFor({
      sellerCountry: seller.country,
      buyerCountry: buyer.country,
      buyerIsBusiness: buyer.isBusiness,
      buyerVatId: buyer.vatId,
    });

  /** Checks the terms against the catalogue and the members in use, and prices the change from the current ones. */
  async function priceChange(workspaceId: string, terms: SubscriptionTermsBody, now: Date) {
    const price = priced(terms);
    const workspace = await workspaceRow(workspaceId);
    const seats = await seatUsage(db, workspace, mode);
    const tooFew = licenseCountError(terms.licenses, seats.used);
    if (tooFew) throw validationError({ licenses: tooFew });
    const sub = await repo.findSubscription(db, workspaceId);
    const { from, period } = currentOf(sub);
    const on = today(now);
    if (period && on >= period.end)
      // Past due: the open renewal is paid first (replacing the card charges it at once).
      throw sub?.status === 'past_due'
        ? new AppError('payment_overdue', m.paymentOverdue, { status: 409 })
        : new AppError('renewal_due', m.renewalDue, { status: 409 });
    const change = planChange({ from, to: terms, period, on });
    return { price, change, sub, lines: linesOf(change, price) };
  }

  async function workspaceRow(workspaceId: string) {
    return db
      .selectFrom('workspaces')
      .select(['id', 'plan', 'licenses', 'trial_ends_at'])
      .where('id', '=', workspaceId)
      .executeTakeFirstOrThrow();
  }

  async function invoiceView(dbOrTx: Db, workspaceId: string, row: InvoiceRow): Promise<InvoiceView> {
    const lines = await repo.linesOf(dbOrTx, [row.id]);
    const credited = await repo.creditedOf(dbOrTx, workspaceId, [row.id]);
    return presentInvoice(row, lines.get(row.id) ?? [], credited.get(row.id) ?? 0);
  }

  async function issue(
    tx: Db,
    values: {
      workspaceId: string;
      kind: 'invoice' | 'credit_note';
      creditedInvoiceId: string | null;
      terms: SubscriptionTerms;
      period: { start: string; end: string } | null;
      seller: SellerSnapshot;
      buyer: BuyerSnapshot;
      tax: Tax;
      totals: { netCents: number; vatCents: number; grossCents: number };
      lines: { description: string; quantity: number; unitCents: number; amountCents: number }[];
      chargeId: string;
      idempotencyKey: string;
      reason?: string;
      now: Date;
    },
  ): Promise<string> {
    const series = `${seller.invoicePrefix}-${values.now.getUTCFullYear()}`;
    const n = await repo.nextInvoiceNumber(tx, series);
    const id = newId();
    await repo.insertInvoice(
      tx,
      {
        id,
        workspace_id: values.workspaceId,
        number: `${series}-${String(n).padStart(6, '0')}`,
        kind: values.kind,
        credited_invoice_id: values.creditedInvoiceId,
        status: 'paid',
        issued_at: values.now,
        period_start: values.period?.start ?? null,
        period_end: values.period?.end ?? null,
        plan: values.terms.plan,
        cycle: values.terms.cycle,
        licenses: values.terms.licenses,
        currency: CURRENCY,
        seller: JSON.stringify(values.seller),
        buyer: JSON.stringify(values.buyer),
        tax_kind: values.tax.kind,
        tax_rate_basis_points: values.tax.ratePercentBasisPoints,
        tax_note: values.tax.note,
        net_cents: values.totals.netCents,
        vat_cents: values.totals.vatCents,
        gross_cents: values.totals.grossCents,
        charge_id: values.chargeId,
        idempotency_key: values.idempotencyKey,
        reason: values.reason ?? null,
      },
      values.lines.map((line) => ({
        description: line.description,
        quantity: line.quantity,
        unit_cents: line.unitCents,
        amount_cents: line.amountCents,
      })),
    );
    return id;
  }

  async function findOwnInvoice(workspaceId: string, invoiceId: string): Promise<InvoiceRow> {
    const row = await repo.findInvoice(db, workspaceId, invoiceId);
    if (!row) throw notFound('Invoice not found.');
    return row;
  }

  return {
    db,
    payments,
    workspaces,
    seller,
    mode,
    mailer,
    jobs,
    publicUrl,
    log,
    assertSelling,
    clock,
    gateway,
    sellerSnapshot,
    notify,
    billingLink,
    subscriptionLink,
    replaceCardLink,
    taxOf,
    priceChange,
    workspaceRow,
    invoiceView,
    issue,
    findOwnInvoice,
  };
}

export type BillingContext = ReturnType<typeof createBillingContext>;
