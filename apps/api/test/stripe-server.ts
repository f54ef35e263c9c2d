import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A stand-in for Stripe's API on 127.0.0.1 (no network here), answering the SDK with the
 * responses Stripe's API gives (apps/api/src/platform/payments/stripe-fixtures/, Stripe's
 * shapes, with ids and amounts set from the request). It checks what a real call must carry:
 * the method and path, the secret key, the form fields that matter and an Idempotency-Key on
 * every POST, answering a repeated key with the first answer (`Idempotent-Replayed: true`) and
 * a key reused with other parameters with Stripe's 400 `idempotency_error`. Every request is
 * recorded for the tests to read.
 *
 * The test cards are Stripe's test PaymentMethods, by name; as on Stripe, saving one makes a new
 * PaymentMethod (`pm_test…`) that behaves like it:
 * - `pm_card_visa`, `pm_card_mastercard`: everything succeeds;
 * - `pm_card_chargeDeclined`: refused when saved (generic_decline);
 * - `pm_card_chargeDeclinedInsufficientFunds`: saved; charges decline with insufficient_funds;
 * - `pm_card_chargeCustomerFail`: saved; charges decline with generic_decline;
 * - `pm_card_authenticationRequired`: saved; every charge asks for the second step
 *   (on-session: requires_action; off-session: 402 authentication_required);
 * - `pm_card_threeDSecureRequiredOnSetup`: saving it asks for the second step;
 * - `pm_card_unionpay`: a brand we do not take.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../src/platform/payments/stripe-fixtures');

// biome-ignore lint/suspicious/noExplicitAny: Stripe's JSON, patched per request.
type Json = any;
const fixture = (name: string): Json => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form-encoded body, flattened as Stripe encodes it (`metadata[sundial_kind]`). */
  body: Record<string, string>;
  idempotencyKey: string | undefined;
  replayed: boolean;
}

interface StoredMethod {
  fixture: Json;
  customer: string | null;
  /** The test card's name it was made from: how it behaves. */
  behaviour: string;
}

const CARDS: Record<string, { brand: string; last4: string }> = {
  pm_card_visa: { brand: 'visa', last4: '4242' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995' },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184' },
  pm_card_threeDSecureRequiredOnSetup: { brand: 'visa', last4: '3220' },
  pm_card_unionpay: { brand: 'unionpay', last4: '0005' },
};

