import {
  type BillingDetails,
  BillingError,
  type BillingMode,
  type BillingPeriod,
  type BillingQuoteView,
  type BillingView,
  billingPeriod,
  type CardChangeView,
  type CheckoutBody,
  type CheckoutView,
  type CreditNoteBody,
  daysBetween,
  effectivePlan,
  type InvoiceView,
  invoiceTotals,
  licenseCountError,
  type PaymentMethodBody,
  PLAN_IDS,
  PLANS,
  type PlanChange,
  planChange,
  type Quote,
  type QuoteBody,
  quote,
  roundedShare,
  type SubscriptionTerms,
  type SubscriptionTermsBody,
  type Tax,
  taxFor,
  trialDaysLeft,
} from '@sundial/core';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Seller } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { BuyerSnapshot, SellerSnapshot } from '../../db/tables/billing.js';
import { assertCan, seatUsage } from '../../platform/access.js';
import { type Actor, clockFormatOf } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { hashSecret, newId } from '../../platform/ids.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import type { PaymentMethod, Payments, VerificationResult } from '../../platform/payments/index.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { type BillingMail, billingMails } from './billing.mails.js';
import { presentDetails, presentInvoice, presentSubscription, type QuoteLine, taxView } from './billing.presenter.js';
import {
  type CardChangeRow,
  type CheckoutAttemptRow,
  type InvoiceRow,
  billingRepository as repo,
  type SubscriptionRow,
} from './billing.repository.js';
import { writeInvoicePdf } from './invoice.pdf.js';

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
const DAY_MS = 86_400_000;
/** Workspaces handled per run of a job (the next run takes the rest). */
const JOB_BATCH = 200;

const CURRENCY = 'USD';
const MAX_KEY_LENGTH = 200;
/** How long a checkout at its second step holds off another one of the workspace. */
const WAITING_CHECKOUT_MS = 30 * 60_000;
/** How long one being charged does (seconds, unless its process died mid-charge). */
const PENDING_CHECKOUT_MS = 2 * 60_000;
const FREE: SubscriptionTerms = { plan: 'free', cycle: 'annual', licenses: 1 };

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
const m = billingServiceMessages;

