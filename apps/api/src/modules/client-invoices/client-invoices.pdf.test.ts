import { writeFileSync } from 'node:fs';
import type { ClientInvoiceView } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { NAMES, pdfText } from '../../../test/pdf-text.js';
import { writeClientInvoicePdf } from './client-invoices.pdf.js';

describe('the client invoice PDF', () => {
  it('prints names in every script as written and large hours and amounts whole', async () => {
    const invoice = {
      number: 'INV-0042',
      status: 'sent',
      clientName: 'Łódź Sp. z o.o.',
      currency: 'USD',
      periodFrom: '2026-01-01',
      periodTo: '2026-12-31',
      issuedOn: '2027-01-02',
      dueOn: '2027-01-16',
      paidOn: null,
      notes: 'Děkujeme. Спасибо. 감사합니다.',
      discount: null,
      lines: NAMES.map((name, k) => ({
        description: `${name}: consulting`,
        hundredths: 124_117 + k * 100,
        rateCents: 101_42,
        amountCents: 125_881_17 + k,
      })),
      money: {
        subtotalCents: 1_007_049_364,
        discountCents: 0,
        taxes: [{ name: 'KDV', basisPoints: 2000, amountCents: 201_409_873 }],
        totalCents: 1_208_459_237,
      },
    } as unknown as ClientInvoiceView;
    const pdf = await writeClientInvoicePdf(
      invoice,
      'ul. Piotrkowska 12\n90-001 Łódź',
      {
        name: 'Zoë Ψ Studio 張偉',
        logo: null,
        address: 'İstiklal Cd. 5, İstanbul',
        paymentDetails: 'IBAN TR00 0000 0000',
      },
      { dateFormat: 'DD.MM.YYYY', timeFormat: '24h', timeZone: 'Europe/Istanbul' },
    );
    if (process.env.EXPORT_DUMP) writeFileSync(`${process.env.EXPORT_DUMP}/client-invoice.pdf`, pdf);
    const text = pdfText(pdf);
    const joined = text.split('\n').join('');
    for (const name of NAMES) expect(text).toContain(name);
    for (const shown of ['Zoë Ψ Studio 張偉', 'İstiklal Cd. 5, İstanbul', 'Děkujeme. Спасибо. 감사합니다.'])
      expect(joined).toContain(shown);
    for (const figure of ['1241.17', '$125,881.17', '$101.42/h', '$10,070,493.64', '$2,014,098.73', '$12,084,592.37'])
      expect(text).toContain(figure);
    expect(text).not.toMatch(/[?…]/);
    // Its dates in the profile format of whoever makes the file (issue 30).
    for (const date of ['Issued 02.01.2027', 'Due 16.01.2027', 'Period 01.01.2026 to 31.12.2026'])
      expect(joined).toContain(date);
  });
});
