import type { ClientInvoiceStatus, InvoiceDiscount, InvoiceGrouping, InvoiceTax } from '@sundial/core';
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A calendar day: written as YYYY-MM-DD, read through `to_char` in the repository. */
type Day = ColumnType<string, string, string>;
type Json<T> = ColumnType<T, string, string>;

export interface ClientInvoiceSettingsTable {
  workspace_id: string;
  number_pattern: Generated<string>;
  next_number: Generated<number>;
  address: Generated<string>;
  payment_details: Generated<string>;
  /** Invoices round each entry's time as the reports do (the workspace rounding); on unless turned off. */
  round_as_reports: Generated<boolean>;
  updated_at: Timestamp;
}

export interface ClientInvoicesTable {
  id: string;
  workspace_id: string;
  client_id: string;
  status: Generated<ClientInvoiceStatus>;
  /** null while a draft */
  number: string | null;
  currency: string;
  period_from: Day;
  period_to: Day;
  group_by: InvoiceGrouping;
  notes: Generated<string>;
  discount: Json<InvoiceDiscount | null>;
  taxes: Json<InvoiceTax[]>;
  total_cents: number;
  due_on: Day | null;
  issued_on: Day | null;
  sent_at: Date | null;
  paid_on: Day | null;
  voided_at: Date | null;
  client_name: string;
  client_address: Generated<string>;
  seller_address: Generated<string>;
  payment_details: Generated<string>;
  created_by_user_id: string | null;
  /** The workspace currency the rates were in when drafted (null on invoices from before: then `currency`). */
  rate_currency: string | null;
  /** A stated conversion from rate_currency to currency: millionths (1 rate_currency = micros / 1e6 currency), day, source. */
  exchange_rate_micros: ColumnType<string | null, number | null | undefined, number | null>;
  exchange_rate_on: Day | null;
  exchange_rate_source: string | null;
  voided_by_user_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ClientInvoiceLinesTable {
  workspace_id: string;
  invoice_id: string;
  position: number;
  kind: 'time' | 'fixed';
  description: string;
  seconds: number | null;
  rate_cents: number | null;
  amount_cents: number;
}

/** Which invoice each entry is on (one at most), with the seconds and amount it was invoiced for. */
export interface ClientInvoiceEntriesTable {
  entry_id: string;
  workspace_id: string;
  invoice_id: string;
  seconds: number;
  rate_cents: number | null;
  amount_cents: number;
}

export interface ClientInvoicesTables {
  client_invoice_settings: ClientInvoiceSettingsTable;
  client_invoices: ClientInvoicesTable;
  client_invoice_lines: ClientInvoiceLinesTable;
  client_invoice_entries: ClientInvoiceEntriesTable;
}