/** What a checkout attempt froze when it began: what is charged, and what it buys. */
interface FrozenQuote {
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

const today = (now: Date) => now.toISOString().slice(0, 10);
const isPaid = (
  sub: SubscriptionRow | undefined,
): sub is SubscriptionRow & { period_start: string; period_end: string } =>
  !!sub && (sub.status === 'active' || sub.status === 'past_due') && !!sub.period_start && !!sub.period_end;

function termsOf(sub: SubscriptionRow): SubscriptionTerms {
  return { plan: sub.plan, cycle: sub.cycle, licenses: sub.licenses };
}

/** The current terms and period: the paid subscription's, or Free (a trial has bought nothing). */
function currentOf(sub: SubscriptionRow | undefined): { from: SubscriptionTerms; period: BillingPeriod | null } {
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
function savedCardOf(sub: SubscriptionRow): PaymentMethod | null {
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

const planName = (terms: SubscriptionTerms) => PLANS[terms.plan].name;
const licensesText = (n: number) => `${n} ${n === 1 ? 'license' : 'licenses'}`;

/** Invoice lines of a plan change: a whole period as licenses x price, a part of one as one prorated amount. */
function linesOf(change: PlanChange, priced: Quote): QuoteLine[] {
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

function buyerOf(details: BillingDetails | ReturnType<typeof presentDetails>): BuyerSnapshot {
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
function priced(terms: SubscriptionTerms): Quote {
  try {
    return quote(terms);
  } catch (error) {
    if (error instanceof BillingError) throw validationError({ [error.field]: error.message });
    throw error;
  }
}

const declined = (message: string) => new AppError('payment_declined', message, { status: 402 });

/** What the gateway says was taken: a checkout completes only for the amount and currency it priced. */
interface PaidCharge {
  chargeId: string;
  amountCents: number;
  currency: string;
}

/** A new attempt's columns before it is charged: the terms and the quote it froze. */
const pendingAttempt = (frozen: FrozenQuote) => ({
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
function returnPathOf(attempt: Pick<CheckoutAttemptRow, 'id' | 'idempotency_key'>, terms: SubscriptionTerms): string {
  const path = `/homepage/payment?checkout=${attempt.id}`;
  if (attempt.idempotency_key.startsWith('renewal:')) return path;
  return `${path}&plan=${terms.plan}&cycle=${terms.cycle}&licenses=${terms.licenses}`;
}

const sameTerms = (a: SubscriptionTerms, b: SubscriptionTerms) =>
  a.plan === b.plan && a.cycle === b.cycle && a.licenses === b.licenses;

/**
 * Subscription billing (docs/architecture.md, "Billing"): the billing page's view, quotes,
 * billing details, checkout with the payment gateway (idempotent per Idempotency-Key, completed
 * by the browser's confirm or the gateway's event, whichever comes first), cancel and reactivate,
 * invoices with gapless numbers, their PDF, and credit notes. Money reads and writes need
 * `billing:manage` (owners and admins).
 */
export function createBillingService(deps: BillingDeps) {
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
  /** Checkouts being worked on in this process: a concurrent retry waits for the same answer. */
  const inFlight = new Map<string, Promise<{ status: number; body: CheckoutView }>>();

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

  /**
   * Completes a paid checkout in `tx`, once: issues the paid invoice (numbered), activates or
   * changes the subscription, and sets the workspace's plan and licenses. A second call (the
   * browser's confirm and the gateway's event racing) waits on the attempt's row lock and does nothing.
   */
  async function complete(tx: Db, workspaceId: string, attemptId: string, paid: PaidCharge, now: Date) {
    const { chargeId } = paid;
    const attempt = await repo.findAttempt(tx, workspaceId, attemptId, { lock: true });
    if (!attempt || attempt.status === 'succeeded') return;
    const frozen = attempt.quote as FrozenQuote;
    if (paid.amountCents !== frozen.grossCents || paid.currency !== CURRENCY) {
      // A charge of another amount or currency does not buy what this checkout priced: it stays
      // open, and someone looks at the audit log (a gateway bug, or a forged-but-signed event).
      log?.warn({ workspaceId, attemptId, chargeId, paid }, 'payment does not match its checkout; not completed');
      await audit(tx, {
        action: 'checkout.payment_mismatch',
        workspaceId,
        subjectId: attemptId,
        detail: {
          chargeId,
          expectedCents: frozen.grossCents,
          expectedCurrency: CURRENCY,
          paidCents: paid.amountCents,
          paidCurrency: paid.currency,
        },
      });
      return;
    }
    const card = (attempt.payment_method as PaymentMethod | null) ?? frozen.savedCard;
    const invoiceId = await issue(tx, {
      workspaceId,
      kind: 'invoice',
      creditedInvoiceId: null,
      terms: frozen.terms,
      period: frozen.period,
      seller: sellerSnapshot(),
      buyer: frozen.buyer,
      tax: frozen.tax,
      totals: frozen,
      lines: frozen.lines,
      chargeId,
      idempotencyKey: `checkout:${attemptId}`,
      now,
    });
    const wasPaid = isPaid(await repo.findSubscription(tx, workspaceId, { lock: true }));
    await repo.saveSubscription(tx, workspaceId, {
      ...frozen.terms,
      period_start: frozen.period.start,
      period_end: frozen.period.end,
      anchor_day: frozen.period.anchorDay,
      status: 'active',
      cancel_at_period_end: false,
      scheduled_plan: null,
      scheduled_cycle: null,
      scheduled_licenses: null,
      dunning_attempts: 0,
      next_retry_at: null,
      ...(card
        ? {
            payment_method_id: card.paymentMethodId,
            card_brand: card.brand,
            card_last4: card.last4,
            card_exp_month: card.expMonth,
            card_exp_year: card.expYear,
          }
        : {}),
    });
    await workspaces.setPlan(tx, workspaceId, frozen.terms);
    await repo.updateAttempt(tx, workspaceId, attemptId, {
      status: 'succeeded',
      charge_id: chargeId,
      next_action_url: null,
      invoice_id: invoiceId,
    });
    await audit(tx, {
      action: wasPaid ? 'subscription.changed' : 'subscription.purchased',
      actorUserId: attempt.user_id,
      workspaceId,
      subjectId: invoiceId,
      detail: { ...frozen.terms, grossCents: frozen.grossCents },
    });
    const invoice = await repo.findInvoice(tx, workspaceId, invoiceId);
    const number = invoice?.number ?? '';
    const link = `${publicUrl}/homepage/invoice?invoice=${invoiceId}`;
    // Every paid invoice gets its receipt. It carries the invoice's PDF, which the outbox does not
    // keep: a job of its own sends it, claimed once per invoice.
    const isRenewal = attempt.idempotency_key.startsWith('renewal:');
    if (await repo.claimMail(tx, workspaceId, `receipt:${invoiceId}`))
      await jobs.enqueue(tx, billingReceiptJob, { workspaceId, invoiceId, renewal: isRenewal });
    if (!isRenewal)
      await notify(tx, workspaceId, `plan-changed:${attemptId}`, (name) =>
        billingMails.planChanged({
          workspace: name,
          what: `${name} is on ${billingMails.termsText(frozen.terms)} now, paid until ${frozen.period.end}. Invoice ${number}, total ${billingMails.money(frozen.grossCents, CURRENCY)}.`,
          link,
        }),
      );
  }

  /** The answer for an attempt as it stands (402 for a declined one). */
  async function answerOf(attempt: CheckoutAttemptRow): Promise<{ status: number; body: CheckoutView }> {
    switch (attempt.status) {
      case 'succeeded': {
        if (!attempt.invoice_id) {
          const { effectiveOn } = attempt.quote as { effectiveOn: string };
          return { status: 200, body: { status: 'scheduled', checkoutId: attempt.id, effectiveOn } };
        }
        const row = await repo.findInvoice(db, attempt.workspace_id, attempt.invoice_id);
        if (!row) throw notFound('Invoice not found.');
        return {
          status: 200,
          body: {
            status: 'succeeded',
            checkoutId: attempt.id,
            invoice: await invoiceView(db, attempt.workspace_id, row),
          },
        };
      }
      case 'requires_action':
        return {
          status: 202,
          body: { status: 'requires_action', checkoutId: attempt.id, nextActionUrl: attempt.next_action_url ?? '' },
        };
      case 'declined':
        throw declined(attempt.decline_message ?? 'Your card was declined.');
      case 'superseded':
        throw new AppError('checkout_superseded', m.checkoutSuperseded, { status: 409 });
      default:
        throw new AppError('checkout_pending', 'This payment is still being processed; try again in a moment.', {
          status: 409,
        });
    }
  }

  /** Records what the gateway said about an attempt's charge and answers it. */
  async function settle(
    workspaceId: string,
    attemptId: string,
    result: Awaited<ReturnType<typeof gateway.charge>>,
    now: Date,
  ) {
    if (result.status === 'succeeded')
      await db.transaction().execute((tx) => complete(tx, workspaceId, attemptId, result, now));
    else
      await db.transaction().execute(async (tx) => {
        // A completion that won the race (the gateway's event) is kept.
        const attempt = await repo.findAttempt(tx, workspaceId, attemptId, { lock: true });
        if (
          !attempt ||
          attempt.status === 'succeeded' ||
          attempt.status === 'declined' ||
          attempt.status === 'superseded'
        )
          return;
        await repo.updateAttempt(
          tx,
          workspaceId,
          attemptId,
          result.status === 'requires_action'
            ? { status: 'requires_action', charge_id: result.chargeId, next_action_url: result.nextAction.url }
            : {
                status: 'declined',
                charge_id: result.chargeId,
                decline_message: result.message,
                next_action_url: null,
              },
        );
      });
    const attempt = await repo.findAttempt(db, workspaceId, attemptId);
    if (!attempt) throw notFound('Checkout not found.');
    return answerOf(attempt);
  }

  /** Saves the card (once) and charges the frozen amount with the attempt's own gateway key. */
  async function pay(
    attempt: CheckoutAttemptRow,
    options: { paymentToken?: string | undefined; email: string; offSession: boolean },
    now: Date,
  ) {
    const { paymentToken } = options;
    const workspaceId = attempt.workspace_id;
    const frozen = attempt.quote as FrozenQuote;
    const sub = await repo.findSubscription(db, workspaceId);
    let customerId = sub?.gateway_customer_id;
    if (!customerId) {
      const created = await gateway.createCustomer({
        email: frozen.buyer.invoiceEmail ?? options.email,
        name: frozen.buyer.name,
      });
      customerId = await repo.claimCustomer(db, workspaceId, created.customerId);
    }
    let card = (attempt.payment_method as PaymentMethod | null) ?? null;
    if (!card && paymentToken) {
      const attached = await gateway
        .attachPaymentMethod({ customerId, token: paymentToken, usage: 'off_session' })
        .catch(async (error: unknown) => {
          // A token the gateway refuses (unknown, used already): nothing was charged, so the
          // attempt is forgotten and neither blocks another purchase nor answers this key again.
          await repo.deleteAttempt(db, workspaceId, attempt.id);
          throw error;
        });
      if (attached.status === 'declined') {
        await repo.updateAttempt(db, workspaceId, attempt.id, {
          status: 'declined',
          decline_message: attached.message,
        });
        throw declined(attached.message);
      }
      card = attached.paymentMethod;
      await repo.updateAttempt(db, workspaceId, attempt.id, { payment_method: JSON.stringify(card) });
    }
    const savedNow = options.offSession && !paymentToken && sub ? savedCardOf(sub) : null;
    if (savedNow && savedNow.paymentMethodId !== card?.paymentMethodId) {
      // A renewal tried again (its last run failed before the charge) pays with the card saved
      // now, which may have been replaced since the attempt froze its quote.
      card = savedNow;
      await repo.updateAttempt(db, workspaceId, attempt.id, { payment_method: JSON.stringify(card) });
    }
    card ??= frozen.savedCard;
    if (!card) throw validationError({ paymentToken: m.cardRequired });
    const result = await gateway.charge({
      customerId,
      paymentMethodId: card.paymentMethodId,
      amountCents: frozen.grossCents,
      currency: CURRENCY,
      idempotencyKey: `checkout:${attempt.id}`,
      description: `Sundial ${planName(frozen.terms)}, ${frozen.terms.cycle}, ${licensesText(frozen.terms.licenses)}`,
      offSession: options.offSession,
      returnPath: returnPathOf(attempt, frozen.terms),
    });
    return settle(workspaceId, attempt.id, result, now);
  }

  /** Runs an attempt's payment once per process at a time: a concurrent call joins the one under way. */
  function track(attemptId: string, work: () => Promise<{ status: number; body: CheckoutView }>) {
    const running = inFlight.get(attemptId);
    if (running) return running;
    const started = work().finally(() => inFlight.delete(attemptId));
    inFlight.set(attemptId, started);
    return started;
  }

  /** Works on a pending attempt once per process at a time; other states answer as they stand. */
  function resume(actor: Actor, attempt: CheckoutAttemptRow, paymentToken: string | undefined, now: Date) {
    if (attempt.status !== 'pending') return answerOf(attempt);
    return track(attempt.id, () => pay(attempt, { paymentToken, email: actor.user.email, offSession: false }, now));
  }

  async function findOwnInvoice(workspaceId: string, invoiceId: string): Promise<InvoiceRow> {
    const row = await repo.findInvoice(db, workspaceId, invoiceId);
    if (!row) throw notFound('Invoice not found.');
    return row;
  }

  // A charge the browser never came back for completes from the gateway's event.
  payments.events.on('charge.succeeded', async (tx, event) => {
    if (event.data.object !== 'charge') return;
    const attempt = await repo.findAttemptByCharge(tx, event.data.chargeId);
    if (attempt) await complete(tx, attempt.workspace_id, attempt.id, event.data, clock());
  });
  payments.events.on('charge.failed', async (tx, event) => {
    if (event.data.object !== 'charge') return;
    const found = await repo.findAttemptByCharge(tx, event.data.chargeId);
    if (!found) return;
    const attempt = await repo.findAttempt(tx, found.workspace_id, found.id, { lock: true });
    if (attempt?.status === 'requires_action' || attempt?.status === 'pending')
      await repo.updateAttempt(tx, found.workspace_id, found.id, {
        status: 'declined',
        decline_message: event.data.message,
        next_action_url: null,
      });
  });

  /** Card changes being worked on in this process: a concurrent retry waits for the same answer. */
  const cardsInFlight = new Map<string, Promise<{ status: number; body: CardChangeView }>>();

  /** A card change's answer as it stands (402 for a declined one). */
  function cardAnswer(change: CardChangeRow): { status: number; body: CardChangeView } {
    const card = change.payment_method as PaymentMethod | null;
    if (change.status === 'declined') throw declined(change.decline_message ?? 'Your card was declined.');
    if (change.status === 'pending')
      throw new AppError('card_change_in_progress', m.cardChangeInProgress, { status: 409 });
    return {
      status: change.status === 'saved' ? 200 : 202,
      body: {
        status: change.status,
        changeId: change.id,
        nextActionUrl: change.status === 'requires_action' ? change.next_action_url : null,
        card: card ? { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear } : null,
        renewal: (change.renewal as CardChangeView['renewal']) ?? null,
      },
    };
  }

  /**
   * Records how the card's $1.00 verification ended. Verified, the card is saved on the
   * subscription (once, under the change's row lock); a past-due workspace's open renewal is then
   * charged on it at once, with the key dunning's next retry would use, so the two never both charge.
   */
  async function settleCard(
    change: CardChangeRow,
    result: VerificationResult,
    now: Date,
  ): Promise<{ status: number; body: CardChangeView }> {
    const workspaceId = change.workspace_id;
    if (result.status === 'requires_action') {
      await repo.updateCardChange(db, workspaceId, change.id, {
        status: 'requires_action',
        authorisation_id: result.authorisationId,
        next_action_url: result.nextAction.url,
      });
    } else if (result.status === 'declined') {
      await repo.updateCardChange(db, workspaceId, change.id, {
        status: 'declined',
        authorisation_id: result.authorisationId,
        decline_message: result.message,
        next_action_url: null,
      });
    } else {
      const card = change.payment_method as PaymentMethod;
      const saved = await db.transaction().execute(async (tx) => {
        const locked = await repo.findCardChange(tx, workspaceId, { id: change.id }, { lock: true });
        if (!locked || locked.status === 'saved') return false;
        await repo.saveSubscription(tx, workspaceId, {
          payment_method_id: card.paymentMethodId,
          card_brand: card.brand,
          card_last4: card.last4,
          card_exp_month: card.expMonth,
          card_exp_year: card.expYear,
        });
        await repo.updateCardChange(tx, workspaceId, change.id, {
          status: 'saved',
          authorisation_id: result.authorisationId,
          next_action_url: null,
        });
        await audit(tx, {
          action: 'billing.card_replaced',
          actorUserId: change.user_id,
          workspaceId,
          detail: { brand: card.brand, last4: card.last4 },
        });
        return true;
      });
      const sub = await repo.findSubscription(db, workspaceId);
      if (saved && sub?.status === 'past_due') {
        const retried = await service.renew(workspaceId, now, Math.max(sub.dunning_attempts, 1));
        const attempt = retried.checkoutId ? await repo.findAttempt(db, workspaceId, retried.checkoutId) : undefined;
        const renewal: CardChangeView['renewal'] =
          retried.status === 'renewed' || retried.status === 'declined' || retried.status === 'requires_action'
            ? {
                status: retried.status,
                message: retried.status === 'declined' ? (attempt?.decline_message ?? 'Your card was declined.') : null,
                nextActionUrl: retried.status === 'requires_action' ? (attempt?.next_action_url ?? null) : null,
              }
            : null;
        await repo.updateCardChange(db, workspaceId, change.id, { renewal: JSON.stringify(renewal) });
      }
    }
    const after = await repo.findCardChange(db, workspaceId, { id: change.id });
    if (!after) throw notFound('Card change not found.');
    return cardAnswer(after);
  }

  /** Attaches the card off-session (once) and verifies it with the $1.00 authorisation. */
  async function attachCard(change: CardChangeRow, customerId: string, now: Date) {
    const workspaceId = change.workspace_id;
    let card = change.payment_method as PaymentMethod | null;
    if (!card) {
      const attached = await gateway
        .attachPaymentMethod({ customerId, token: change.token, usage: 'off_session' })
        .catch(async (error: unknown) => {
          // A token the gateway refuses (unknown, used already): nothing was saved; forget the try.
          await repo.deleteCardChange(db, workspaceId, change.id);
          throw error;
        });
      if (attached.status === 'declined') {
        await repo.updateCardChange(db, workspaceId, change.id, {
          status: 'declined',
          decline_message: attached.message,
        });
        throw declined(attached.message);
      }
      card = attached.paymentMethod;
      await repo.updateCardChange(db, workspaceId, change.id, { payment_method: JSON.stringify(card) });
    }
    const result = await gateway.verifyCard({
      customerId,
      paymentMethodId: card.paymentMethodId,
      idempotencyKey: `card-change:${change.id}:verify`,
      currency: CURRENCY,
      returnPath: `/homepage/billing?card=${change.id}`,
    });
    return settleCard({ ...change, payment_method: card }, result, now);
  }

  const service = {
    /** The billing page: plan, trial days left (the banner's figure), seats, subscription, details and prices. */
    async overview(actor: Actor, now = clock()): Promise<BillingView> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const workspace = await workspaceRow(workspaceId);
      const [seats, sub, details] = await Promise.all([
        seatUsage(db, workspace, mode),
        repo.findSubscription(db, workspaceId),
        repo.findDetails(db, workspaceId),
      ]);
      const daysLeft = trialDaysLeft(workspace.trial_ends_at, now);
      return {
        plan: workspace.plan,
        effectivePlan: effectivePlan(workspace.plan, workspace.trial_ends_at, now),
        isTrial: workspace.plan === 'free' && daysLeft > 0,
        trialDaysLeft: daysLeft,
        trialEndsAt: workspace.trial_ends_at ? new Date(workspace.trial_ends_at).toISOString() : null,
        licenses: workspace.licenses,
        seats,
        subscription: sub && sub.status !== 'none' ? presentSubscription(sub) : null,
        details: details ? presentDetails(details) : null,
        prices: PLAN_IDS.map((plan) => ({
          plan,
          name: PLANS[plan].name,
          monthlyCents: PLANS[plan].pricePerLicenseCents?.monthly ?? null,
          annualCents: PLANS[plan].pricePerLicenseCents?.annual ?? null,
        })),
        currency: CURRENCY,
        sellerCountry: seller.country,
        payments: { gateway: gateway.name, publishableKey: gateway.clientConfig().publishableKey ?? null },
      };
    },

    /**
     * What buying the terms would cost now: the period's price, and from a paid subscription the
     * prorated lines of an immediate change (or nothing, for a change at the period's end), with
     * VAT by the saved billing details. 422 for licenses outside 1..999 or below the members in
     * use, and for Enterprise.
     */
    async quote(actor: Actor, body: QuoteBody, now = clock()): Promise<BillingQuoteView> {
      assertCan(actor, 'billing:manage');
      assertSelling();
      const workspaceId = actor.membership.workspace.id;
      const { billingAddress, ...terms } = body;
      const { price, change, lines } = await priceChange(workspaceId, terms, now);
      // The address being typed wins over the saved one: the checkout saves it before it charges,
      // so the same VAT rule on the same address prices both.
      const details = billingAddress ? null : await repo.findDetails(db, workspaceId);
      const buyer = billingAddress
        ? {
            country: billingAddress.country,
            isBusiness: billingAddress.isBusiness,
            vatId: billingAddress.vatId || null,
          }
        : details
          ? buyerOf(presentDetails(details))
          : null;
      const tax = buyer ? taxOf(buyer) : null;
      const totals = invoiceTotals(lines, tax ?? { ratePercentBasisPoints: 0 });
      return {
        ...terms,
        pricePerLicenseCents: price.pricePerLicenseCents,
        subtotalCents: price.subtotalCents,
        timing: change.timing,
        effectiveOn: change.effectiveOn,
        period: { start: change.period.start, end: change.period.end },
        lines,
        tax: tax ? taxView(tax) : null,
        taxCountry: buyer?.country ?? null,
        ...totals,
        currency: CURRENCY,
      };
    },

    /** Saves the buyer's details for future invoices (issued ones keep theirs). */
    async saveDetails(actor: Actor, details: BillingDetails) {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        await repo.upsertDetails(tx, {
          workspace_id: workspaceId,
          name: details.name,
          invoice_email: details.invoiceEmail,
          address: details.address,
          city: details.city,
          postal_code: details.postalCode,
          country: details.country,
          vat_id: details.vatId,
          is_business: details.isBusiness,
          updated_by_user_id: actor.userId,
        });
        await audit(tx, { action: 'billing.details_updated', actorUserId: actor.userId, workspaceId });
      });
      const saved = await repo.findDetails(db, workspaceId);
      if (!saved) throw notFound();
      return presentDetails(saved);
    },

    /**
     * Buys or changes the subscription, once per Idempotency-Key (required; the same key with
     * another body is 422 `idempotency_key_reused`). An immediate change is charged on the card
     * of `paymentToken` (saved for renewals) or the saved card, with the gateway key
     * `checkout:<attempt id>`: a retry, even after a crash mid-charge, charges once. Answers
     * 200 `succeeded` with the paid invoice, 200 `scheduled` for a change at the period's end
     * (nothing charged), 202 `requires_action` with the second step's URL, or throws 402
     * `payment_declined` (nothing charged, nothing changed). 422 without billing details.
     */
    async checkout(
      actor: Actor,
      body: CheckoutBody,
      key: string | undefined,
      now = clock(),
    ): Promise<{ status: number; body: CheckoutView }> {
      assertCan(actor, 'billing:manage');
      assertSelling();
      const workspaceId = actor.membership.workspace.id;
      if (!key) throw validationError({ 'idempotency-key': m.keyRequired });
      if (key.length > MAX_KEY_LENGTH) throw validationError({ 'idempotency-key': m.keyTooLong });
      if (key.startsWith('renewal:')) throw validationError({ 'idempotency-key': m.keyReserved });
      const requestHash = hashSecret(JSON.stringify([body.plan, body.cycle, body.licenses, body.paymentToken ?? null]));
      const resumeExisting = async () => {
        const existing = await repo.findAttemptByKey(db, workspaceId, key);
        if (!existing) return undefined;
        if (existing.request_hash !== requestHash)
          throw new AppError('idempotency_key_reused', m.keyReused, { status: 422 });
        return resume(actor, existing, body.paymentToken, now);
      };
      const replay = await resumeExisting();
      if (replay) return replay;

      if (body.plan === 'free') throw validationError({ plan: m.freeByCheckout });
      const detailsRow = await repo.findDetails(db, workspaceId);
      if (!detailsRow) throw new AppError('billing_details_required', m.detailsRequired, { status: 422 });
      const terms = { plan: body.plan, cycle: body.cycle, licenses: body.licenses };
      const { change, sub, lines } = await priceChange(workspaceId, terms, now);
      if (change.timing === 'none') throw new AppError('nothing_to_change', m.nothingToChange, { status: 409 });
      const base = {
        workspace_id: workspaceId,
        user_id: actor.userId,
        idempotency_key: key,
        request_hash: requestHash,
      };

      // What the quote was priced on: a claim made after it changed throws, which rolls it back (see below).
      const priced = JSON.stringify(currentOf(sub));
      const assertStillPriced = async (tx: Db) => {
        if (JSON.stringify(currentOf(await repo.findSubscription(tx, workspaceId, { lock: true }))) !== priced)
          throw new AppError('checkout_in_progress', m.checkoutJustEnded, { status: 409 });
      };

      if (change.timing === 'period_end') {
        const id = newId();
        const claimed = await db.transaction().execute(async (tx) => {
          const inserted = await repo.insertAttempt(tx, {
            ...base,
            id,
            terms: JSON.stringify(terms),
            quote: JSON.stringify({ effectiveOn: change.effectiveOn }),
            status: 'succeeded',
            charge_id: null,
            next_action_url: null,
            decline_message: null,
            invoice_id: null,
          });
          if (!inserted) return false;
          await assertStillPriced(tx);
          await repo.saveSubscription(tx, workspaceId, {
            cancel_at_period_end: false,
            scheduled_plan: terms.plan,
            scheduled_cycle: terms.cycle,
            scheduled_licenses: terms.licenses,
          });
          await audit(tx, {
            action: 'subscription.change_scheduled',
            actorUserId: actor.userId,
            workspaceId,
            detail: { ...terms, effectiveOn: change.effectiveOn },
          });
          await notify(tx, workspaceId, `plan-changed:${id}`, (name) =>
            billingMails.planChanged({
              workspace: name,
              what: `${name} moves to ${billingMails.termsText(terms)} on ${change.effectiveOn}, at the end of the paid period.`,
              link: billingLink,
            }),
          );
          return true;
        });
        if (!claimed) return (await resumeExisting()) ?? answerOf({ id } as CheckoutAttemptRow);
        return { status: 200, body: { status: 'scheduled', checkoutId: id, effectiveOn: change.effectiveOn } };
      }

      const buyer = buyerOf(presentDetails(detailsRow));
      const tax = taxOf(buyer);
      const totals = invoiceTotals(lines, tax);
      const savedCard = sub ? savedCardOf(sub) : null;
      if (!body.paymentToken && !savedCard) throw validationError({ paymentToken: m.cardRequired });
      const frozen: FrozenQuote = {
        terms,
        lines,
        tax,
        ...totals,
        period: { start: change.period.start, end: change.period.end, anchorDay: change.period.anchorDay },
        buyer,
        savedCard,
      };
      // Two purchases priced from the same subscription would both be charged in full: the
      // database keeps one open checkout per workspace, and this claim takes it or finds it taken.
      const id = newId();
      const since = Date.now();
      const claimed = await db.transaction().execute(async (tx) => {
        const inserted = await repo.claimCheckout(
          tx,
          {
            ...base,
            id,
            ...pendingAttempt(frozen),
          },
          { pending: new Date(since - PENDING_CHECKOUT_MS), waiting: new Date(since - WAITING_CHECKOUT_MS) },
        );
        // The subscription read after the claim (a new statement sees what committed meanwhile): a
        // checkout that completed between this one's pricing and its claim left no open attempt to
        // collide with, and this quote would charge the same purchase again (a CI run caught it).
        if (inserted) await assertStillPriced(tx);
        return inserted;
      });
      if (claimed)
        return track(id, async () => {
          const attempt = await repo.findAttempt(db, workspaceId, id);
          if (!attempt) throw notFound('Checkout not found.');
          return pay(attempt, { paymentToken: body.paymentToken, email: actor.user.email, offSession: false }, now);
        });
      // This very request sent twice at once, or another tab's purchase.
      const again = await resumeExisting();
      if (again) return again;
      const open = await repo.findOpenCheckout(db, workspaceId);
      if (!open) throw new AppError('checkout_in_progress', m.checkoutJustEnded, { status: 409 });
      const openQuote = open.quote as FrozenQuote;
      // The same purchase from another tab: answer the one under way rather than charge again. A
      // different one waits: the open one may be charged at any moment (its bank step is the customer's).
      if (!sameTerms(openQuote.terms, terms) || openQuote.grossCents !== frozen.grossCents)
        throw new AppError('checkout_in_progress', m.checkoutInProgress, { status: 409 });
      return inFlight.get(open.id) ?? answerOf(open);
    },

    /**
     * After the second step: asks the gateway how the charge ended and completes the checkout
     * (or answers 402, or 202 while it waits). Does nothing twice: the gateway's event may have
     * completed it first.
     */
    async confirm(actor: Actor, checkoutId: string, now = clock()): Promise<{ status: number; body: CheckoutView }> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const attempt = await repo.findAttempt(db, workspaceId, checkoutId);
      if (!attempt) throw notFound('Checkout not found.');
      if (attempt.status !== 'requires_action' || !attempt.charge_id) return resume(actor, attempt, undefined, now);
      return settle(workspaceId, attempt.id, await gateway.confirmCharge(attempt.charge_id), now);
    },

    /** Ends the paid plan at the period's end (Free from then on); a scheduled change is dropped. */
    async cancel(actor: Actor, now = clock()): Promise<BillingView> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const sub = await repo.findSubscription(tx, workspaceId, { lock: true });
        if (!isPaid(sub)) throw new AppError('no_subscription', m.noSubscription, { status: 409 });
        if (sub.cancel_at_period_end) return;
        await repo.saveSubscription(tx, workspaceId, {
          cancel_at_period_end: true,
          scheduled_plan: null,
          scheduled_cycle: null,
          scheduled_licenses: null,
        });
        await audit(tx, {
          action: 'subscription.canceled',
          actorUserId: actor.userId,
          workspaceId,
          detail: { endsOn: sub.period_end },
        });
        await notify(tx, workspaceId, `plan-changed:${newId()}`, (name) =>
          billingMails.planChanged({
            workspace: name,
            what: `The subscription of ${name} is canceled: it ends on ${sub.period_end}, then the workspace is on the Free plan with all its data kept.`,
            link: billingLink,
          }),
        );
      });
      return this.overview(actor, now);
    },

    /**
     * "Change plan to free": a paid plan ends at the period's end (as cancel); a running trial
     * that bought nothing ends now, so the workspace is on Free with Free's limits at once (data
     * kept). On Free already it changes nothing, so a retry answers the same.
     */
    async changeToFree(actor: Actor, now = clock()): Promise<BillingView> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const sub = await repo.findSubscription(db, workspaceId);
      if (isPaid(sub)) return this.cancel(actor, now);
      await db.transaction().execute(async (tx) => {
        if (!(await workspaces.endTrial(tx, workspaceId, now))) return;
        await audit(tx, { action: 'subscription.trial_ended', actorUserId: actor.userId, workspaceId });
        await notify(tx, workspaceId, `plan-changed:${newId()}`, (name) =>
          billingMails.planChanged({
            workspace: name,
            what: `The Pro trial of ${name} has ended early: the workspace is on the Free plan now, with all its data kept.`,
            link: subscriptionLink,
          }),
        );
      });
      return this.overview(actor, now);
    },

