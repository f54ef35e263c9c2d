import { readFileSync } from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, signUp, useLoggedTestApp } from '../../../test/harness.js';
import { type StripeServer, startStripeServer } from '../../../test/stripe-server.js';
import { ConfigError, loadConfig } from '../../config.js';
import type { PaymentEvent, PaymentGateway } from './index.js';
import { createStripeGateway, STRIPE_SIGNATURE_HEADER } from './stripe.js';

/**
 * The Stripe gateway through the PaymentGateway contract, with the official SDK talking to a
 * local server that answers as Stripe's API does (test/stripe-server.ts, stripe-fixtures/):
 * what each call sends (method, path, the fields that matter, our idempotency key), how each
 * answer maps back, events signed as Stripe signs them, and one purchase of Pro end to end
 * through the billing routes on an app configured with PAYMENTS_GATEWAY=stripe.
 */
const SECRET_KEY = 'sk_test_51SXq2LJd8w3kVf0aTestSecretKeyForTheLocalServer';
const PUBLISHABLE_KEY = 'pk_test_51SXq2LJd8w3kVf0aPublishableKeyForTests';
const WEBHOOK_SECRET = 'whsec_test_local_signing_secret_0123456789';
const FIXTURES = path.resolve(import.meta.dirname, 'stripe-fixtures');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));

let server: StripeServer;
let gateway: PaymentGateway;
const seen: PaymentEvent[] = [];

beforeAll(async () => {
  server = await startStripeServer(SECRET_KEY);
  gateway = createStripeGateway({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    publishableKey: PUBLISHABLE_KEY,
    publicUrl: 'http://localhost:3000',
    host: '127.0.0.1',
    port: server.port,
    protocol: 'http',
  }).gateway;
});
// An app on the Stripe gateway, logging every line, started once the server above listens.
const logged = useLoggedTestApp(() => ({
  LOG_LEVEL: 'trace',
  JOBS_ENABLED: 'false',
  PAYMENTS_GATEWAY: 'stripe',
  STRIPE_SECRET_KEY: SECRET_KEY,
  STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_BASE: server.base,
}));
beforeAll(() => {
  for (const type of ['charge.succeeded', 'charge.failed', 'charge.requires_action', 'refund.succeeded'] as const) {
    logged.app.services.payments.events.on(type, async (_tx, event) => {
      seen.push(event);
    });
  }
});
afterAll(() => server?.close());

let customers = 0;
const newCustomer = () => gateway.createCustomer({ email: `c${++customers}@example.com`, name: 'Ada Lovelace' });

async function savedCard(token: string) {
  const { customerId } = await newCustomer();
  const attached = await gateway.attachPaymentMethod({ customerId, token, usage: 'off_session' });
  if (attached.status !== 'attached') throw new Error(`attach ${token}: ${attached.declineCode}`);
  return { customerId, paymentMethodId: attached.paymentMethod.paymentMethodId };
}

let keys = 0;
const key = () => `test:${Date.now()}:${++keys}`;
const charge = (card: { customerId: string; paymentMethodId: string }, more: object = {}) =>
  gateway.charge({
    ...card,
    amountCents: 10_800,
    currency: 'USD',
    idempotencyKey: key(),
    description: 'Sundial Pro, annual, 1 license',
    offSession: false,
    returnPath: '/homepage/payment?checkout=c1',
    ...more,
  });
const last = (pathname: string) => server.to(pathname).at(-1);

