import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type caller,
  createTestApp,
  type SignedUp,
  signUp,
  type TestApp,
  workspaceCalls,
} from '../../../test/harness.js';
import { pdfText } from '../../../test/pdf-text.js';
import { greyPng } from '../../../test/png.js';
import { type Inbox, recipients, startInbox } from '../../../test/smtp.js';

/**
 * A client invoice as a PDF (the workspace's logo, address, payment details, lines and totals) and
 * e-mailed to the client through a real SMTP server, which marks it sent; a refused delivery
 * marks nothing.
 */
let inbox: Inbox;
let t: TestApp;
const ctx = {} as { call: ReturnType<typeof caller> };
let owner: SignedUp;
const { call, ok } = workspaceCalls(ctx, () => `/api/v1/workspaces/${owner.workspaceId}`);

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url, JOBS_ENABLED: 'false' });
  ctx.call = (method, url, cookie, payload) =>
    t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

/** An issued invoice of 2h30 at 80.00 (200.00), 10 % off, VAT 20 %: 216.00. */
async function issuedInvoice() {
  owner = await signUp(t.app);
  await ok(owner, 'PUT', '/logo', { data: greyPng(64, 32).toString('base64') });
  await ok(owner, 'PUT', '/client-invoice-settings', {
    address: 'Sundial Studio\n12 Clock Lane',
    paymentDetails: 'IBAN DE00 1234 5678',
  });
  await ok(owner, 'POST', '/rates', { level: 'workspace', effectiveFrom: '2025-01-01', billableCents: 80_00 });
  const client = await ok(owner, 'POST', '/clients', { name: 'Acme Corp', currency: 'USD', address: '5 Market St' });
  const project = await ok(owner, 'POST', '/projects', { name: 'Website', clientId: client.id });
  await ok(owner, 'POST', '/time-entries', {
    start: '2026-03-02T09:00:00Z',
    duration: '2h30m',
    projectId: project.id,
    billable: true,
  });
  const draft = await ok(owner, 'POST', '/client-invoices', {
    clientId: client.id,
    from: '2026-03-01',
    to: '2026-03-31',
    groupBy: 'project',
    dueOn: '2026-04-15',
  });
  await ok(owner, 'PATCH', `/client-invoices/${draft.id}`, {
    discount: { kind: 'percent', basisPoints: 1000 },
    taxes: [{ name: 'VAT', basisPoints: 2000 }],
    notes: 'Thank you for your business.',
  });
  return ok(owner, 'POST', `/client-invoices/${draft.id}/issue`);
}

describe('client invoice PDF and e-mail', () => {
  it('prints the invoice with the logo, addresses, payment details, lines and totals', async () => {
    const invoice = await issuedInvoice();
    expect(invoice.totalCents).toBe(216_00);
    const response = await call(owner, 'GET', `/client-invoices/${invoice.id}/pdf`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain(`attachment; filename="invoice-${invoice.number}.pdf"`);
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('/Subtype /Image');
    const text = pdfText(pdf);
    for (const shown of [
      `No. ${invoice.number}`,
      'Due 2026-04-15',
      'Sundial Studio',
      '12 Clock Lane',
      'Acme Corp',
      '5 Market St',
      'Website',
      '2.50',
      '$80.00/h',
      '$200.00',
      'Discount (10 %)',
      '-$20.00',
      'VAT 20 %',
      '$36.00',
      '$216.00',
      'IBAN DE00 1234 5678',
      'Thank you for your business.',
    ])
      expect(text).toContain(shown);
  });

  it('e-mails the PDF to the client and marks the invoice sent', async () => {
    const invoice = await issuedInvoice();
    const sent = await ok(owner, 'POST', `/client-invoices/${invoice.id}/send`, { to: ['billing@acme.example'] });
    expect(sent.status).toBe('sent');
    expect(sent.sentAt).not.toBeNull();
    const mail = await inbox.waitFor('billing@acme.example');
    expect(recipients(mail)).toEqual(['billing@acme.example']);
    expect(mail.subject).toMatch(new RegExp(`^Invoice ${invoice.number} from \\S`));
    expect(mail.text).toContain('Total: $216.00');
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`invoice-${invoice.number}.pdf`, 'application/pdf'],
    ]);
    expect(pdfText(mail.attachments[0]?.content as Buffer)).toContain('$216.00');
  });

  it('sends no draft, and refuses a bad address', async () => {
    const invoice = await issuedInvoice();
    await ok(owner, 'POST', `/client-invoices/${invoice.id}/void`);
    const voided = await call(owner, 'POST', `/client-invoices/${invoice.id}/send`, { to: ['a@acme.example'] });
    expect(voided.statusCode).toBe(409);
    const bad = await call(owner, 'POST', `/client-invoices/${invoice.id}/send`, { to: ['not an address'] });
    expect(bad.statusCode).toBe(422);
  });
});

describe('a refused delivery', () => {
  it('is a 502 and leaves the invoice issued', async () => {
    const refusing = await startInbox({ refuseFirst: 5 });
    const own = await createTestApp({ SMTP_URL: refusing.url, JOBS_ENABLED: 'false' });
    try {
      const saved = { t, call: ctx.call };
      t = own;
      ctx.call = (method, url, cookie, payload) =>
        own.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });
      const invoice = await issuedInvoice();
      const response = await call(owner, 'POST', `/client-invoices/${invoice.id}/send`, { to: ['x@acme.example'] });
      expect(response.statusCode).toBe(502);
      expect(response.json().error.code).toBe('mail_failed');
      expect((await ok(owner, 'GET', `/client-invoices/${invoice.id}`)).status).toBe('issued');
      t = saved.t;
      ctx.call = saved.call;
    } finally {
      await own.close();
      await refusing.close();
    }
  });
});
