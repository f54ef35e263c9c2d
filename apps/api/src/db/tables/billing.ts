import type { BillingCycle, PlanId } from '@sundial/core';
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A calendar day, 'YYYY-MM-DD' (the repository selects it with to_char). */
type Day = string;
/** A bigint of cents (the repository reads it back as a number). */
type Cents = number;
/** JSON written as text, read as the parsed value. */
type Json<T> = ColumnType<T, string, string>;

/** The buyer of a workspace's invoices (modules/billing). */
export interface BillingDetailsTable {
  workspace_id: string;
  name: string;
  invoice_email: string | null;
  address: string;
  city: string;
  postal_code: string;
  country: string;
  vat_id: string | null;
  is_business: boolean;
  updated_by_user_id: string | null;
  updated_at: Timestamp;
}

export type SubscriptionStatus = 'active' | 'past_due' | 'canceled' | 'none';

/** A workspace's subscription: what it pays for, until when, and the card renewals charge. */
export interface SubscriptionsTable {
  workspace_id: string;
  plan: PlanId;
  cycle: BillingCycle;
  licenses: number;
  period_start: Day | null;
  period_end: Day | null;
  anchor_day: number | null;
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  scheduled_plan: PlanId | null;
  scheduled_cycle: BillingCycle | null;
  scheduled_licenses: number | null;
  gateway_customer_id: string | null;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  /** Renewal retries that failed since the period's end (dunning); 0 when none. */
  dunning_attempts: Generated<number>;
  /** When a past-due renewal is tried again; null when none is planned. */
  next_retry_at: Timestamp | null;
  /** The last error of the renewals job for this workspace (retried on its next run); null once one goes through. */
  renewal_error: string | null;
  renewal_error_at: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

/** A billing e-mail sent once per workspace and key ("receipt:<invoice>", "trial-ending"). */
export interface BillingMailsTable {
  workspace_id: string;
  key: string;
  sent_at: Generated<Date>;
}

/** The last number given in a series of invoice numbers ("SUN-2026"). */
export interface InvoiceCountersTable {
  series: string;
  last_number: number;
}

/** The seller as printed on an invoice when it was issued. */
export interface SellerSnapshot {
  name: string;
  addressLines: string[];
  country: string;
  vatId: string | null;
  email: string;
}

/** The buyer as printed on an invoice when it was issued. */
export interface BuyerSnapshot {
  name: string;
  invoiceEmail: string | null;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  vatId: string | null;
  isBusiness: boolean;
}

export type InvoiceKind = 'invoice' | 'credit_note';
export type InvoiceStatus = 'open' | 'paid' | 'void';
export type TaxKind = 'standard' | 'reverse_charge' | 'none';

/** An invoice or a credit note; never updated once issued (but for its status). */
export interface InvoicesTable {
  id: string;
  workspace_id: string;
  number: string;
  kind: InvoiceKind;
  credited_invoice_id: string | null;
  status: InvoiceStatus;
  issued_at: Timestamp;
  period_start: Day | null;
  period_end: Day | null;
  plan: PlanId;
  cycle: BillingCycle;
  licenses: number;
  currency: string;
  seller: Json<SellerSnapshot>;
  buyer: Json<BuyerSnapshot>;
  tax_kind: TaxKind;
  tax_rate_basis_points: number;
  tax_note: string;
  net_cents: Cents;
  vat_cents: Cents;
  gross_cents: Cents;
  /** The gateway's charge (an invoice) or refund (a credit note). */
  charge_id: string | null;
  idempotency_key: string;
  /** Why a credit note was issued. */
  reason: string | null;
  created_at: Generated<Date>;
}

export interface InvoiceLinesTable {
  invoice_id: string;
  position: number;
  description: string;
  quantity: number;
  unit_cents: Cents;
  amount_cents: Cents;
}

/** `superseded`: left open past its time, replaced by a later checkout of the workspace. */
export type CheckoutStatus = 'pending' | 'requires_action' | 'succeeded' | 'declined' | 'superseded';

/** One checkout, by its Idempotency-Key: retried or resumed, it charges once. */
export interface CheckoutAttemptsTable {
  id: string;
  workspace_id: string;
  user_id: string | null;
  idempotency_key: string;
  request_hash: string;
  terms: Json<unknown>;
  quote: Json<unknown>;
  status: CheckoutStatus;
  payment_method: Json<unknown> | null;
  charge_id: string | null;
  next_action_url: string | null;
  decline_message: string | null;
  invoice_id: string | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export type CardChangeStatus = 'pending' | 'requires_action' | 'saved' | 'declined';

/** A replacement of the saved card, once per (workspace, token). */
export interface CardChangesTable {
  id: string;
  workspace_id: string;
  user_id: string | null;
  token: string;
  status: CardChangeStatus;
  /** The attached card (PaymentMethod), before and after its verification. */
  payment_method: Json<unknown> | null;
  authorisation_id: string | null;
  next_action_url: string | null;
  decline_message: string | null;
  /** How retrying the past-due renewal on the new card went (null when none was due). */
  renewal: Json<unknown> | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface BillingTables {
  billing_details: BillingDetailsTable;
  subscriptions: SubscriptionsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  checkout_attempts: CheckoutAttemptsTable;
  billing_mails: BillingMailsTable;
  card_changes: CardChangesTable;
}
