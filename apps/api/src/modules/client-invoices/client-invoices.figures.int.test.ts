import { lineAmountCents } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { auditTrail, type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { pdfText } from '../../../test/pdf-text.js';

/**
 * What an invoice prints is true (issue 30, decision 0019): its days are the report zone's, its time
 * is rounded as the reports round it, each line's quantity times its unit price is its amount, its
 * money is in the workspace currency unless converted at a stated rate, and voiding says who did it.
 */
const ctx = useTestApp();
const { call, ok } = workspaceCalls(ctx, () => `/api/v1/workspaces/${owner.workspaceId}`);

let owner: SignedUp;
const MAY = { from: '2026-05-01', to: '2026-05-31' };

interface Line {
  kind: string;
  description: string;
  seconds: number | null;
  hundredths: number | null;
  rateCents: number | null;
  amountCents: number;
}

/** A workspace billing 100.00 an hour (USD) in `zone`, with a client (its preferred currency EUR) and one project. */
async function world(zone = 'UTC', rounding: object = {}) {
  owner = await signUp(ctx.t.app);
  await ok(owner, 'PATCH', '/time-settings', { reportTimeZone: zone, ...rounding });
  await ok(owner, 'POST', '/rates', { level: 'workspace', effectiveFrom: '2025-01-01', billableCents: 100_00 });
  const client = (await ok(owner, 'POST', '/clients', { name: 'Acme', currency: 'EUR' })).id as string;
  const project = (await ok(owner, 'POST', '/projects', { name: 'Website', clientId: client })).id as string;
  const entry = async (start: string, duration: string) =>
    (await ok(owner, 'POST', '/time-entries', { start, duration, billable: true, projectId: project })).id as string;
  return { client, project, entry };
}

const csv = async (query: string) => {
  const response = await call(owner, 'GET', `/reports/export?format=csv&${query}`);
  expect(response.statusCode).toBe(200);
  return response.body
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
    .map((row) => row.split(','));
};

describe('client invoice figures', () => {
  it('dates each line and entry on the report zone’s day (Auckland 10:00 on 5 May is 5 May)', async () => {
    const w = await world('Pacific/Auckland');
    await w.entry('2026-05-04T22:00:00Z', '1h'); // 10:00 on 5 May in Auckland (UTC+12)
    const draft = await ok(owner, 'POST', '/client-invoices', { clientId: w.client, ...MAY, groupBy: 'entry' });
    expect(draft.lines.map((l: Line) => l.description)).toEqual(['2026-05-05 · Website']);
    expect(draft.entries.map((e: { day: string }) => e.day)).toEqual(['2026-05-05']);
  });

  it('rounds as the reports do by default, so the invoice, the Billable report and its export agree', async () => {
    const w = await world('UTC', { roundingMode: 'up', roundingMinutes: 15 });
    await w.entry('2026-05-05T10:00:00Z', '7m');
    await w.entry('2026-05-06T10:00:00Z', '52m');
    const body = { clientId: w.client, ...MAY, groupBy: 'project' };
    const preview = await ok(owner, 'POST', '/client-invoices/preview', body);
    expect(preview.lines).toEqual([
      expect.objectContaining({ seconds: 15 * 60 + 60 * 60, hundredths: 125, rateCents: 100_00, amountCents: 125_00 }),
    ]);
    const report = `kind=billable&preset=custom&from=${MAY.from}&to=${MAY.to}&clients=${w.client}&groupBy=project&measures=billableSeconds,billableAmount`;
    const summary = await ok(owner, 'GET', `/reports/summary?${report.replace('kind=billable&', '')}`);
    expect(summary.totals).toEqual({ billableSeconds: 4500, billableAmount: 125_00 });
    const rows = await csv(report.replace('kind=billable', 'kind=summary'));
    expect(rows.at(-1)).toEqual(['Total', '1:15:00', '1.25', '125.00']);
    const draft = await ok(owner, 'POST', '/client-invoices', body);
    expect(draft.totalCents).toBe(125_00);

    // Turned off, an invoice bills the time as tracked: 59 minutes.
    expect((await call(owner, 'DELETE', `/client-invoices/${draft.id}`)).statusCode).toBe(204);
    const settings = await ok(owner, 'PUT', '/client-invoice-settings', { roundAsReports: false });
    expect(settings.roundAsReports).toBe(false);
    const exact = await ok(owner, 'POST', '/client-invoices/preview', body);
    expect(exact.lines[0]).toMatchObject({ seconds: 59 * 60, hundredths: 98, amountCents: 98_00 });
  });

  it('prints lines whose quantity times unit price is the amount, to the cent, one line per rate', async () => {
    const w = await world();
    // 27 h 0 min 24 s at 120.00: 27.01 h x 120.00 = 3,241.20 (not the 3,240.80 of the exact seconds).
    await ok(owner, 'POST', '/rates', { level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 120_00 });
    for (const day of ['01', '02', '03']) await w.entry(`2026-05-${day}T08:00:00Z`, '9h0m8s');
    // A second rate on the same project gets a line of its own.
    const other = await w.entry('2026-05-04T08:00:00Z', '1h20m');
    await ok(owner, 'PATCH', `/time-entries/${other}`, { billable: true });
    await ctx.t.db.updateTable('time_entries').set({ billable_rate_cents: 99_99 }).where('id', '=', other).execute();
    const draft = await ok(owner, 'POST', '/client-invoices', { clientId: w.client, ...MAY, groupBy: 'project' });
    expect(draft.lines).toEqual([
      { kind: 'time', description: 'Website', seconds: 4800, hundredths: 133, rateCents: 99_99, amountCents: 132_99 },
      {
        kind: 'time',
        description: 'Website',
        seconds: 27 * 3600 + 24,
        hundredths: 2701,
        rateCents: 120_00,
        amountCents: 3241_20,
      },
    ]);
    for (const line of draft.lines as Line[])
      expect(line.amountCents).toBe(lineAmountCents(line.rateCents ?? 0, line.hundredths ?? 0));
    expect(draft.totalCents).toBe(3374_19);
    const pdf = await call(owner, 'GET', `/client-invoices/${draft.id}/pdf`);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('27.01');
    expect(text).toContain('$120.00/h');
    expect(text).toContain('$3,241.20');
    expect(text).toContain('1.33');
    expect(text).toContain('$132.99');
  });

  it('is in the workspace currency whatever the client’s, or converted at a stated rate it prints', async () => {
    const w = await world();
    await w.entry('2026-05-05T10:00:00Z', '9h30m');
    await w.entry('2026-05-06T10:00:00Z', '9h30m');
    await w.entry('2026-05-07T10:00:00Z', '9h30m');
    const body = { clientId: w.client, ...MAY, groupBy: 'project' };
    const plain = await ok(owner, 'POST', '/client-invoices/preview', body);
    expect(plain).toMatchObject({ currency: 'USD', rateCurrency: 'USD', conversion: null });
    expect(plain.money.totalCents).toBe(2850_00);

    const same = await call(owner, 'POST', '/client-invoices/preview', {
      ...body,
      conversion: { currency: 'USD', rate: '1', on: '2026-05-31', source: 'ECB' },
    });
    expect(same.statusCode).toBe(422);
    const badRate = await call(owner, 'POST', '/client-invoices/preview', {
      ...body,
      conversion: { currency: 'EUR', rate: '0,92', on: '2026-05-31', source: 'ECB' },
    });
    expect(badRate.statusCode).toBe(422);
    expect(badRate.json().error.fields['conversion.rate']).toMatch(/exchange rate/);

    const conversion = { currency: 'EUR', rate: '0.9234', on: '2026-05-31', source: 'ECB reference rate' };
    const converted = await ok(owner, 'POST', '/client-invoices', { ...body, conversion });
    expect(converted).toMatchObject({
      currency: 'EUR',
      rateCurrency: 'USD',
      conversion: { from: 'USD', ...conversion },
    });
    // 100.00 USD/h is 92.34 EUR/h; 28.50 h x 92.34 = 2,631.69.
    expect(converted.lines).toEqual([
      expect.objectContaining({ hundredths: 2850, rateCents: 92_34, amountCents: 2631_69 }),
    ]);
    expect(converted.entries[0].amountCents).toBe(950_00); // entries stay in USD, as the reports count them
    const text = pdfText((await call(owner, 'GET', `/client-invoices/${converted.id}/pdf`)).rawPayload);
    expect(text).toContain('€2,631.69');
    expect(text).not.toContain('€2,850.00');
    expect(text).toContain('Converted from USD at 1 USD = 0.9234 EUR (ECB reference rate, 2026-05-31)');
  });

  it('records who voided an invoice, frees its time, keeps its number', async () => {
    const w = await world();
    await w.entry('2026-05-05T10:00:00Z', '1h');
    const draft = await ok(owner, 'POST', '/client-invoices', { clientId: w.client, ...MAY, groupBy: 'project' });
    await ok(owner, 'PATCH', '/api/v1/me', { name: 'Vera Voider' });
    const issued = await ok(owner, 'POST', `/client-invoices/${draft.id}/issue`);
    const voided = await ok(owner, 'POST', `/client-invoices/${draft.id}/void`);
    expect(voided).toMatchObject({ status: 'void', number: issued.number, entries: [], voidedAt: expect.any(String) });
    expect(voided.voidedBy).toBe('Vera Voider');
    const audit = await auditTrail(ctx.t.db, { subjectId: draft.id, action: 'client_invoice.voided' });
    expect(audit.map((a) => a.actor_user_id)).toEqual([owner.userId]);
    const again = await ok(owner, 'POST', '/client-invoices/preview', { clientId: w.client, ...MAY, groupBy: 'entry' });
    expect(again.entryCount).toBe(1);
    expect(pdfText((await call(owner, 'GET', `/client-invoices/${draft.id}/pdf`)).rawPayload)).toContain(
      `VOID ${voided.voidedAt.slice(0, 10)} by Vera Voider`,
    );
  });
});
