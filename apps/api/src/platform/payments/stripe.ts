import { CARD_BRANDS, type CardBrand } from '@sundial/core';
import Stripe from 'stripe';
import { AppError } from '../errors.js';
import { SIGNATURE_TOLERANCE_SECONDS } from './signature.js';
import {
  type ChargeResult,
  DECLINE_MESSAGES,
  type Decline,
  type DeclineCode,
  type NextAction,
  type PaymentEvent,
  type PaymentGateway,
  type PaymentMethod,
  VERIFICATION_CENTS,
  type VerificationResult,
} from './types.js';

/** The header Stripe signs its webhook deliveries with. */
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';

export interface StripeGatewayOptions {
  /** STRIPE_SECRET_KEY (`sk_live_…`, `sk_test_…` or a restricted `rk_…`); never logged. */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET (`whsec_…`), from the webhook endpoint in Stripe's dashboard. */
  webhookSecret: string;
  /** STRIPE_PUBLISHABLE_KEY (`pk_…`), handed to the browser's Stripe.js. */
  publishableKey: string;
  /** Second-step pages return to paths on it. */
  publicUrl: string;
  /** STRIPE_API_BASE, parsed: another API host (a local server of recorded responses in tests). */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** What we write on every PaymentIntent, so an event tells a verification from a charge. */
type IntentKind = 'charge' | 'verification';
const KIND = 'sundial_kind';
const OFF_SESSION = 'sundial_off_session';

/** A 503 that says to try again; the SDK's error rides along as its cause for the log. */
function unavailable(cause?: unknown): AppError {
  const error = new AppError(
    'payment_gateway_unavailable',
    'The payment processor could not be reached; please try again shortly.',
    { status: 503 },
  );
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** Stripe's decline and error codes, as ours. */
export function declineOf(code: string | null | undefined, declineCode?: string | null): Decline {
  const codes = [declineCode, code];
  let ours: DeclineCode = 'card_declined';
  if (codes.includes('insufficient_funds')) ours = 'insufficient_funds';
  else if (codes.includes('expired_card')) ours = 'expired_card';
  else if (codes.includes('incorrect_cvc') || codes.includes('invalid_cvc')) ours = 'incorrect_cvc';
  else if (codes.includes('processing_error')) ours = 'processing_error';
  else if (
    codes.includes('payment_intent_authentication_failure') ||
    codes.includes('setup_intent_authentication_failure') ||
    codes.includes('authentication_required')
  )
    ours = 'authentication_failed';
  return { declineCode: ours, message: DECLINE_MESSAGES[ours] };
}

const isBrand = (brand: string): brand is CardBrand => (CARD_BRANDS as readonly string[]).includes(brand);

/**
 * Turns an error of the SDK into ours: card errors are returned to the caller as declines by the
 * functions below; here the rest. A missing object is a 404 with the interface's code, a reused
 * idempotency key a 422, anything else (network, Stripe's own trouble, a wrong key) a 503 that
 * says to try again, logged by the error handler without the request's secret.
 */
function failure(error: unknown, notFound?: { code: string; message: string }): AppError {
  if (!(error instanceof Stripe.errors.StripeError)) return error instanceof AppError ? error : unavailable(error);
  if (error instanceof Stripe.errors.StripeIdempotencyError || error.type === 'idempotency_error') {
    return new AppError('idempotency_key_reused', 'This idempotency key was used for a different payment.', {
      status: 422,
    });
  }
  if (error.code === 'resource_missing' && notFound) {
    return new AppError(notFound.code, notFound.message, { status: 404 });
  }
  return unavailable(error);
}

const isCardError = (error: unknown): error is Stripe.errors.StripeCardError =>
  error instanceof Stripe.errors.StripeCardError;

/** Where the customer goes for the second step: Stripe's page behind `redirect_to_url`. */
function nextActionOf(intent: { id: string; next_action: Stripe.PaymentIntent.NextAction | null }): NextAction | null {
  const url = intent.next_action?.redirect_to_url?.url;
  return url ? { id: intent.id, url } : null;
}

function money(intent: Stripe.PaymentIntent) {
  return { amountCents: intent.amount, currency: intent.currency.toUpperCase() };
}

/** A PaymentIntent's state as a charge result; `null` when it waits on us (requires_capture). */
function chargeResultOf(intent: Stripe.PaymentIntent): ChargeResult {
  switch (intent.status) {
    case 'succeeded':
    case 'requires_capture':
    case 'processing':
      return { status: 'succeeded', chargeId: intent.id, ...money(intent) };
    case 'requires_action': {
      const nextAction = nextActionOf(intent);
      if (nextAction) return { status: 'requires_action', chargeId: intent.id, nextAction };
      // A next action only Stripe.js can run (no redirect URL): nothing to send the customer to.
      return { status: 'declined', chargeId: intent.id, ...declineOf('authentication_required') };
    }
    default: {
      const error = intent.last_payment_error;
      return {
        status: 'declined',
        chargeId: intent.id,
        ...declineOf(error?.code ?? (intent.status === 'canceled' ? 'card_declined' : undefined), error?.decline_code),
      };
    }
  }
}

function verificationOf(intent: Stripe.PaymentIntent): VerificationResult {
  if (intent.status === 'canceled' && !intent.last_payment_error) {
    return { status: 'voided', authorisationId: intent.id, ...money(intent) };
  }
  const result = chargeResultOf(intent);
  if (result.status === 'requires_action') {
    return { status: 'requires_action', authorisationId: intent.id, nextAction: result.nextAction };
  }
  if (result.status === 'declined') {
    return { status: 'declined', authorisationId: intent.id, declineCode: result.declineCode, message: result.message };
  }
  return { status: 'voided', authorisationId: intent.id, ...money(intent) };
}

const idOf = (value: string | { id: string } | null | undefined): string =>
  typeof value === 'string' ? value : (value?.id ?? '');

/**
 * The Stripe gateway: the same contract as the sandbox (types.ts) on Stripe's API through the
 * official SDK. Cards come from Stripe.js in the browser as PaymentMethods (`pm_…`); they are
 * saved with a SetupIntent for off-session use; charges and the $1.00 verification are
 * PaymentIntents created and confirmed at once (`allowed_payment_method_types: ['card']`), each sent
 * with our idempotency key as Stripe's, so a retry charges once; refunds are Refunds; events
 * come signed to the same webhook route and are checked by the SDK.
 */
export function createStripeGateway(options: StripeGatewayOptions) {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    telemetry: false,
    ...(options.host ? { host: options.host } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
  });
  const returnUrl = (path: string | undefined) => `${options.publicUrl}${path ?? '/'}`;

  /**
   * Creates and confirms a PaymentIntent once per key. A card error answers the intent it left
   * behind (Stripe records the failed attempt on it); an off-session charge the bank wants to
   * authenticate is confirmed again on-session with a return URL, for Stripe's page to send the
   * owner to.
   */
  async function confirmIntent(
    kind: IntentKind,
    params: {
      customerId: string;
      paymentMethodId: string;
      amountCents: number;
      currency: string;
      description: string;
      offSession: boolean;
      idempotencyKey: string;
      returnPath?: string | undefined;
    },
  ): Promise<Stripe.PaymentIntent | { declined: Decline; intentId: string }> {
    try {
      return await stripe.paymentIntents.create(
        {
          amount: params.amountCents,
          currency: params.currency.toLowerCase(),
          customer: params.customerId,
          payment_method: params.paymentMethodId,
          allowed_payment_method_types: ['card'],
          description: params.description,
          confirm: true,
          metadata: { [KIND]: kind, [OFF_SESSION]: String(params.offSession) },
          ...(kind === 'verification' ? { capture_method: 'manual' as const } : {}),
          ...(params.offSession
            ? { off_session: true }
            : {
                return_url: returnUrl(params.returnPath),
                // A customer at checkout saves the card for renewals as they pay (needed when the
                // bank asked for authentication when the card was saved).
                ...(kind === 'charge' ? { setup_future_usage: 'off_session' as const } : {}),
              }),
        },
        { idempotencyKey: params.idempotencyKey },
      );
    } catch (error) {
      if (!isCardError(error)) throw failure(error, paymentMethodMissing);
      const intentId = error.payment_intent?.id ?? '';
      if (error.code === 'authentication_required' && params.offSession && intentId) {
        try {
          return await stripe.paymentIntents.confirm(
            intentId,
            { payment_method: params.paymentMethodId, return_url: returnUrl(params.returnPath), off_session: false },
            { idempotencyKey: `${params.idempotencyKey}:authenticate` },
          );
        } catch (again) {
          if (!isCardError(again)) throw failure(again);
          return { declined: declineOf(again.code, again.decline_code), intentId };
        }
      }
      return { declined: declineOf(error.code, error.decline_code), intentId };
    }
  }

  const paymentMethodMissing = {
    code: 'payment_method_not_found',
    message: 'This card is not saved for this customer.',
  };

  async function retrieveIntent(id: string): Promise<Stripe.PaymentIntent> {
    try {
      return await stripe.paymentIntents.retrieve(id);
    } catch (error) {
      throw failure(error, { code: 'charge_not_found', message: 'No such charge.' });
    }
  }

  /** Voids an authorised verification (once per key); answers the intent as it ends. */
  async function voidIfAuthorised(intent: Stripe.PaymentIntent, idempotencyKey: string): Promise<Stripe.PaymentIntent> {
    if (intent.status !== 'requires_capture') return intent;
    try {
      return await stripe.paymentIntents.cancel(intent.id, {}, { idempotencyKey: `${idempotencyKey}:void` });
    } catch (error) {
      throw failure(error);
    }
  }

  function cardOf(method: Stripe.PaymentMethod, offSessionReady: boolean): PaymentMethod {
    const card = method.card;
    if (!card) {
      throw new AppError('payment_method_not_card', 'Only cards can pay for Sundial.', { status: 422 });
    }
    if (!isBrand(card.brand)) {
      throw new AppError(
        'card_brand_not_accepted',
        'We accept Visa, Mastercard, American Express, Discover, Diners Club and JCB.',
        { status: 422 },
      );
    }
    return {
      paymentMethodId: method.id,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.exp_month,
      expYear: card.exp_year,
      offSessionReady,
    };
  }

  const gateway: PaymentGateway = {
    name: 'stripe',
    signatureHeader: STRIPE_SIGNATURE_HEADER,

    clientConfig: () => ({ gateway: 'stripe', publishableKey: options.publishableKey }),

    async createCustomer({ email, name }) {
      try {
        const customer = await stripe.customers.create({ email, name });
        return { customerId: customer.id };
      } catch (error) {
        throw failure(error);
      }
    },

    async attachPaymentMethod({ customerId, token, usage }) {
      let method: Stripe.PaymentMethod;
      try {
        method = await stripe.paymentMethods.retrieve(token);
      } catch (error) {
        throw failure(error, { code: 'payment_token_not_found', message: 'This card token does not exist.' });
      }
      if (method.customer) {
        throw new AppError('payment_token_used', 'This card token was used already.', { status: 409 });
      }
      // Refused before any request that could save it.
      cardOf(method, false);
      let intent: Stripe.SetupIntent;
      try {
        intent = await stripe.setupIntents.create(
          {
            customer: customerId,
            payment_method: token,
            allowed_payment_method_types: ['card'],
            usage,
            confirm: true,
            return_url: returnUrl('/'),
          },
          { idempotencyKey: `setup:${customerId}:${token}` },
        );
      } catch (error) {
        if (isCardError(error)) return { status: 'declined', ...declineOf(error.code, error.decline_code) };
        throw failure(error, { code: 'customer_not_found', message: 'No such customer.' });
      }
      // The PaymentMethod the SetupIntent saved (Stripe's test cards, `pm_card_visa`, make a new one).
      const saved = { ...method, id: idOf(intent.payment_method) || method.id };
      if (intent.status === 'succeeded') {
        return { status: 'attached', paymentMethod: cardOf(saved, usage === 'off_session') };
      }
      if (intent.status === 'requires_action' || intent.status === 'processing') {
        // The bank wants to authenticate the card before saving it. The checkout's charge is
        // on-session with a return URL, so it asks for that step itself and saves the card when it
        // succeeds (setup_future_usage); until then the card is not ready for renewals.
        return { status: 'attached', paymentMethod: cardOf(saved, false) };
      }
      const error = intent.last_setup_error;
      return { status: 'declined', ...declineOf(error?.code, error?.decline_code) };
    },

    async verifyCard({ customerId, paymentMethodId, idempotencyKey, currency = 'USD', returnPath }) {
      const created = await confirmIntent('verification', {
        customerId,
        paymentMethodId,
        amountCents: VERIFICATION_CENTS,
        currency,
        description: 'Card verification (authorised and voided)',
        offSession: false,
        idempotencyKey,
        returnPath,
      });
      if ('declined' in created) return { status: 'declined', authorisationId: created.intentId, ...created.declined };
      return verificationOf(await voidIfAuthorised(created, idempotencyKey));
    },

    async charge(options) {
      const created = await confirmIntent('charge', options);
      if ('declined' in created) return { status: 'declined', chargeId: created.intentId, ...created.declined };
      return chargeResultOf(created);
    },

    async confirmCharge(chargeId) {
      return chargeResultOf(await retrieveIntent(chargeId));
    },

    async confirmVerification(authorisationId) {
      const intent = await retrieveIntent(authorisationId);
      // Authorised after the second step: void it now (the key names the authorisation).
      return verificationOf(await voidIfAuthorised(intent, `verification:${intent.id}`));
    },

    async refund({ chargeId, amountCents, idempotencyKey, reason }) {
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: chargeId,
            amount: amountCents,
            ...(reason ? { metadata: { reason: reason.slice(0, 500) } } : {}),
          },
          { idempotencyKey },
        );
        return {
          status: 'succeeded',
          refundId: refund.id,
          chargeId,
          amountCents: refund.amount,
          currency: refund.currency.toUpperCase(),
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          if (error.code === 'charge_already_refunded' || error.code === 'amount_too_large') {
            throw new AppError('refund_exceeds_charge', 'A refund cannot be more than what is left of the charge.', {
              status: 422,
            });
          }
          if (error.code === 'payment_intent_unexpected_state' || error.code === 'charge_not_refundable') {
            throw new AppError('charge_not_refundable', 'Only a succeeded charge can be refunded.', { status: 409 });
          }
        }
        throw failure(error, { code: 'charge_not_found', message: 'No such charge.' });
      }
    },

    verifyEvent(rawBody, signatureHeader, now) {
      if (!signatureHeader) {
        throw new AppError('invalid_signature', 'The event has no signature.', { status: 400 });
      }
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signatureHeader,
          options.webhookSecret,
          SIGNATURE_TOLERANCE_SECONDS,
          undefined,
          now.getTime(),
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
          const old = /timestamp outside the tolerance zone/i.test(error.message);
          throw new AppError(
            'invalid_signature',
            old ? 'The event signature is too old.' : 'The event signature does not match.',
            { status: 400 },
          );
        }
        throw new AppError('invalid_event', 'The event is not JSON.', { status: 400 });
      }
      return paymentEventOf(event);
    },
  };

  return { gateway, stripe };
}

