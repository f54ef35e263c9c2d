import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Client invoice figures (issue 30, decision 0019): whether invoices round time as reports do (on
 * unless turned off), the workspace currency an invoice's rates were in and, when the operator
 * converted it, the stated rate (millionths: 1 rate_currency = rate / 1e6 currency), its day and
 * source, printed on the invoice; and who voided it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table client_invoice_settings add column round_as_reports boolean not null default true;
    alter table client_invoices
      add column rate_currency text check (rate_currency ~ '^[A-Z]{3}$'),
      add column exchange_rate_micros bigint check (exchange_rate_micros > 0),
      add column exchange_rate_on date,
      add column exchange_rate_source text,
      add column voided_by_user_id uuid,
      add constraint client_invoices_conversion check (
        (exchange_rate_micros is null) = (exchange_rate_on is null)
        and (exchange_rate_micros is null) = (exchange_rate_source is null));
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table client_invoices drop constraint client_invoices_conversion,
      drop column voided_by_user_id, drop column exchange_rate_source, drop column exchange_rate_on,
      drop column exchange_rate_micros, drop column rate_currency;
    alter table client_invoice_settings drop column round_as_reports;
  `,
  );
}
