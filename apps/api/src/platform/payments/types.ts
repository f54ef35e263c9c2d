import type { CardBrand } from '@sundial/core';

/**
 * The payments layer's one contract (docs/architecture.md, "Payments"). A gateway moves money
 * for the billing module and knows nothing of plans, invoices or workspaces: it keeps customers,
 * saved cards, charges, $1.00 verifications and refunds, and tells what happened through signed
 * events. Card numbers and CVCs never pass through it: the browser hands them to the gateway's
 * own tokenisation (the sandbox's tokens route, Stripe's Payment Element) and we get a token.
 *
 * Amounts are integer cents with an ISO 4217 currency code beside them. Every call that moves
 * money takes an idempotency key: the same key answers the first call's result without charging
 * again (a process killed mid-charge and retried charges once). Keys are the gateway's, shared by
 * every caller: make them say what they pay for, e.g. `invoice:<invoiceId>:charge`. The same key
 * with another amount, currency, card or kind of call is refused (422 `idempotency_key_reused`).
 */
export interface PaymentGateway {
  readonly name: GatewayName;
  /** The request header its signed events carry (`sundial-signature`, `stripe-signature`). */
  readonly signatureHeader: string;
  /** Where and how the browser tokenises a card for this gateway. */
  clientConfig(): GatewayClientConfig;
  /** A customer to save cards to; keep its id (e.g. on the workspace's subscription). */
  createCustomer(options: CreateCustomerOptions): Promise<{ customerId: string }>;
  /**
   * Saves the card a token stands for to the customer (SetupIntent-style). `usage: 'off_session'`
   * sets it up for charges without the customer present (renewals). A token attaches once.
   * Declined cards are refused here with their decline code (as Stripe refuses them on attach).
   * Throws 404 `payment_token_not_found` for an unknown token, 409 `payment_token_used` for one
   * attached already.
   */
  attachPaymentMethod(options: AttachPaymentMethodOptions): Promise<AttachResult>;
  /**
   * The $1.00 verification: authorises 100 cents on the card and voids the authorisation at once,
   * on-session. Record `authorisationId` and its `voided` state. A card that asks for the second
   * step answers `requires_action`; after it, `confirmVerification` says how it ended.
   */
  verifyCard(options: VerifyCardOptions): Promise<VerificationResult>;
  /** Charges a saved card. Throws 404 `payment_method_not_found` if the card is not the customer's. */
  charge(options: ChargeOptions): Promise<ChargeResult>;
  /**
   * A charge's state now; after `requires_action`, once the customer has been through the second
   * step: `succeeded`, `declined` (`authentication_failed`) or still `requires_action`.
   */
  confirmCharge(chargeId: string): Promise<ChargeResult>;
  /** `confirmCharge` for a $1.00 verification. */
  confirmVerification(authorisationId: string): Promise<VerificationResult>;
  /**
   * Gives back part or all of a succeeded charge (credit notes). Throws 404 `charge_not_found`,
   * 409 `charge_not_refundable` (not succeeded), 422 `refund_exceeds_charge` (more than is left).
   */
  refund(options: RefundOptions): Promise<RefundResult>;
  /**
   * Checks a delivered event's signature header (the gateway's scheme; see signature.ts for the
   * sandbox's) against the raw body at `now`, and parses the event. Throws 400
   * `invalid_signature` when missing, wrong or older than five minutes, 400 `invalid_event`
   * when the signed body is not an event. `null` for a genuine event of a kind we do not act on
   * (the route answers 200 so the gateway does not send it again).
   */
  verifyEvent(rawBody: string, signatureHeader: string | undefined, now: Date): PaymentEvent | null;
}

export const GATEWAY_NAMES = ['sandbox', 'stripe'] as const;
export type GatewayName = (typeof GATEWAY_NAMES)[number];

export interface GatewayClientConfig {
  gateway: GatewayName;
  /** The sandbox's tokenisation route (POST the card there, get `{ id }` back). */
  tokensPath?: string;
  /** Stripe's publishable key (`pk_…`), for Stripe.js and its Payment Element. */
  publishableKey?: string;
}

