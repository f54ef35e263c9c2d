import {
  type BillingDetails,
  type BillingQuoteView,
  type BillingView,
  effectivePlan,
  invoiceTotals,
  PLAN_IDS,
  PLANS,
  type QuoteBody,
  trialDaysLeft,
} from '@sundial/core';
import { assertCan, seatUsage } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { billingMails } from './billing.mails.js';
import { presentDetails, presentSubscription, taxView } from './billing.presenter.js';
import { billingRepository as repo } from './billing.repository.js';
import { type BillingContext, buyerOf, CURRENCY, isPaid, m, termsOf, today } from './billing.shared.js';

/** The billing page, quotes and details, and the plan's end: cancel, change to Free, reactivate. */
export function createSubscription(ctx: BillingContext) {
  const {
    db,
    workspaces,
    mode,
    seller,
    clock,
    gateway,
    assertSelling,
    notify,
    billingLink,
    subscriptionLink,
    taxOf,
    priceChange,
    workspaceRow,
  } = ctx;
  const subscription = {
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
      return subscription.overview(actor, now);
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
      if (isPaid(sub)) return subscription.cancel(actor, now);
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
      return subscription.overview(actor, now);
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
      return subscription.overview(actor, now);
    },
  };
  return subscription;
}
