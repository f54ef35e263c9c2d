import { createCheckoutAttempts } from './billing.attempts.js';
import { createCardChanges } from './billing.card.js';
import { createCheckout } from './billing.checkout.js';
import { createInvoices } from './billing.invoices.js';
import { createRenewals } from './billing.renewals.js';
import {
  type BillingDeps,
  billingReceiptJob,
  billingRenewalsJob,
  billingTrialRemindersJob,
  createBillingContext,
} from './billing.shared.js';
import { createSubscription } from './billing.subscription.js';

export {
  type BillingDeps,
  billingReceiptJob,
  billingRenewalsJob,
  billingServiceMessages,
  billingTrialRemindersJob,
  RENEWAL_RETRY_DAYS,
} from './billing.shared.js';

/**
 * Subscription billing (docs/architecture.md, "Billing"): the billing page's view, quotes,
 * billing details, checkout with the payment gateway (idempotent per Idempotency-Key, completed
 * by the browser's confirm or the gateway's event, whichever comes first), cancel and reactivate,
 * invoices with gapless numbers, their PDF, and credit notes. Money reads and writes need
 * `billing:manage` (owners and admins).
 */
export function createBillingService(deps: BillingDeps) {
  const ctx = createBillingContext(deps);
  const { jobs } = ctx;
  const attempts = createCheckoutAttempts(ctx);
  const renewals = createRenewals(ctx, attempts);
  const invoices = createInvoices(ctx);
  const service = {
    ...createSubscription(ctx),
    ...createCheckout(ctx, attempts),
    ...createCardChanges(ctx, renewals.renew),
    ...renewals,
    ...invoices,
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
