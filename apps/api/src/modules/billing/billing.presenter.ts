import { findCountryName, type InvoiceView, type Tax } from '@sundial/core';
import type { BillingDetailsRow, InvoiceLineRow, InvoiceRow, SubscriptionRow } from './billing.repository.js';

/** A line of a quote or an invoice to be: a charge, or a credit (negative) for unused time. */
export interface QuoteLine {
  kind: 'charge' | 'credit';
  description: string;
  quantity: number;
  unitCents: number;
  amountCents: number;
}

export function taxView(tax: Tax) {
  return { kind: tax.kind, rateBasisPoints: tax.ratePercentBasisPoints, note: tax.note };
}

export function presentDetails(row: BillingDetailsRow) {
  return {
    name: row.name,
    invoiceEmail: row.invoice_email,
    address: row.address,
    city: row.city,
    postalCode: row.postal_code,
    country: row.country,
    countryName: findCountryName(row.country) ?? row.country,
    vatId: row.vat_id,
    isBusiness: row.is_business,
  };
}

export function presentSubscription(row: SubscriptionRow) {
  const scheduled =
    row.scheduled_plan && row.scheduled_cycle && row.scheduled_licenses && row.period_end
      ? {
          plan: row.scheduled_plan,
          cycle: row.scheduled_cycle,
          licenses: row.scheduled_licenses,
          effectiveOn: row.period_end,
        }
      : null;
  return {
    plan: row.plan,
    cycle: row.cycle,
    licenses: row.licenses,
    status: row.status,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    scheduledChange: scheduled,
    card:
      row.card_brand && row.card_last4 && row.card_exp_month && row.card_exp_year
        ? { brand: row.card_brand, last4: row.card_last4, expMonth: row.card_exp_month, expYear: row.card_exp_year }
        : null,
  };
}

export function presentInvoice(row: InvoiceRow, lines: InvoiceLineRow[], creditedCents: number): InvoiceView {
  const gross = Number(row.gross_cents);
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    creditedInvoiceId: row.credited_invoice_id,
    status: row.status,
    issuedAt: new Date(row.issued_at).toISOString(),
    periodStart: row.period_start,
    periodEnd: row.period_end,
    plan: row.plan,
    cycle: row.cycle,
    licenses: row.licenses,
    currency: row.currency,
    country: row.buyer.country,
    tax: { kind: row.tax_kind, rateBasisPoints: row.tax_rate_basis_points, note: row.tax_note },
    netCents: Number(row.net_cents),
    vatCents: Number(row.vat_cents),
    grossCents: gross,
    creditableCents: row.kind === 'invoice' && row.status === 'paid' ? Math.max(0, gross - creditedCents) : 0,
    lines: lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitCents: Number(line.unit_cents),
      amountCents: Number(line.amount_cents),
    })),
  };
}
