import type { CardChangeView, PaymentMethodBody } from '@sundial/core';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { PaymentMethod, VerificationResult } from '../../platform/payments/index.js';
import {
  type AttemptRow,
  attachCard,
  declined,
  inFlightAttempts,
  unfinishedColumns,
} from './billing.payment-attempt.js';
import type { BillingRenewals } from './billing.renewals.js';
import { type CardChangeRow, billingRepository as repo } from './billing.repository.js';
import { type BillingContext, CURRENCY, isPaid, m } from './billing.shared.js';

/** Replacing the saved card: attached, verified with the $1.00 authorisation, then saved. */
export function createCardChanges(ctx: BillingContext, renew: BillingRenewals['renew']) {
  const { db, clock, gateway, assertSelling } = ctx;
  /** Card changes being worked on in this process: a concurrent retry waits for the same answer. */
  const cardsInFlight = inFlightAttempts<{ status: number; body: CardChangeView }>();

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
    if (result.status !== 'voided') {
      await repo.updateCardChange(db, workspaceId, change.id, {
        authorisation_id: result.authorisationId,
        ...unfinishedColumns(result),
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
        const retried = await renew(workspaceId, now, Math.max(sub.dunning_attempts, 1));
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
  async function verify(change: CardChangeRow, customerId: string, now: Date) {
    const workspaceId = change.workspace_id;
    const row: AttemptRow = {
      recordDecline: (message) =>
        repo.updateCardChange(db, workspaceId, change.id, { status: 'declined', decline_message: message }),
      recordCard: (card) => repo.updateCardChange(db, workspaceId, change.id, { payment_method: JSON.stringify(card) }),
      forget: () => repo.deleteCardChange(db, workspaceId, change.id),
    };
    const card =
      (change.payment_method as PaymentMethod | null) ??
      (await attachCard(gateway, row, { customerId, token: change.token }));
    const result = await gateway.verifyCard({
      customerId,
      paymentMethodId: card.paymentMethodId,
      idempotencyKey: `card-change:${change.id}:verify`,
      currency: CURRENCY,
      returnPath: `/homepage/billing?card=${change.id}`,
    });
    return settleCard({ ...change, payment_method: card }, result, now);
  }

  return {
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
      return cardsInFlight.track(change.id, () => verify(change, customerId, now));
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
  };
}