export async function startStripeServer(secretKey: string) {
  const requests: RecordedRequest[] = [];
  const byKey = new Map<string, { signature: string; status: number; body: string }>();
  const methods = new Map<string, StoredMethod>();
  const intents = new Map<string, Json>();
  const refunded = new Map<string, number>();
  let serial = 0;
  const id = (prefix: string) => `${prefix}_test${String(++serial).padStart(6, '0')}${Date.now().toString(36)}`;
  const now = () => Math.floor(Date.now() / 1000);

  /** A saved PaymentMethod, or a fresh one for a test card's name (never attached). */
  function methodOf(pmId: string): StoredMethod | undefined {
    const known = methods.get(pmId);
    if (known) return known;
    const card = CARDS[pmId];
    if (!card) return undefined;
    const pm = fixture('payment_method');
    Object.assign(pm, { id: pmId, created: now() });
    Object.assign(pm.card, { brand: card.brand, display_brand: card.brand, last4: card.last4 });
    return { fixture: pm, customer: null, behaviour: pmId };
  }

  /** The PaymentMethod a request uses: a test card's name becomes a new one, kept. */
  function useMethod(pmId: string): StoredMethod | undefined {
    const found = methodOf(pmId);
    if (!found || methods.has(pmId)) return found;
    const made = { ...found, fixture: { ...found.fixture, id: id('pm') } };
    methods.set(made.fixture.id, made);
    return made;
  }

  const missing = (message: string, param: string) => {
    const error = fixture('error.resource_missing');
    Object.assign(error.error, { message, param });
    return [404, error] as const;
  };
  const invalid = (message: string, code?: string) =>
    [400, { error: { type: 'invalid_request_error', message, ...(code ? { code } : {}) } }] as const;

  function needs(body: Record<string, string>, fields: string[]) {
    const absent = fields.filter((field) => body[field] === undefined);
    if (absent.length) throw invalid(`Missing required param: ${absent[0]}.`, 'parameter_missing');
  }

  /** A PaymentIntent fixture with the request's amount, currency, customer, card and metadata. */
  function intentFrom(name: string, body: Record<string, string>): Json {
    const intent = fixture(name);
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) {
      const match = key.match(/^metadata\[(.+)\]$/);
      if (match?.[1]) metadata[match[1]] = value;
    }
    Object.assign(intent, {
      id: id('pi'),
      amount: Number(body.amount),
      currency: body.currency,
      customer: body.customer,
      payment_method: body.payment_method,
      description: body.description ?? null,
      metadata,
      created: now(),
      capture_method: body.capture_method ?? 'automatic',
      setup_future_usage: body.setup_future_usage ?? null,
    });
    if (intent.status === 'succeeded') intent.amount_received = intent.amount;
    if (intent.status === 'requires_capture') intent.amount_capturable = intent.amount;
    if (intent.next_action?.redirect_to_url) {
      intent.next_action.redirect_to_url.return_url = body.return_url ?? null;
      intent.next_action.redirect_to_url.url = `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${intent.id}`;
    }
    intents.set(intent.id, intent);
    return intent;
  }

  function cardError(name: string, intent: Json) {
    const error = fixture(name);
    const failed = error.error.payment_intent;
    Object.assign(intent, {
      status: failed.status,
      last_payment_error: failed.last_payment_error,
      amount_received: 0,
      amount_capturable: 0,
    });
    error.error.payment_intent = intent;
    return [402, error] as const;
  }

  function route(method: string, url: string, body: Record<string, string>): readonly [number, Json] {
    const parts = url.split('?')[0]?.split('/').filter(Boolean) ?? [];
    const [version, resource, objectId, verb] = parts;
    if (version !== 'v1') return missing(`Unrecognized request URL (${method}: ${url}).`, '');

    if (method === 'POST' && resource === 'customers' && !objectId) {
      needs(body, ['email', 'name']);
      return [200, { ...fixture('customer'), id: id('cus'), email: body.email, name: body.name, created: now() }];
    }

    if (method === 'GET' && resource === 'payment_methods' && objectId) {
      const stored = methodOf(objectId);
      if (!stored) return missing(`No such PaymentMethod: '${objectId}'`, 'payment_method');
      return [200, { ...stored.fixture, customer: stored.customer }];
    }

    if (method === 'POST' && resource === 'setup_intents' && !objectId) {
      needs(body, ['customer', 'payment_method', 'usage', 'confirm']);
      const stored = useMethod(body.payment_method as string);
      if (!stored) return missing(`No such PaymentMethod: '${body.payment_method}'`, 'payment_method');
      if (stored.customer) {
        return invalid('This PaymentMethod was previously used without being attached to a Customer or was detached.');
      }
      if (stored.behaviour === 'pm_card_chargeDeclined') {
        const error = fixture('error.setup_intent.card_declined');
        error.error.setup_intent.customer = body.customer;
        return [402, error];
      }
      const name =
        stored.behaviour === 'pm_card_threeDSecureRequiredOnSetup'
          ? 'setup_intent.requires_action'
          : 'setup_intent.succeeded';
      const intent = fixture(name);
      Object.assign(intent, {
        id: id('seti'),
        customer: body.customer,
        payment_method: stored.fixture.id,
        usage: body.usage,
      });
      if (intent.status === 'succeeded') stored.customer = body.customer as string;
      return [200, intent];
    }

    if (method === 'POST' && resource === 'payment_intents' && !objectId) {
      needs(body, ['amount', 'currency', 'customer', 'payment_method', 'confirm']);
      const stored = useMethod(body.payment_method as string);
      if (!stored || (stored.customer !== null && stored.customer !== body.customer)) {
        return missing(`No such PaymentMethod: '${body.payment_method}'`, 'payment_method');
      }
      const params = { ...body, payment_method: stored.fixture.id };
      const pm = stored.behaviour;
      const offSession = body.off_session === 'true';
      if (body.capture_method === 'manual') {
        if (pm === 'pm_card_authenticationRequired') return [200, intentFrom('payment_intent.requires_action', params)];
        return [200, intentFrom('payment_intent.requires_capture', params)];
      }
      if (pm === 'pm_card_chargeDeclinedInsufficientFunds') {
        return cardError('error.payment_intent.insufficient_funds', intentFrom('payment_intent.succeeded', params));
      }
      if (pm === 'pm_card_chargeCustomerFail') {
        return cardError('error.payment_intent.generic_decline', intentFrom('payment_intent.succeeded', params));
      }
      if (
        pm === 'pm_card_authenticationRequired' ||
        (pm === 'pm_card_threeDSecureRequiredOnSetup' && !stored.customer)
      ) {
        if (offSession) {
          return cardError(
            'error.payment_intent.authentication_required',
            intentFrom('payment_intent.succeeded', params),
          );
        }
        return [200, intentFrom('payment_intent.requires_action', params)];
      }
      // An on-session charge that saves the card for later attaches it on success.
      if (body.setup_future_usage === 'off_session') stored.customer = body.customer as string;
      return [200, intentFrom('payment_intent.succeeded', params)];
    }

    if (resource === 'payment_intents' && objectId) {
      const intent = intents.get(objectId);
      if (!intent) return missing(`No such payment_intent: '${objectId}'`, 'intent');
      if (method === 'GET' && !verb) return [200, intent];
      if (method === 'POST' && verb === 'cancel') {
        if (!['requires_capture', 'requires_payment_method', 'requires_action'].includes(intent.status)) {
          return invalid(
            `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
            'payment_intent_unexpected_state',
          );
        }
        Object.assign(intent, {
          status: 'canceled',
          amount_capturable: 0,
          canceled_at: now(),
          cancellation_reason: 'requested_by_customer',
        });
        return [200, intent];
      }
      if (method === 'POST' && verb === 'confirm') {
        needs(body, ['return_url']);
        const action = fixture('payment_intent.requires_action').next_action;
        action.redirect_to_url.return_url = body.return_url;
        action.redirect_to_url.url = `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${intent.id}`;
        Object.assign(intent, { status: 'requires_action', next_action: action, last_payment_error: null });
        return [200, intent];
      }
    }

    if (method === 'POST' && resource === 'refunds' && !objectId) {
      needs(body, ['payment_intent']);
      const intent = intents.get(body.payment_intent as string);
      if (!intent) return missing(`No such payment_intent: '${body.payment_intent}'`, 'payment_intent');
      if (intent.status !== 'succeeded') {
        return invalid(
          `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
          'charge_not_refundable',
        );
      }
      const amount = body.amount === undefined ? intent.amount : Number(body.amount);
      const before = refunded.get(intent.id) ?? 0;
      if (before >= intent.amount)
        return invalid(`Charge ${intent.latest_charge} has already been refunded.`, 'charge_already_refunded');
      if (before + amount > intent.amount) {
        return invalid(
          `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${((intent.amount - before) / 100).toFixed(2)})`,
          'amount_too_large',
        );
      }
      refunded.set(intent.id, before + amount);
      const refund = fixture('refund');
      Object.assign(refund, {
        id: id('re'),
        amount,
        currency: intent.currency,
        payment_intent: intent.id,
        charge: intent.latest_charge,
        created: now(),
        metadata: body['metadata[reason]'] ? { reason: body['metadata[reason]'] } : {},
      });
      return [200, refund];
    }

    return missing(`Unrecognized request URL (${method}: ${url}).`, '');
  }

  /** The route's answer as status and JSON; a refusal thrown by `needs` is an answer too. */
  function answer(method: string, url: string, body: Record<string, string>): [number, string] {
    let result: readonly [number, Json];
    try {
      result = route(method, url, body);
    } catch (thrown) {
      if (!Array.isArray(thrown)) throw thrown;
      result = thrown as unknown as [number, Json];
    }
    return [result[0], JSON.stringify(result[1])];
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    let raw = '';
    for await (const chunk of request) raw += String(chunk);
    const body = Object.fromEntries(new URLSearchParams(raw));
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const key = request.headers['idempotency-key']?.toString();
    const send = (status: number, json: string, replayed = false) => {
      requests.push({ method, path: url.split('?')[0] ?? url, body, idempotencyKey: key, replayed });
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${serial}`,
        ...(key ? { 'idempotency-key': key } : {}),
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      response.end(json);
    };
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return send(
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } }),
      );
    }
    if (method === 'POST') {
      if (!key) return send(400, JSON.stringify(invalid('An Idempotency-Key header is required here.')[1]));
      const signature = `${method} ${url} ${raw}`;
      const first = byKey.get(key);
      if (first) {
        if (first.signature !== signature) {
          const error = fixture('error.idempotency');
          error.error.message = error.error.message.replace("'checkout:1'", `'${key}'`);
          return send(400, JSON.stringify(error));
        }
        return send(first.status, first.body, true);
      }
      const [status, json] = answer(method, url, body);
      // Stripe keeps the answer of a completed request (a 4xx too) for the key.
      byKey.set(key, { signature, status, body: json });
      return send(status, json);
    }
    return send(...answer(method, url, body));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** For STRIPE_API_BASE. */
    base: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** The requests to a path (e.g. `/v1/payment_intents`). */
    to: (pathname: string) => requests.filter((request) => request.path === pathname),
    /** The customer went through Stripe's second step for an intent: it succeeds (is authorised) or fails. */
    authenticate(intentId: string, outcome: 'complete' | 'fail') {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`no intent ${intentId}`);
      if (outcome === 'fail') {
        Object.assign(intent, {
          status: 'requires_payment_method',
          next_action: null,
          last_payment_error: {
            code: 'payment_intent_authentication_failure',
            doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
            message:
              'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
            type: 'invalid_request_error',
          },
        });
      } else if (intent.capture_method === 'manual') {
        Object.assign(intent, { status: 'requires_capture', next_action: null, amount_capturable: intent.amount });
      } else {
        Object.assign(intent, { status: 'succeeded', next_action: null, amount_received: intent.amount });
        const pm = methods.get(intent.payment_method);
        if (pm && intent.setup_future_usage === 'off_session') pm.customer = intent.customer;
      }
      return intent;
    },
    intent: (intentId: string): Json => intents.get(intentId),
    /** Which test card a saved PaymentMethod was made from. */
    behaviourOf: (pmId: string) => methods.get(pmId)?.behaviour,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeServer = Awaited<ReturnType<typeof startStripeServer>>;
