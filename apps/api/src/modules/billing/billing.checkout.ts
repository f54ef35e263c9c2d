import { type CheckoutBody, type CheckoutView, invoiceTotals } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { hashSecret, newId } from '../../platform/ids.js';
import type { CheckoutAttempts } from './billing.attempts.js';
import { billingMails } from './billing.mails.js';
import { presentDetails } from './billing.presenter.js';
import { type CheckoutAttemptRow, billingRepository as repo } from './billing.repository.js';
import {
  type BillingContext,
  buyerOf,
  currentOf,
  type FrozenQuote,
  MAX_KEY_LENGTH,
  m,
  PENDING_CHECKOUT_MS,
  pendingAttempt,
  sameTerms,
  savedCardOf,
  WAITING_CHECKOUT_MS,
} from './billing.shared.js';

/** Buying or changing the plan: checkout, once per Idempotency-Key, and its confirm after the bank's step. */
export function createCheckout(ctx: BillingContext, attempts: CheckoutAttempts) {
  const { db, clock, gateway, assertSelling, notify, billingLink, taxOf, priceChange } = ctx;
  const { inFlight, answerOf, pay, track, resume, settle } = attempts;
  return {
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
  };
}
