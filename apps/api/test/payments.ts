import type { FastifyInstance } from 'fastify';
import type { TestApp } from './harness.js';

/** The customer at the sandbox gateway's second step (a form post, as the browser sends it): complete or fail it. */
export function passSecondStep(app: FastifyInstance, nextActionUrl: string, outcome: 'complete' | 'fail' = 'complete') {
  return app.inject({
    method: 'POST',
    url: new URL(nextActionUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `outcome=${outcome}`,
  });
}

/**
 * Makes a card the workspace's saved one at the gateway, without `PUT …/billing/payment-method`.
 * Only for what that route cannot or should not do in a test: 4000 0000 0000 0341 (attaches, then
 * declines every charge) fails the route's $1.00 verification, as it does at Stripe, so it becomes
 * the saved card only as a card that stops paying later does; and a past-due workspace's new card
 * is charged by the route at once, where a test wants dunning's retry to pay. Any other card
 * change in a test goes through the route.
 */
export async function attachSavedCard(t: TestApp, workspaceId: string, token: string): Promise<void> {
  const sub = await t.db
    .selectFrom('subscriptions')
    .select('gateway_customer_id')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const attached = await t.app.services.payments.gateway.attachPaymentMethod({
    customerId: sub.gateway_customer_id ?? '',
    token,
    usage: 'off_session',
  });
  if (attached.status !== 'attached') throw new Error(`attach: ${attached.message}`);
  await t.db
    .updateTable('subscriptions')
    .set({ payment_method_id: attached.paymentMethod.paymentMethodId })
    .where('workspace_id', '=', workspaceId)
    .execute();
}
