import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The payments layer (issue 16, platform/payments). `payment_events` is the gateway-neutral
 * record of the signed events already handled, so a redelivered event is handled once. The
 * `payment_sandbox_*` tables are the built-in sandbox gateway's own books, standing in for a card
 * processor's: customers, card tokens (brand, last four digits, expiry and the test card's
 * behaviour only; never the number or the CVC), and its charges, authorisations and refunds,
 * whose unique idempotency key makes a retried charge return the first one's result.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table payment_events (
      id text primary key,
      type text not null,
      received_at timestamptz not null default now()
    );
    create table payment_sandbox_customers (
      id text primary key,
      email text not null,
      name text not null,
      created_at timestamptz not null default now()
    );
    create table payment_sandbox_tokens (
      id text primary key,
      brand text not null,
      last4 text not null check (last4 ~ '^[0-9]{4}$'),
      exp_month integer not null check (exp_month between 1 and 12),
      exp_year integer not null,
      behaviour text not null,
      customer_id text references payment_sandbox_customers (id) on delete cascade,
      off_session_ready boolean not null default false,
      created_at timestamptz not null default now()
    );
    create index payment_sandbox_tokens_customer on payment_sandbox_tokens (customer_id);
    create table payment_sandbox_charges (
      id text primary key,
      kind text not null check (kind in ('charge', 'authorisation', 'refund')),
      idempotency_key text not null,
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null check (currency ~ '^[A-Z]{3}$'),
      status text not null check (status in ('succeeded', 'requires_action', 'declined', 'voided')),
      token_id text references payment_sandbox_tokens (id),
      customer_id text references payment_sandbox_customers (id),
      refunded_charge_id text references payment_sandbox_charges (id),
      off_session boolean not null default false,
      description text not null default '',
      decline_code text,
      action_id text,
      return_path text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint payment_sandbox_charges_idempotency_key unique (idempotency_key),
      constraint payment_sandbox_charges_action_id unique (action_id)
    );
    create index payment_sandbox_charges_refunded on payment_sandbox_charges (refunded_charge_id);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table if exists payment_sandbox_charges;
    drop table if exists payment_sandbox_tokens;
    drop table if exists payment_sandbox_customers;
    drop table if exists payment_events;
  `,
  );
}
