import {
  type ClientInvoiceLineView,
  type ClientInvoiceSettingsView,
  type ClientInvoiceSummaryView,
  type ClientInvoiceView,
  invoiceMoney,
} from '@sundial/core';
import type { InvoiceRow, LineRow } from './client-invoices.repository.js';

export const presentLine = (line: LineRow): ClientInvoiceLineView => ({
  kind: line.kind,
  description: line.description,
  seconds: line.seconds,
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

export interface InvoiceEntryRow {
  id: string;
  user_name: string;
  start_at: Date;
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
    lines: lines.map(presentLine),
    money: moneyOf(lines, row),
    entries: entries.map((e) => ({
      id: e.id,
      userName: e.user_name,
      start: e.start_at.toISOString(),
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
}): ClientInvoiceSettingsView => ({
  numberPattern: row.number_pattern,
  nextNumber: row.next_number,
  address: row.address,
  paymentDetails: row.payment_details,
});
