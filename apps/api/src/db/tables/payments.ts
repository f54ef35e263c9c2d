import type { Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A signed payment event already handled (platform/payments): a redelivery is skipped. */
export interface PaymentEventsTable {
  id: string;
  type: string;
  received_at: Generated<Date>;
}

/** A customer of the sandbox gateway, standing in for a card processor's customer. */
export interface PaymentSandboxCustomersTable {
  id: string;
  email: string;
  name: string;
  created_at: Generated<Date>;
}

/** A card token of the sandbox gateway: never the number or the CVC. */
export interface PaymentSandboxTokensTable {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** The test card's behaviour (platform/payments/sandbox-cards.ts). */
  behaviour: string;
  /** Set once the token is attached to a customer as a saved payment method. */
  customer_id: string | null;
  /** Set up for charges without the customer present (renewals). */
  off_session_ready: Generated<boolean>;
  created_at: Generated<Date>;
}

export type SandboxChargeKind = 'charge' | 'authorisation' | 'refund';
export type SandboxChargeStatus = 'succeeded' | 'requires_action' | 'declined' | 'voided';

/** A charge, $1.00 authorisation or refund of the sandbox gateway, once per idempotency key. */
export interface PaymentSandboxChargesTable {
  id: string;
  kind: SandboxChargeKind;
  idempotency_key: string;
  /** bigint, read back as a number (db/connection.ts). */
  amount_cents: number;
  currency: string;
  status: SandboxChargeStatus;
  token_id: string | null;
  customer_id: string | null;
  refunded_charge_id: string | null;
  off_session: boolean;
  description: string;
  decline_code: string | null;
  action_id: string | null;
  return_path: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/** Tables of the payments layer. */
export interface PaymentsTables {
  payment_events: PaymentEventsTable;
  payment_sandbox_customers: PaymentSandboxCustomersTable;
  payment_sandbox_tokens: PaymentSandboxTokensTable;
  payment_sandbox_charges: PaymentSandboxChargesTable;
}
