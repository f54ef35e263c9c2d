import {
  type ClientInvoiceLineView,
  type ClientInvoiceSettingsView,
  type ClientInvoiceSummaryView,
  type ClientInvoiceView,
  formatExchangeRate,
  invoiceMoney,
  lineHundredths,
} from '@sundial/core';
import type { InvoiceRow, LineRow } from './client-invoices.repository.js';

export const presentLine = (line: LineRow): ClientInvoiceLineView => ({
  kind: line.kind,
  description: line.description,
  seconds: line.seconds,
  hundredths: line.seconds === null ? null : lineHundredths(line.seconds),
  rateCents: line.rate_cents,
  amountCents: line.amount_cents,
});

export const moneyOf = (lines: readonly LineRow[], invoice: Pick<InvoiceRow, 'discount' | 'taxes'>) =>
  invoiceMoney(
    lines.map((l) => l.amount_cents),
    invoice.discount,
    invoice.taxes,
  );

export function presentSummary(row: InvoiceRow): ClientInvoiceSummaryView {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    clientId: row.client_id,
    clientName: row.client_name,
    currency: row.currency,
    periodFrom: row.period_from,
    periodTo: row.period_to,
    issuedOn: row.issued_on,
    dueOn: row.due_on,
    paidOn: row.paid_on,
    totalCents: row.total_cents,
    createdAt: row.created_at.toISOString(),
  };
}

/** The stated conversion as printed, or null when the invoice is in the workspace currency. */
export const presentConversion = (
  row: Pick<
    InvoiceRow,
    'rate_currency' | 'currency' | 'exchange_rate_micros' | 'exchange_rate_on' | 'exchange_rate_source'
  >,
) =>
  row.exchange_rate_micros === null || row.exchange_rate_on === null || row.exchange_rate_source === null
    ? null
    : {
        from: row.rate_currency,
        currency: row.currency,
        rate: formatExchangeRate(row.exchange_rate_micros),
        on: row.exchange_rate_on,
        source: row.exchange_rate_source,
      };

export interface InvoiceEntryRow {
  id: string;
  user_name: string;
  start_at: Date;
  day: string;
  seconds: number;
  rate_cents: number | null;
  amount_cents: number;
  note: string;
  project_name: string | null;
  task_name: string | null;
}

export function presentInvoice(row: InvoiceRow, lines: LineRow[], entries: InvoiceEntryRow[]): ClientInvoiceView {
  return {
    ...presentSummary(row),
    groupBy: row.group_by,
    notes: row.notes,
    discount: row.discount,
    sentAt: row.sent_at ? row.sent_at.toISOString() : null,
    rateCurrency: row.rate_currency,
    conversion: presentConversion(row),
    voidedAt: row.voided_at ? row.voided_at.toISOString() : null,
    voidedBy: row.voided_at ? (row.voided_by ?? null) : null,
    lines: lines.map(presentLine),
    money: moneyOf(lines, row),
    entries: entries.map((e) => ({
      id: e.id,
      userName: e.user_name,
      start: e.start_at.toISOString(),
      day: e.day,
      seconds: e.seconds,
      rateCents: e.rate_cents,
      amountCents: e.amount_cents,
      note: e.note,
      project: e.project_name,
      task: e.task_name,
    })),
  };
}

export const presentSettings = (row: {
  number_pattern: string;
  next_number: number;
  address: string;
  payment_details: string;
  round_as_reports: boolean;
}): ClientInvoiceSettingsView => ({
  numberPattern: row.number_pattern,
  nextNumber: row.next_number,
  address: row.address,
  paymentDetails: row.payment_details,
  roundAsReports: row.round_as_reports,
});
