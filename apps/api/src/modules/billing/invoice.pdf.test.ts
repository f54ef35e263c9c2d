import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NAMES, pdfText } from '../../../test/pdf-text.js';
import type { InvoiceRow } from './billing.repository.js';
import { writeInvoicePdf } from './invoice.pdf.js';

describe('the invoice PDF', () => {
  it("prints the parties' names as written and six-figure amounts whole", async () => {
    const invoice = {
      number: 'SD-2026-000042',
      kind: 'invoice',
      issued_at: new Date('2026-11-02T10:00:00Z'),
      status: 'paid',
      seller: {
        name: 'Sundial GmbH',
        addressLines: ['Uhrweg 1', '10115 Berlin'],
        country: 'DE',
        vatId: 'DE123456789',
        email: 'billing@sundial.example',
      },
      buyer: {
        name: NAMES.join(' / '),
        address: 'ul. Piotrkowska 12',
        postalCode: '90-001',
        city: 'Łódź',
        country: 'PL',
        vatId: 'PL1234567890',
        invoiceEmail: 'faktury@lodz.example',
      },
      plan: 'business',
      cycle: 'yearly',
      licenses: 1500,
      period_start: '2026-11-02',
      period_end: '2027-11-01',
      tax_kind: 'standard',
      tax_rate_basis_points: 2300,
      net_cents: 125_881_00,
      vat_cents: 28_952_63,
      gross_cents: 154_833_63,
      tax_note: 'Zapłacono przelewem. Ευχαριστούμε! 谢谢',
      reason: null,
      currency: 'USD',
    } as unknown as InvoiceRow;
    const pdf = await writeInvoicePdf(
      invoice,
      [{ description: 'Business plan, 1500 licenses', quantity: 1500, unit_cents: 83_92, amount_cents: 125_881_00 }],
      null,
      { dateFormat: 'MM/DD/YYYY', timeFormat: '12h', timeZone: 'Pacific/Auckland' },
    );
    if (process.env.EXPORT_DUMP) writeFileSync(`${process.env.EXPORT_DUMP}/invoice.pdf`, pdf);
    const text = pdfText(pdf);
    // The buyer's name wraps and changes face: its pieces are separate runs of text.
    const joined = text.split('\n').join('');
    for (const name of NAMES) expect(joined).toContain(name);
    for (const figure of ['$125,881.00', '$28,952.63', '$154,833.63', '$83.92', 'Łódź', 'Ευχαριστούμε', '谢谢'])
      expect(text).toContain(figure);
    expect(text).not.toMatch(/[?…]/);
    // The downloader's date format and zone (issued 10:00 UTC is 23:00 in Auckland, the same day).
    expect(joined).toContain('Issued 11/02/2026');
    expect(joined).toContain('11/02/2026 to 11/01/2027');
  });
});