describe('customers and cards', () => {
  it('creates a customer and saves a card for renewals with a SetupIntent (usage off_session)', async () => {
    const { customerId } = await newCustomer();
    expect(customerId).toMatch(/^cus_/);
    expect(last('/v1/customers')?.body).toMatchObject({ email: `c${customers}@example.com`, name: 'Ada Lovelace' });

    const attached = await gateway.attachPaymentMethod({ customerId, token: 'pm_card_visa', usage: 'off_session' });
    expect(attached).toEqual({
      status: 'attached',
      paymentMethod: {
        paymentMethodId: expect.stringMatching(/^pm_test/),
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: 2030,
        offSessionReady: true,
      },
    });
    const setup = last('/v1/setup_intents');
    expect(setup?.body).toMatchObject({
      customer: customerId,
      payment_method: 'pm_card_visa',
      usage: 'off_session',
      confirm: 'true',
      'allowed_payment_method_types[0]': 'card',
    });
    expect(setup?.idempotencyKey).toBe(`setup:${customerId}:pm_card_visa`);
    if (attached.status === 'attached')
      expect(server.behaviourOf(attached.paymentMethod.paymentMethodId)).toBe('pm_card_visa');
  });

  it('refuses a declined card with its code and message, an unknown or used token, and a brand we do not take', async () => {
    const { customerId } = await newCustomer();
    const attach = (token: string) => gateway.attachPaymentMethod({ customerId, token, usage: 'off_session' });
    expect(await attach('pm_card_chargeDeclined')).toEqual({
      status: 'declined',
      declineCode: 'card_declined',
      message: 'Your card was declined.',
    });
    await expect(attach('pm_card_nonexistent')).rejects.toMatchObject({ code: 'payment_token_not_found', status: 404 });
    await expect(attach('pm_card_unionpay')).rejects.toMatchObject({ code: 'card_brand_not_accepted', status: 422 });
    const saved = await savedCard('pm_card_mastercard');
    await expect(attach(saved.paymentMethodId)).rejects.toMatchObject({ code: 'payment_token_used', status: 409 });
  });

  it('a card whose bank authenticates it when saved is attached but not ready off-session until a checkout pays', async () => {
    const { customerId } = await newCustomer();
    const attached = await gateway.attachPaymentMethod({
      customerId,
      token: 'pm_card_threeDSecureRequiredOnSetup',
      usage: 'off_session',
    });
    if (attached.status !== 'attached') throw new Error('not attached');
    expect(attached.paymentMethod.offSessionReady).toBe(false);
    const { paymentMethodId } = attached.paymentMethod;
    const paid = await charge({ customerId, paymentMethodId });
    if (paid.status !== 'requires_action') throw new Error(`expected requires_action, got ${paid.status}`);
    expect(last('/v1/payment_intents')?.body).toMatchObject({ setup_future_usage: 'off_session' });
    server.authenticate(paid.chargeId, 'complete');
    expect(await gateway.confirmCharge(paid.chargeId)).toMatchObject({ status: 'succeeded' });
    // Saved by the payment: a renewal now charges it off-session.
    const renewal = await charge({ customerId, paymentMethodId }, { offSession: true, returnPath: undefined });
    expect(renewal.status).toBe('succeeded');
  });
});