/**
 * A verified Stripe event as ours, or null for one we do not act on (answered 200, so Stripe
 * does not retry it). Charges and verifications are PaymentIntents; `sundial_kind` on them says
 * which. A verification's authorisation (`amount_capturable_updated`) is its success, as the
 * sandbox's voided authorisation is.
 */
export function paymentEventOf(event: Stripe.Event): PaymentEvent | null {
  const envelope = { id: event.id, created: new Date(event.created * 1000).toISOString() };
  const chargeData = (intent: Stripe.PaymentIntent) => ({
    chargeId: intent.id,
    object: intent.metadata?.[KIND] === 'verification' ? ('authorisation' as const) : ('charge' as const),
    customerId: idOf(intent.customer),
    ...money(intent),
    offSession: intent.metadata?.[OFF_SESSION] === 'true',
  });
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      return { ...envelope, type: 'charge.succeeded', data: chargeData(intent) };
    }
    case 'payment_intent.amount_capturable_updated': {
      const intent = event.data.object;
      if (intent.metadata?.[KIND] !== 'verification') return null;
      return { ...envelope, type: 'charge.succeeded', data: chargeData(intent) };
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      const error = intent.last_payment_error;
      const decline = declineOf(error?.code, error?.decline_code);
      return {
        ...envelope,
        type: 'charge.failed',
        data: {
          ...chargeData(intent),
          ...decline,
          ...(decline.declineCode === 'authentication_failed' ? { action: 'failed' as const } : {}),
        },
      };
    }
    case 'payment_intent.requires_action': {
      const intent = event.data.object;
      const nextAction = nextActionOf(intent);
      if (!nextAction) return null;
      return { ...envelope, type: 'charge.requires_action', data: { ...chargeData(intent), nextAction } };
    }
    case 'refund.created':
    case 'refund.updated': {
      const refund = event.data.object;
      if (refund.status !== 'succeeded' || !refund.payment_intent) return null;
      return {
        ...envelope,
        type: 'refund.succeeded',
        data: {
          refundId: refund.id,
          chargeId: idOf(refund.payment_intent),
          amountCents: refund.amount,
          currency: refund.currency.toUpperCase(),
        },
      };
    }
    case 'charge.refunded': {
      // Older endpoints send this instead of refund.*: the newest refund, when listed.
      const charge = event.data.object;
      const refund = charge.refunds?.data[0];
      if (refund?.status !== 'succeeded' || !charge.payment_intent) return null;
      return {
        ...envelope,
        type: 'refund.succeeded',
        data: {
          refundId: refund.id,
          chargeId: idOf(charge.payment_intent),
          amountCents: refund.amount,
          currency: refund.currency.toUpperCase(),
        },
      };
    }
    default:
      // setup_intent.succeeded and the rest: the API's answers already told us.
      return null;
  }
}