export interface CreateCustomerOptions {
  email: string;
  name: string;
}

export interface AttachPaymentMethodOptions {
  customerId: string;
  /** The token the browser got from the gateway's tokenisation. */
  token: string;
  usage: 'on_session' | 'off_session';
}

/** A saved card as the billing pages show it. */
export interface PaymentMethod {
  paymentMethodId: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  /** Set up for off-session charges (renewals). */
  offSessionReady: boolean;
}

export type AttachResult = { status: 'attached'; paymentMethod: PaymentMethod } | (Decline & { status: 'declined' });

export const DECLINE_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
  'authentication_failed',
] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];

/** What a person is told for each decline (the same words as Stripe's test mode where it has them). */
export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',
  authentication_failed: 'We are unable to authenticate your payment method. Please choose a different card.',
};

export interface Decline {
  declineCode: DeclineCode;
  /** `DECLINE_MESSAGES[declineCode]`, ready to show. */
  message: string;
}

/** Where the browser goes for the second step (3-D Secure style). */
export interface NextAction {
  id: string;
  /** An absolute URL on PUBLIC_URL (sandbox) or the processor's page; send the browser or an e-mail there. */
  url: string;
}

export interface ChargeOptions {
  customerId: string;
  paymentMethodId: string;
  /** Integer cents, at least 1. */
  amountCents: number;
  /** ISO 4217, upper case: `USD`, `EUR`. */
  currency: string;
  /** At most 200 characters; see the contract above. */
  idempotencyKey: string;
  /** Shown on the processor's records and the second-step page. */
  description: string;
  /** true for renewals and retries the customer is not present for. */
  offSession: boolean;
  /** A path on our site (starting with one `/`) the browser returns to after the second step. */
  returnPath?: string;
}

export type ChargeResult =
  | { status: 'succeeded'; chargeId: string; amountCents: number; currency: string }
  | { status: 'requires_action'; chargeId: string; nextAction: NextAction }
  | (Decline & { status: 'declined'; chargeId: string });

export interface VerifyCardOptions {
  customerId: string;
  paymentMethodId: string;
  idempotencyKey: string;
  /** The currency of the $1.00 (100 cents); `USD` unless given. */
  currency?: string;
  returnPath?: string;
}

/** The $1.00 verification amount, in cents. */
export const VERIFICATION_CENTS = 100;

export type VerificationResult =
  | { status: 'voided'; authorisationId: string; amountCents: number; currency: string }
  | { status: 'requires_action'; authorisationId: string; nextAction: NextAction }
  | (Decline & { status: 'declined'; authorisationId: string });

export interface RefundOptions {
  chargeId: string;
  amountCents: number;
  idempotencyKey: string;
  reason?: string;
}

export interface RefundResult {
  status: 'succeeded';
  refundId: string;
  chargeId: string;
  amountCents: number;
  currency: string;
}

/** What each event says; `object` tells a charge from a $1.00 verification. */
export interface PaymentEventMap {
  /** Money taken (a charge) or a verification authorised and voided; `action` when after the second step. */
  'charge.succeeded': ChargeEventData & { action?: 'completed' };
  /** Declined, on the first try or because the second step failed (`action: 'failed'`). */
  'charge.failed': ChargeEventData & Decline & { action?: 'failed' };
  /** Waiting for the customer's second step. */
  'charge.requires_action': ChargeEventData & { nextAction: NextAction };
  'refund.succeeded': { refundId: string; chargeId: string; amountCents: number; currency: string };
}

export interface ChargeEventData {
  chargeId: string;
  object: 'charge' | 'authorisation';
  customerId: string;
  amountCents: number;
  currency: string;
  offSession: boolean;
}

export type PaymentEventType = keyof PaymentEventMap;

/** A verified event from the gateway. `id` is unique per event and the same on every redelivery. */
export type PaymentEvent<T extends PaymentEventType = PaymentEventType> = {
  [K in T]: { id: string; type: K; created: string; data: PaymentEventMap[K] };
}[T];