describe('the $1.00 verification', () => {
  it('authorises 100 cents (capture_method manual) and voids the authorisation, each with its key', async () => {
    const card = await savedCard('pm_card_visa');
    const idempotencyKey = key();
    const result = await gateway.verifyCard({ ...card, idempotencyKey });
    expect(result).toMatchObject({ status: 'voided', amountCents: 100, currency: 'USD' });
    if (result.status !== 'voided') return;
    const authorise = last('/v1/payment_intents');
    expect(authorise?.body).toMatchObject({
      amount: '100',
      currency: 'usd',
      customer: card.customerId,
      payment_method: card.paymentMethodId,
      capture_method: 'manual',
      confirm: 'true',
      'metadata[sundial_kind]': 'verification',
    });
    expect(authorise?.idempotencyKey).toBe(idempotencyKey);
    const cancel = last(`/v1/payment_intents/${result.authorisationId}/cancel`);
    expect(cancel?.idempotencyKey).toBe(`${idempotencyKey}:void`);
    expect(server.intent(result.authorisationId)).toMatchObject({ status: 'canceled', amount_received: 0 });
  });

  it('a card asking for the second step answers its link; completed, the authorisation is voided', async () => {
    const card = await savedCard('pm_card_authenticationRequired');
    const pending = await gateway.verifyCard({ ...card, idempotencyKey: key(), returnPath: '/homepage/payment' });
    if (pending.status !== 'requires_action') throw new Error(`expected requires_action, got ${pending.status}`);
    expect(pending.nextAction.url).toMatch(/^https:\/\/hooks\.stripe\.com\//);
    expect(last('/v1/payment_intents')?.body.return_url).toBe('http://localhost:3000/homepage/payment');
    server.authenticate(pending.authorisationId, 'complete');
    expect(await gateway.confirmVerification(pending.authorisationId)).toMatchObject({ status: 'voided' });
    expect(server.intent(pending.authorisationId).status).toBe('canceled');
  });
});

describe('charges', () => {
  it('charges a saved card on-session with our idempotency key, amount, currency and customer', async () => {
    const card = await savedCard('pm_card_visa');
    const idempotencyKey = key();
    const result = await charge(card, { idempotencyKey });
    expect(result).toEqual({
      status: 'succeeded',
      chargeId: expect.stringMatching(/^pi_/),
      amountCents: 10_800,
      currency: 'USD',
    });
    const sent = last('/v1/payment_intents');
    expect(sent?.idempotencyKey).toBe(idempotencyKey);
    expect(sent?.body).toMatchObject({
      amount: '10800',
      currency: 'usd',
      customer: card.customerId,
      payment_method: card.paymentMethodId,
      confirm: 'true',
      return_url: 'http://localhost:3000/homepage/payment?checkout=c1',
      'metadata[sundial_kind]': 'charge',
      'metadata[sundial_off_session]': 'false',
    });
    expect(sent?.body.off_session).toBeUndefined();
    expect(sent?.body.capture_method).toBeUndefined();
  });

  it('maps declines: insufficient_funds, and generic_decline as card_declined, keeping the intent id', async () => {
    const poor = await charge(await savedCard('pm_card_chargeDeclinedInsufficientFunds'));
    expect(poor).toEqual({
      status: 'declined',
      chargeId: expect.stringMatching(/^pi_/),
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    const refused = await charge(await savedCard('pm_card_chargeCustomerFail'));
    expect(refused).toMatchObject({
      status: 'declined',
      declineCode: 'card_declined',
      message: 'Your card was declined.',
    });
    if (refused.status !== 'declined') return;
    expect(await gateway.confirmCharge(refused.chargeId)).toMatchObject({
      status: 'declined',
      declineCode: 'card_declined',
    });
  });

  it('a card that is not the customer’s is a 404', async () => {
    const mine = await savedCard('pm_card_visa');
    const other = await newCustomer();
    await expect(charge({ ...mine, customerId: other.customerId })).rejects.toMatchObject({
      code: 'payment_method_not_found',
      status: 404,
    });
  });

  it('requires_action answers Stripe’s page; confirmCharge then says succeeded, or authentication_failed', async () => {
    const card = await savedCard('pm_card_authenticationRequired');
    const first = await charge(card);
    if (first.status !== 'requires_action') throw new Error(`expected requires_action, got ${first.status}`);
    expect(first.nextAction).toEqual({
      id: first.chargeId,
      url: `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${first.chargeId}`,
    });
    expect(await gateway.confirmCharge(first.chargeId)).toMatchObject({ status: 'requires_action' });
    server.authenticate(first.chargeId, 'complete');
    expect(await gateway.confirmCharge(first.chargeId)).toMatchObject({ status: 'succeeded', amountCents: 10_800 });

    const second = await charge(card);
    server.authenticate(second.chargeId, 'fail');
    expect(await gateway.confirmCharge(second.chargeId)).toMatchObject({
      status: 'declined',
      declineCode: 'authentication_failed',
    });
    await expect(gateway.confirmCharge('pi_unknown')).rejects.toMatchObject({ code: 'charge_not_found', status: 404 });
  });

  it('a renewal charges off-session; authentication_required becomes requires_action with a link for the owner', async () => {
    const card = await savedCard('pm_card_authenticationRequired');
    const idempotencyKey = key();
    const result = await charge(card, {
      offSession: true,
      idempotencyKey,
      returnPath: '/homepage/payment?checkout=r1',
    });
    if (result.status !== 'requires_action') throw new Error(`expected requires_action, got ${result.status}`);
    const created = server.to('/v1/payment_intents').at(-1);
    expect(created?.body).toMatchObject({ off_session: 'true', 'metadata[sundial_off_session]': 'true' });
    expect(created?.body.return_url).toBeUndefined();
    const confirm = last(`/v1/payment_intents/${result.chargeId}/confirm`);
    expect(confirm?.idempotencyKey).toBe(`${idempotencyKey}:authenticate`);
    expect(confirm?.body).toMatchObject({
      off_session: 'false',
      return_url: 'http://localhost:3000/homepage/payment?checkout=r1',
    });
    expect(result.nextAction.url).toMatch(/^https:\/\/hooks\.stripe\.com\//);
  });

  it('a retry with the same key answers the first charge without charging again; other parameters are refused', async () => {
    const card = await savedCard('pm_card_visa');
    const idempotencyKey = key();
    const before = server.to('/v1/payment_intents').filter((r) => !r.replayed).length;
    const first = await charge(card, { idempotencyKey });
    const again = await charge(card, { idempotencyKey });
    expect(again).toEqual(first);
    const sent = server.to('/v1/payment_intents').filter((r) => r.idempotencyKey === idempotencyKey);
    expect(sent.map((r) => r.replayed)).toEqual([false, true]);
    expect(server.to('/v1/payment_intents').filter((r) => !r.replayed).length).toBe(before + 1);
    await expect(charge(card, { idempotencyKey, amountCents: 999 })).rejects.toMatchObject({
      code: 'idempotency_key_reused',
      status: 422,
    });
  });
});

describe('refunds', () => {
  it('refunds part of a charge with our key, once per key, never more than is left', async () => {
    const paid = await charge(await savedCard('pm_card_visa'));
    if (paid.status !== 'succeeded') throw new Error('charge failed');
    const idempotencyKey = key();
    const refund = () =>
      gateway.refund({ chargeId: paid.chargeId, amountCents: 1_000, idempotencyKey, reason: 'Credit note' });
    const first = await refund();
    expect(first).toEqual({
      status: 'succeeded',
      refundId: expect.stringMatching(/^re_/),
      chargeId: paid.chargeId,
      amountCents: 1_000,
      currency: 'USD',
    });
    expect(await refund()).toEqual(first);
    expect(last('/v1/refunds')).toMatchObject({
      idempotencyKey,
      replayed: true,
      body: { payment_intent: paid.chargeId, amount: '1000', 'metadata[reason]': 'Credit note' },
    });
    await expect(
      gateway.refund({ chargeId: paid.chargeId, amountCents: 10_000, idempotencyKey: key() }),
    ).rejects.toMatchObject({ code: 'refund_exceeds_charge', status: 422 });

    const declined = await charge(await savedCard('pm_card_chargeCustomerFail'));
    await expect(
      gateway.refund({ chargeId: declined.chargeId, amountCents: 1, idempotencyKey: key() }),
    ).rejects.toMatchObject({ code: 'charge_not_refundable', status: 409 });
  });
});

describe('events', () => {
  const eventOf = (type: string, object: object, id = `evt_${type}_${++keys}`) =>
    JSON.stringify({ ...fixture('event'), id, type, data: { object } });
  const sign = (payload: string, timestamp = Math.floor(Date.now() / 1000), secret = WEBHOOK_SECRET) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  const succeeded = () => ({ ...fixture('payment_intent.succeeded'), customer: 'cus_events' });

  it('verifies the SDK’s signature and maps Stripe’s events to ours', async () => {
    const now = new Date();
    const paid = eventOf('payment_intent.succeeded', succeeded(), 'evt_paid');
    expect(gateway.verifyEvent(paid, sign(paid), now)).toEqual({
      id: 'evt_paid',
      type: 'charge.succeeded',
      created: new Date(fixture('event').created * 1000).toISOString(),
      data: {
        chargeId: 'pi_3SXq5DJd8w3kVf0a1Bc2De3F',
        object: 'charge',
        customerId: 'cus_events',
        amountCents: 10_800,
        currency: 'USD',
        offSession: false,
      },
    });
    const failed = eventOf(
      'payment_intent.payment_failed',
      fixture('error.payment_intent.insufficient_funds').error.payment_intent,
    );
    expect(gateway.verifyEvent(failed, sign(failed), now)).toMatchObject({
      type: 'charge.failed',
      data: { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    });
    const action = eventOf('payment_intent.requires_action', fixture('payment_intent.requires_action'));
    expect(gateway.verifyEvent(action, sign(action), now)).toMatchObject({
      type: 'charge.requires_action',
      data: { nextAction: { url: expect.stringMatching(/^https:\/\/hooks\.stripe\.com\//) } },
    });
    const authorised = eventOf('payment_intent.amount_capturable_updated', fixture('payment_intent.requires_capture'));
    expect(gateway.verifyEvent(authorised, sign(authorised), now)).toMatchObject({
      type: 'charge.succeeded',
      data: { object: 'authorisation', amountCents: 100 },
    });
    const refunded = eventOf('refund.created', fixture('refund'));
    expect(gateway.verifyEvent(refunded, sign(refunded), now)).toMatchObject({
      type: 'refund.succeeded',
      data: { refundId: 're_3SXq5DJd8w3kVf0a1Hj2Kl3M', chargeId: 'pi_3SXq5DJd8w3kVf0a1Bc2De3F', amountCents: 1_000 },
    });
    const charge = {
      id: 'ch_3SXq5DJd8w3kVf0a1Wx2Yz3A',
      object: 'charge',
      payment_intent: 'pi_3SXq5DJd8w3kVf0a1Bc2De3F',
      refunds: { object: 'list', data: [fixture('refund')], has_more: false },
    };
    const chargeRefunded = eventOf('charge.refunded', charge);
    expect(gateway.verifyEvent(chargeRefunded, sign(chargeRefunded), now)).toMatchObject({
      type: 'refund.succeeded',
      data: { amountCents: 1_000, currency: 'USD' },
    });
    const setup = eventOf('setup_intent.succeeded', fixture('setup_intent.succeeded'));
    expect(gateway.verifyEvent(setup, sign(setup), now)).toBeNull();
  });

  it('refuses a missing, wrong or five-minute-old signature, and a body that is not JSON, with 400', () => {
    const body = eventOf('payment_intent.succeeded', succeeded());
    const now = new Date();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const cases: Array<[string | undefined, string, string]> = [
      [undefined, body, 'invalid_signature'],
      [sign(body, nowSeconds, 'whsec_someone_else'), body, 'invalid_signature'],
      [sign(body), body.replace('10800', '1'), 'invalid_signature'],
      [sign(body, nowSeconds - 301), body, 'invalid_signature'],
      [sign('not json'), 'not json', 'invalid_event'],
    ];
    for (const [header, raw, code] of cases) {
      expect(() => gateway.verifyEvent(raw, header, now)).toThrow(expect.objectContaining({ code, status: 400 }));
    }
    expect(() => gateway.verifyEvent(body, sign(body, nowSeconds - 299), now)).not.toThrow();
  });

  it('the webhook route reads Stripe-Signature, hands an event to subscribers once and acknowledges the rest', async () => {
    const post = (payload: string, signature?: string) =>
      logged.app.inject({
        method: 'POST',
        url: '/api/v1/payments/events',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          ...(signature ? { [STRIPE_SIGNATURE_HEADER]: signature } : {}),
        },
        payload,
      });
    const body = eventOf('payment_intent.succeeded', succeeded(), 'evt_route');
    expect((await post(body, sign(body))).json()).toEqual({ received: true, duplicate: false });
    expect((await post(body, sign(body))).json()).toEqual({ received: true, duplicate: true });
    expect(seen.filter((event) => event.id === 'evt_route')).toHaveLength(1);
    const other = eventOf('customer.created', fixture('customer'));
    expect((await post(other, sign(other))).json()).toEqual({ received: true, duplicate: false });
    const refused = await post(body, 't=1,v1=00');
    expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'invalid_signature']);
  });
});

describe('configuration', () => {
  const base = { NODE_ENV: 'test', PAYMENTS_GATEWAY: 'stripe' } as const;

  it('PAYMENTS_GATEWAY=stripe needs its three keys, named when missing or malformed', () => {
    expect(() => loadConfig(base)).toThrow(ConfigError);
    expect(() => loadConfig(base)).toThrow(
      /STRIPE_SECRET_KEY: required with PAYMENTS_GATEWAY=stripe\n {2}STRIPE_PUBLISHABLE_KEY: required[^\n]*\n {2}STRIPE_WEBHOOK_SECRET: required/,
    );
    expect(() =>
      loadConfig({ ...base, STRIPE_SECRET_KEY: 'pk_test_x', STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY }),
    ).toThrow(/STRIPE_SECRET_KEY: must be a Stripe secret key/);
    expect(() =>
      loadConfig({
        ...base,
        STRIPE_SECRET_KEY: 'sk_live_abc',
        STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      }),
    ).toThrow(/same mode/);
  });

  it('reads STRIPE_API_BASE into host, port and protocol; the sandbox needs no Stripe keys', () => {
    const config = loadConfig({
      ...base,
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
    });
    expect(config.stripe).toEqual({
      secretKey: SECRET_KEY,
      publishableKey: PUBLISHABLE_KEY,
      webhookSecret: WEBHOOK_SECRET,
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
    expect(loadConfig({ NODE_ENV: 'test' }).stripe).toBeNull();
  });
});

describe('billing on the Stripe gateway', () => {
  it('an owner buys Pro with a card from Stripe.js: saved, charged once with the checkout’s key, invoice paid', async () => {
    const { app } = logged;
    const call = caller(app);
    const owner = await signUp(app);
    const b = (p = '') => `/api/v1/workspaces/${owner.workspaceId}/billing${p}`;
    const view = await call('GET', b(), owner.cookie);
    expect(view.json().payments).toEqual({ gateway: 'stripe', publishableKey: PUBLISHABLE_KEY });
    const details = {
      name: 'Acme Inc.',
      address: '1 Market St',
      city: 'San Francisco',
      postalCode: '94105',
      country: 'US',
    };
    expect((await call('PUT', b('/details'), owner.cookie, details)).statusCode).toBe(200);
    const checkout = () =>
      app.inject({
        method: 'POST',
        url: b('/checkout'),
        headers: { cookie: owner.cookie, 'idempotency-key': 'stripe-checkout-1' },
        payload: { plan: 'pro', cycle: 'annual', licenses: 1, paymentToken: 'pm_card_visa' },
      });
    const paid = await checkout();
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'succeeded', invoice: { status: 'paid', grossCents: 10_800 } });
    const sent = server.to('/v1/payment_intents').filter((r) => r.idempotencyKey?.startsWith('checkout:'));
    expect(sent.at(-1)).toMatchObject({
      idempotencyKey: `checkout:${paid.json().checkoutId}`,
      body: { amount: '10800', currency: 'usd', payment_method: expect.stringMatching(/^pm_test/) },
    });
    // The browser's retry answers the same purchase without asking Stripe again.
    const requests = server.requests.length;
    expect((await checkout()).json()).toEqual(paid.json());
    expect(server.requests.length).toBe(requests);
    const overview = (await call('GET', b(), owner.cookie)).json();
    expect(overview).toMatchObject({ plan: 'pro', subscription: { status: 'active' } });
    const log = logged.lines.join('\n');
    expect(log).toContain('/billing/checkout');
    expect(log).not.toContain(SECRET_KEY);
    expect(log).not.toContain(WEBHOOK_SECRET);
  });
});
