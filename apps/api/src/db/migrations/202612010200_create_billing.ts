import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Subscription billing (issue 16, modules/billing). Per workspace: the buyer's details for future
 * invoices, the subscription (terms, current period as calendar days, status, a change scheduled
 * for the period's end, and the gateway's customer and saved card, shown by brand and last four
 * digits only), and each checkout attempt, whose idempotency key makes a retried or resumed
 * checkout charge once. Invoices and credit notes keep the seller and buyer as they were when
 * issued (JSON snapshots, never updated) and take their number from `invoice_counters`: the
 * counter row is updated inside the transaction that issues the invoice, so it stays locked until
 * commit and a rolled-back checkout leaves no gap. Money is integer cents; a credit note's amounts
 * are negative.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table billing_details (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      name text not null,
      invoice_email text,
      address text not null,
      city text not null,
      postal_code text not null,
      country text not null check (country ~ '^[A-Z]{2}$'),
      vat_id text,
      is_business boolean not null default false,
      updated_by_user_id uuid references users (id) on delete set null,
      updated_at timestamptz not null default now()
    );
    create table subscriptions (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      plan text not null check (plan in ('free', 'basic', 'pro', 'enterprise')),
      cycle text not null check (cycle in ('monthly', 'annual')),
      licenses integer not null check (licenses between 1 and 999),
      period_start date,
      period_end date,
      anchor_day integer check (anchor_day between 1 and 31),
      status text not null default 'none' check (status in ('active', 'past_due', 'canceled', 'none')),
      cancel_at_period_end boolean not null default false,
      scheduled_plan text check (scheduled_plan in ('free', 'basic', 'pro')),
      scheduled_cycle text check (scheduled_cycle in ('monthly', 'annual')),
      scheduled_licenses integer check (scheduled_licenses between 1 and 999),
      gateway_customer_id text,
      payment_method_id text,
      card_brand text,
      card_last4 text check (card_last4 ~ '^[0-9]{4}$'),
      card_exp_month integer check (card_exp_month between 1 and 12),
      card_exp_year integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint subscriptions_period check (period_end is null or period_end > period_start)
    );
    create table invoice_counters (
      series text primary key,
      last_number integer not null check (last_number >= 0)
    );
    create table invoices (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      number text not null,
      kind text not null check (kind in ('invoice', 'credit_note')),
      credited_invoice_id uuid references invoices (id),
      status text not null check (status in ('open', 'paid', 'void')),
      issued_at timestamptz not null,
      period_start date,
      period_end date,
      plan text not null,
      cycle text not null,
      licenses integer not null,
      currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
      seller jsonb not null,
      buyer jsonb not null,
      tax_kind text not null check (tax_kind in ('standard', 'reverse_charge', 'none')),
      tax_rate_basis_points integer not null check (tax_rate_basis_points >= 0),
      tax_note text not null,
      net_cents bigint not null,
      vat_cents bigint not null,
      gross_cents bigint not null,
      charge_id text,
      idempotency_key text not null,
      reason text,
      created_at timestamptz not null default now(),
      constraint invoices_number unique (number),
      constraint invoices_idempotency_key unique (idempotency_key),
      constraint invoices_credit_note check ((kind = 'credit_note') = (credited_invoice_id is not null)),
      constraint invoices_totals check (gross_cents = net_cents + vat_cents)
    );
    create index invoices_workspace on invoices (workspace_id, issued_at desc);
    create index invoices_credited on invoices (credited_invoice_id) where credited_invoice_id is not null;
    create table invoice_lines (
      invoice_id uuid not null references invoices (id) on delete cascade,
      position integer not null,
      description text not null,
      quantity integer not null,
      unit_cents bigint not null,
      amount_cents bigint not null,
      primary key (invoice_id, position)
    );
    create table checkout_attempts (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid references users (id) on delete set null,
      idempotency_key text not null,
      request_hash text not null,
      terms jsonb not null,
      quote jsonb not null,
      status text not null check (status in ('pending', 'requires_action', 'succeeded', 'declined')),
      payment_method jsonb,
      charge_id text,
      next_action_url text,
      decline_message text,
      invoice_id uuid references invoices (id),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint checkout_attempts_key unique (workspace_id, idempotency_key)
    );
    create index checkout_attempts_charge on checkout_attempts (charge_id) where charge_id is not null;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop table if exists checkout_attempts;
    drop table if exists invoice_lines;
    drop table if exists invoices;
    drop table if exists invoice_counters;
    drop table if exists subscriptions;
    drop table if exists billing_details;
  `,
  );
}
