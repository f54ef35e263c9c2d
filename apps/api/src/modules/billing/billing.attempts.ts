import type { CheckoutView } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import type { PaymentMethod } from '../../platform/payments/index.js';
import { billingMails } from './billing.mails.js';
import {
  type AttemptRow,
  attachCard,
  declined,
  inFlightAttempts,
  isOpen,
  unfinishedColumns,
} from './billing.payment-attempt.js';
import { type CheckoutAttemptRow, billingRepository as repo } from './billing.repository.js';
import {
  type BillingContext,
  billingReceiptJob,
  CURRENCY,
  type FrozenQuote,
  isPaid,
  licensesText,
  m,
  type PaidCharge,
  planName,
  returnPathOf,
  savedCardOf,
} from './billing.shared.js';

/**
 * A checkout attempt from claim to end: paid on the gateway outside any transaction of ours,
 * settled from the gateway's answer, completed once (by the browser's confirm or the gateway's
 * event, whichever comes first).
 */
export function createCheckoutAttempts(ctx: BillingContext) {
  const { db, payments, workspaces, jobs, publicUrl, log, clock, gateway, sellerSnapshot, notify, invoiceView, issue } =
    ctx;
  /** Checkouts being worked on in this process: a concurrent retry waits for the same answer. */
  const inFlight = inFlightAttempts<{ status: number; body: CheckoutView }>();

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
        if (!attempt || !isOpen(attempt.status)) return;
        await repo.updateAttempt(tx, workspaceId, attemptId, {
          charge_id: result.chargeId,
          ...unfinishedColumns(result),
        });
      });
    const attempt = await repo.findAttempt(db, workspaceId, attemptId);
    if (!attempt) throw notFound('Checkout not found.');
    return answerOf(attempt);
  }

  /** A checkout attempt's row, as the card's attach step writes it. */
  const rowOf = (attempt: CheckoutAttemptRow): AttemptRow => ({
    recordDecline: (message) =>
      repo.updateAttempt(db, attempt.workspace_id, attempt.id, { status: 'declined', decline_message: message }),
    recordCard: (card) =>
      repo.updateAttempt(db, attempt.workspace_id, attempt.id, { payment_method: JSON.stringify(card) }),
    forget: () => repo.deleteAttempt(db, attempt.workspace_id, attempt.id),
  });

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
      card = await attachCard(gateway, rowOf(attempt), { customerId, token: paymentToken });
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
  const track = inFlight.track;

  /** Works on a pending attempt once per process at a time; other states answer as they stand. */
  function resume(actor: Actor, attempt: CheckoutAttemptRow, paymentToken: string | undefined, now: Date) {
    if (attempt.status !== 'pending') return answerOf(attempt);
    return track(attempt.id, () => pay(attempt, { paymentToken, email: actor.user.email, offSession: false }, now));
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
    if (attempt && isOpen(attempt.status))
      await repo.updateAttempt(tx, found.workspace_id, found.id, {
        status: 'declined',
        decline_message: event.data.message,
        next_action_url: null,
      });
  });

  return { inFlight, complete, answerOf, settle, pay, track, resume };
}

export type CheckoutAttempts = ReturnType<typeof createCheckoutAttempts>;