    /** Keeps a subscription that was set to end, before its period ends. */
    async reactivate(actor: Actor, now = clock()): Promise<BillingView> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const sub = await repo.findSubscription(tx, workspaceId, { lock: true });
        if (!isPaid(sub)) throw new AppError('no_subscription', m.noSubscription, { status: 409 });
        if (today(now) >= sub.period_end) throw new AppError('period_over', m.periodOver, { status: 409 });
        if (!sub.cancel_at_period_end) throw new AppError('not_canceled', m.notCanceled, { status: 409 });
        await repo.saveSubscription(tx, workspaceId, { cancel_at_period_end: false });
        await audit(tx, { action: 'subscription.reactivated', actorUserId: actor.userId, workspaceId });
        await notify(tx, workspaceId, `plan-changed:${newId()}`, (name) =>
          billingMails.planChanged({
            workspace: name,
            what: `The subscription of ${name} continues: ${billingMails.termsText(termsOf(sub))}, renewing on ${sub.period_end}.`,
            link: subscriptionLink,
          }),
        );
      });
      return this.overview(actor, now);
    },

    /**
     * The renewals job's seam (the job, its retries and e-mails are a later slice): at or after the
     * period's end, a subscription set to end ends (the workspace drops to Free, data kept); any
     * other is charged off-session on the saved card for the next period, at the scheduled terms
     * or the current ones, once per period (attempt key `renewal:<period end>`), and completes as
     * a checkout does. A decline or a second step leaves it `past_due` for dunning.
     */
    async renew(
      workspaceId: string,
      now = clock(),
      /** 0 for the renewal at the period's end, 1 to 5 for dunning's retries: each charges once. */
      retry = 0,
    ): Promise<{ status: 'not_due' | 'ended' | 'renewed' | 'requires_action' | 'declined'; checkoutId?: string }> {
      const sub = await repo.findSubscription(db, workspaceId);
      if (!isPaid(sub) || today(now) < sub.period_end) return { status: 'not_due' };
      if (sub.cancel_at_period_end || sub.scheduled_plan === 'free') {
        await db.transaction().execute(async (tx) => {
          const locked = await repo.findSubscription(tx, workspaceId, { lock: true });
          if (!isPaid(locked) || today(now) < locked.period_end) return;
          await repo.saveSubscription(tx, workspaceId, {
            status: 'canceled',
            cancel_at_period_end: false,
            scheduled_plan: null,
            scheduled_cycle: null,
            scheduled_licenses: null,
          });
          await workspaces.setPlan(tx, workspaceId, { plan: 'free', licenses: locked.licenses });
          await audit(tx, { action: 'subscription.ended', workspaceId, detail: { endedOn: locked.period_end } });
          await notify(tx, workspaceId, `ended:${locked.period_end}`, (name) =>
            billingMails.planChanged({
              workspace: name,
              what: `The subscription of ${name} ended on ${locked.period_end}: the workspace is on the Free plan now, with all its data kept.`,
              link: billingLink,
            }),
          );
        });
        return { status: 'ended' };
      }
      const terms: SubscriptionTerms =
        sub.scheduled_plan && sub.scheduled_cycle && sub.scheduled_licenses
          ? { plan: sub.scheduled_plan, cycle: sub.scheduled_cycle, licenses: sub.scheduled_licenses }
          : termsOf(sub);
      const next = billingPeriod({ start: sub.period_end, cycle: terms.cycle, anchorDay: sub.anchor_day ?? undefined });
      const price = priced(terms);
      const lines: QuoteLine[] = [
        {
          kind: 'charge',
          description: `${planName(terms)}, ${terms.cycle}, ${licensesText(terms.licenses)}, ${next.start} to ${next.end}`,
          quantity: terms.licenses,
          unitCents: price.pricePerLicenseCents,
          amountCents: price.subtotalCents,
        },
      ];
      const detailsRow = await repo.findDetails(db, workspaceId);
      if (!detailsRow) throw new AppError('billing_details_required', m.detailsRequired, { status: 422 });
      const buyer = buyerOf(presentDetails(detailsRow));
      const tax = taxOf(buyer);
      const frozen: FrozenQuote = {
        terms,
        lines,
        tax,
        ...invoiceTotals(lines, tax),
        period: { start: next.start, end: next.end, anchorDay: next.anchorDay },
        buyer,
        savedCard: savedCardOf(sub),
      };
      const key = retry > 0 ? `renewal:${sub.period_end}:retry-${retry}` : `renewal:${sub.period_end}`;
      await repo.insertAttempt(db, {
        id: newId(),
        workspace_id: workspaceId,
        user_id: null,
        idempotency_key: key,
        request_hash: key,
        ...pendingAttempt(frozen),
      });
      const attempt = await repo.findAttemptByKey(db, workspaceId, key);
      if (!attempt) throw notFound('Checkout not found.');
      try {
        const answer =
          attempt.status === 'pending'
            ? await pay(attempt, { email: buyer.invoiceEmail ?? '', offSession: true }, now)
            : await answerOf(attempt);
        if (answer.status === 200) return { status: 'renewed', checkoutId: attempt.id };
        await repo.saveSubscription(db, workspaceId, { status: 'past_due' });
        return { status: 'requires_action', checkoutId: attempt.id };
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'payment_declined')) throw error;
        await repo.saveSubscription(db, workspaceId, { status: 'past_due' });
        return { status: 'declined', checkoutId: attempt.id };
      }
    },

    /**
     * Replaces the saved card with the one of `paymentToken` (owners and admins): attached
     * off-session for renewals and verified with the $1.00 authorisation, voided at once. 200
     * `saved`, 202 `requires_action` (the bank's second step; then POST …/payment-method/<id>/confirm),
     * or 402 `payment_declined` (the saved card stays). The same token answers the same change again.
     * A past-due workspace's open renewal is charged on the new card at once (`renewal`).
     */
    async replaceCard(actor: Actor, body: PaymentMethodBody, now = clock()) {
      assertCan(actor, 'billing:manage');
      assertSelling();
      const workspaceId = actor.membership.workspace.id;
      const sub = await repo.findSubscription(db, workspaceId);
      if (!isPaid(sub) || !sub.gateway_customer_id)
        throw new AppError('no_subscription', m.noSubscription, { status: 409 });
      const customerId = sub.gateway_customer_id;
      await repo.insertCardChange(db, {
        id: newId(),
        workspace_id: workspaceId,
        user_id: actor.userId,
        token: body.paymentToken,
      });
      const change = await repo.findCardChange(db, workspaceId, { token: body.paymentToken });
      if (!change) throw notFound('Card change not found.');
      if (change.status !== 'pending') return cardAnswer(change);
      const running = cardsInFlight.get(change.id);
      if (running) return running;
      const work = attachCard(change, customerId, now).finally(() => cardsInFlight.delete(change.id));
      cardsInFlight.set(change.id, work);
      return work;
    },

    /** After the card's second step: saves it if the bank said yes (200), 202 while it waits, 402 if not. */
    async confirmCard(actor: Actor, changeId: string, now = clock()) {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const change = await repo.findCardChange(db, workspaceId, { id: changeId });
      if (!change) throw notFound('Card change not found.');
      if (change.status !== 'requires_action' || !change.authorisation_id) return cardAnswer(change);
      return settleCard(change, await gateway.confirmVerification(change.authorisation_id), now);
    },

    /** Invoices and credit notes, newest first. */
    async invoices(actor: Actor): Promise<{ items: InvoiceView[] }> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const rows = await repo.listInvoices(db, workspaceId);
      const ids = rows.map((row) => row.id);
      const [lines, credited] = await Promise.all([repo.linesOf(db, ids), repo.creditedOf(db, workspaceId, ids)]);
      return { items: rows.map((row) => presentInvoice(row, lines.get(row.id) ?? [], credited.get(row.id) ?? 0)) };
    },

    /** The invoice as an A4 PDF, and its file name. */
    async invoicePdf(actor: Actor, invoiceId: string): Promise<{ fileName: string; pdf: Buffer }> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const row = await findOwnInvoice(workspaceId, invoiceId);
      const lines = (await repo.linesOf(db, [row.id])).get(row.id) ?? [];
      const credited = row.credited_invoice_id
        ? await repo.findInvoice(db, workspaceId, row.credited_invoice_id)
        : undefined;
      return {
        fileName: `${row.number}.pdf`,
        pdf: await writeInvoicePdf(row, lines, credited?.number ?? null, clockFormatOf(actor.user)),
      };
    },

    /**
     * A credit note on a paid invoice for `amountCents` gross (all that is left when left out),
     * refunded through the gateway: never more than is left to credit (422), numbered in the same
     * series. A retry of the same credit refunds once (the gateway key names the invoice, what was
     * credited before and the amount).
     */
    async creditNote(actor: Actor, invoiceId: string, body: CreditNoteBody, now = clock()): Promise<InvoiceView> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const invoice = await findOwnInvoice(workspaceId, invoiceId);
      if (invoice.kind === 'credit_note') throw new AppError('not_creditable', m.creditOfCredit, { status: 422 });
      if (invoice.status !== 'paid' || !invoice.charge_id)
        throw new AppError('not_creditable', m.notCreditable, { status: 409 });
      const creditedBefore = (await repo.creditedOf(db, workspaceId, [invoiceId])).get(invoiceId) ?? 0;
      const left = invoice.gross_cents - creditedBefore;
      if (left <= 0) throw new AppError('fully_credited', m.fullyCredited, { status: 409 });
      const amount = body.amountCents ?? left;
      if (amount > left) throw validationError({ amountCents: m.creditTooLarge(left) });
      const refund = await gateway.refund({
        chargeId: invoice.charge_id,
        amountCents: amount,
        idempotencyKey: `invoice:${invoiceId}:credit:${creditedBefore}:${amount}`,
        reason: body.reason,
      });
      const key = `refund:${refund.refundId}`;
      const creditId = await db.transaction().execute(async (tx) => {
        await repo.findInvoice(tx, workspaceId, invoiceId, { lock: true });
        const done = await repo.findInvoiceByKey(tx, workspaceId, key);
        if (done) return done.id;
        const vat = roundedShare(amount, invoice.tax_rate_basis_points, 10_000 + invoice.tax_rate_basis_points);
        const net = amount - vat;
        const id = await issue(tx, {
          workspaceId,
          kind: 'credit_note',
          creditedInvoiceId: invoiceId,
          terms: { plan: invoice.plan, cycle: invoice.cycle, licenses: invoice.licenses },
          period:
            invoice.period_start && invoice.period_end
              ? { start: invoice.period_start, end: invoice.period_end }
              : null,
          seller: invoice.seller,
          buyer: invoice.buyer,
          tax: {
            kind: invoice.tax_kind,
            ratePercentBasisPoints: invoice.tax_rate_basis_points,
            note: invoice.tax_note,
          },
          totals: { netCents: -net, vatCents: -vat, grossCents: -amount },
          lines: [
            {
              description: `Credit on invoice ${invoice.number}: ${body.reason}`,
              quantity: 1,
              unitCents: -net,
              amountCents: -net,
            },
          ],
          chargeId: refund.refundId,
          idempotencyKey: key,
          reason: body.reason,
          now,
        });
        await audit(tx, {
          action: 'invoice.credited',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: invoiceId,
          detail: { creditNoteId: id, grossCents: amount },
        });
        return id;
      });
      return invoiceView(db, workspaceId, await findOwnInvoice(workspaceId, creditId));
    },

    /**
     * One workspace's due renewal and its dunning: renews at the period's end (the receipt is
     * mailed as the checkout completes) or tries a past-due one again. A failure e-mails the
     * owners and plans the next try on days 1, 3, 5, 7 and 14 after the period's end; after the
     * last one the workspace drops to Free, data kept. Each try charges once and mails once,
     * however often the job runs (the try's number is in its checkout key and compared on write).
     */
    async renewOrRetry(workspaceId: string, now = clock()): Promise<string> {
      const sub = await repo.findSubscription(db, workspaceId);
      if (!isPaid(sub)) return 'not_due';
      const tried = sub.status === 'past_due' ? sub.dunning_attempts : 0;
      if (sub.status === 'past_due' && sub.next_retry_at && new Date(sub.next_retry_at) > now) return 'not_due';
      const result = await service.renew(workspaceId, now, tried);
      if (result.status !== 'declined' && result.status !== 'requires_action') return result.status;
      const attempt = result.checkoutId ? await repo.findAttempt(db, workspaceId, result.checkoutId) : undefined;
      const frozen = attempt?.quote as FrozenQuote | undefined;
      const nextDays = RENEWAL_RETRY_DAYS[tried];
      const nextTry =
        nextDays === undefined ? null : new Date(Date.parse(`${sub.period_end}T00:00:00Z`) + nextDays * DAY_MS);
      const needsConfirmation = result.status === 'requires_action' && !!attempt?.next_action_url;
      await db.transaction().execute(async (tx) => {
        if (!(await repo.recordRetry(tx, workspaceId, { from: tried, to: tried + 1, nextRetryAt: nextTry }))) return;
        await notify(tx, workspaceId, `payment-failed:${sub.period_end}:${tried}`, (name) =>
          billingMails.paymentFailed({
            workspace: name,
            grossCents: frozen?.grossCents ?? 0,
            currency: CURRENCY,
            reason: needsConfirmation
              ? 'your bank asks you to confirm this payment.'
              : (attempt?.decline_message ?? 'your card was declined.'),
            nextTry,
            link: needsConfirmation && attempt?.next_action_url ? attempt.next_action_url : replaceCardLink,
            needsConfirmation,
          }),
        );
        if (nextTry) return;
        await repo.saveSubscription(tx, workspaceId, {
          status: 'canceled',
          cancel_at_period_end: false,
          scheduled_plan: null,
          scheduled_cycle: null,
          scheduled_licenses: null,
          next_retry_at: null,
        });
        await workspaces.setPlan(tx, workspaceId, { plan: 'free', licenses: sub.licenses });
        await audit(tx, { action: 'subscription.ended', workspaceId, detail: { unpaidSince: sub.period_end } });
        await notify(tx, workspaceId, `dropped:${sub.period_end}`, (name) =>
          billingMails.droppedToFree({ workspace: name, link: billingLink }),
        );
      });
      return nextTry ? result.status : 'dropped';
    },

    /**
     * The renewals job: every due renewal and retry, one workspace after another, each in its own
     * transactions. One workspace's trouble (a card the gateway no longer knows, billing details
     * gone, the gateway down) is logged and recorded on its subscription (`renewal_error`), and
     * the others go on; it is still due, so the next hourly run tries it again. The job itself
     * succeeds. Answers how many workspaces failed.
     */
    async runRenewals(now = clock()): Promise<{ due: number; failed: number }> {
      if (!mode.billing) return { due: 0, failed: 0 };
      const due = await repo.dueRenewals(db, now, JOB_BATCH);
      let failed = 0;
      for (const workspaceId of due) {
        try {
          await service.renewOrRetry(workspaceId, now);
          await repo.recordRenewalError(db, workspaceId, null, now);
        } catch (error) {
          failed += 1;
          log?.error({ err: error, workspaceId }, 'billing renewal failed; it is tried again on the next run');
          const message =
            error instanceof AppError
              ? `${error.code}: ${error.message}`
              : error instanceof Error
                ? error.message
                : String(error);
          await repo
            .recordRenewalError(db, workspaceId, message, now)
            .catch((recordError: unknown) => log?.error({ err: recordError, workspaceId }, 'recording it failed too'));
        }
      }
      return { due: due.length, failed };
    },

    /** The trial reminders job: "Your trial ends in 3 days", once per workspace without a paid subscription. */
    async remindTrials(now = clock()): Promise<number> {
      if (!mode.billing) return 0;
      const ending = await repo.trialsEnding(db, now, new Date(now.getTime() + 3 * DAY_MS), JOB_BATCH);
      for (const workspace of ending)
        await db.transaction().execute((tx) =>
          notify(tx, workspace.id, 'trial-ending', (name) =>
            billingMails.trialEnding({
              workspace: name,
              endsAt: new Date(workspace.trial_ends_at ?? now),
              link: billingLink,
            }),
          ),
        );
      return ending.length;
    },

    /** The receipt of a paid invoice (a renewal's or a checkout's), its PDF attached, to the owners and the invoice e-mail. */
    async sendReceipt(workspaceId: string, invoiceId: string, renewal = true): Promise<void> {
      const row = await repo.findInvoice(db, workspaceId, invoiceId);
      if (!row) return;
      const lines = (await repo.linesOf(db, [row.id])).get(row.id) ?? [];
      const { name, to } = await repo.mailTargets(db, workspaceId);
      if (to.length === 0) return;
      const mail = billingMails.receipt({
        workspace: name,
        renewal,
        number: row.number,
        grossCents: row.gross_cents,
        currency: row.currency,
        terms: { plan: row.plan, cycle: row.cycle, licenses: row.licenses },
        period: { start: row.period_start ?? '', end: row.period_end ?? '' },
        link: `${publicUrl}/homepage/invoice?invoice=${row.id}`,
      });
      await mailer.sendNow({
        to,
        ...mail,
        attachments: [
          {
            filename: `${row.number}.pdf`,
            contentType: 'application/pdf',
            content: await writeInvoicePdf(row, lines, null),
          },
        ],
      });
    },

    /** Declares the hourly renewals and trial reminders, and the receipts' job, on the job runner. */
    registerJobs(): void {
      jobs.register(
        billingReceiptJob,
        ({ workspaceId, invoiceId, renewal }) => service.sendReceipt(workspaceId, invoiceId, renewal),
        {
          maxAttempts: 8,
          backoffMs: 30_000,
          maxBackoffMs: 32 * 60_000,
        },
      );
      jobs.register(billingRenewalsJob, async (_payload, { now }) => {
        await service.runRenewals(now);
      });
      jobs.schedule(billingRenewalsJob, '5 * * * *', {});
      jobs.register(billingTrialRemindersJob, async (_payload, { now }) => {
        await service.remindTrials(now);
      });
      jobs.schedule(billingTrialRemindersJob, '35 * * * *', {});
    },
  };
  return service;
}

export type BillingService = ReturnType<typeof createBillingService>;
