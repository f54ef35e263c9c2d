import { billingPeriod, invoiceTotals, type SubscriptionTerms } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { CheckoutAttempts } from './billing.attempts.js';
import { billingMails } from './billing.mails.js';
import { presentDetails, type QuoteLine } from './billing.presenter.js';
import { billingRepository as repo } from './billing.repository.js';
import {
  type BillingContext,
  buyerOf,
  CURRENCY,
  DAY_MS,
  type FrozenQuote,
  isPaid,
  JOB_BATCH,
  licensesText,
  m,
  pendingAttempt,
  planName,
  priced,
  RENEWAL_RETRY_DAYS,
  savedCardOf,
  termsOf,
  today,
} from './billing.shared.js';

/** Renewals at the period's end, dunning's retries, and the trial reminders. */
export function createRenewals(ctx: BillingContext, attempts: CheckoutAttempts) {
  const { db, workspaces, log, mode, clock, notify, billingLink, replaceCardLink, taxOf } = ctx;

  /** The subscription ends (nothing scheduled is left) and the workspace is on Free, keeping its licenses. */
  async function endOnFree(tx: Db, workspaceId: string, licenses: number, more: { next_retry_at?: null } = {}) {
    await repo.saveSubscription(tx, workspaceId, {
      status: 'canceled',
      cancel_at_period_end: false,
      scheduled_plan: null,
      scheduled_cycle: null,
      scheduled_licenses: null,
      ...more,
    });
    await workspaces.setPlan(tx, workspaceId, { plan: 'free', licenses });
  }
  const { answerOf, pay } = attempts;
  const renewals = {
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
          await endOnFree(tx, workspaceId, locked.licenses);
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
      const result = await renewals.renew(workspaceId, now, tried);
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
        await endOnFree(tx, workspaceId, sub.licenses, { next_retry_at: null });
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
          await renewals.renewOrRetry(workspaceId, now);
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
  };
  return renewals;
}

export type BillingRenewals = ReturnType<typeof createRenewals>;
