import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { formatMoney } from '@sundial/core';
import { pdfText } from '../apps/api/test/pdf-text';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

/** Last month's first and last day (UTC), the range the new-invoice dialog starts with. */
function lastMonth() {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10), first };
}

test.describe('client invoices', () => {
  test("an admin invoices a client's month and downloads the PDF, whose total is the billable report's; the invoice lists its entries and the Detailed report links each entry to it", async ({
    page,
    browser,
  }) => {
    test.slow();
    // The owner sets the workspace up; an admin (invited, then promoted) does the invoicing.
    const ownerContext = await browser.newContext();
    const owner = ownerContext.request;
    await signUpOverHttp(owner);
    expect((await owner.patch('/api/v1/me', { data: { name: 'Olive Owner' } })).status()).toBe(200);
    const ws = await workspaceApi(owner);
    const ada = await joinAsMember(owner, ws, page.request, 'Ada Admin');
    expect((await owner.patch(`${ws}/members/${ada.id}`, { data: { role: 'admin' } })).status()).toBe(200);
    await page.goto('/homepage/invoices');
    await expect(page.getByText('No invoices yet')).toBeVisible();
    await shotsAtWidths(page, 'client-invoices-empty');

    // A client with two projects and a month of billable time at two rates; other time left out.
    // The workspace rounds up to 15 minutes, which invoices do too (decision 0019): whole-dollar
    // rates on quarter hours, so each line's 0.01 h quantity x rate is the report's amount to the cent.
    const post = async (url: string, data: object) => {
      const response = await owner.post(`${ws}${url}`, { data });
      expect(response.status(), await response.text()).toBeLessThan(300);
      return response.json();
    };
    expect(
      (await owner.patch(`${ws}/time-settings`, { data: { roundingMode: 'up', roundingMinutes: 15 } })).status(),
    ).toBe(200);
    await post('/rates', { level: 'workspace', effectiveFrom: '2020-01-01', billableCents: 95_00 });
    const client = await post('/clients', { name: 'Harbour Co', currency: 'USD', address: '9 Pier Road' });
    const website = await post('/projects', { name: 'Website', clientId: client.id, isPublic: true });
    const shop = await post('/projects', { name: 'Shop', clientId: client.id, isPublic: true });
    await post('/rates', { level: 'project', projectId: shop.id, effectiveFrom: '2020-01-01', billableCents: 120_00 });
    const { from, to, first } = lastMonth();
    const day = (n: number) => new Date(first.getTime() + n * 86_400_000 + 10 * 3_600_000).toISOString();
    for (const [n, duration, projectId] of [
      [1, '1h20m', website.id],
      [3, '2h45m', website.id],
      [8, '37m', shop.id],
      [12, '3h', shop.id],
    ] as const)
      await post('/time-entries', { start: day(n), duration, projectId, billable: true });
    await post('/time-entries', { start: day(5), duration: '2h', projectId: website.id, billable: false });
    await owner.put(`${ws}/client-invoice-settings`, {
      data: { address: 'Sundial Studio, 1 Dial Street', paymentDetails: 'IBAN GB00 0000 1111' },
    });
    const report = await (
      await owner.get(
        `${ws}/reports/summary?preset=custom&from=${from}&to=${to}&timeZone=UTC&groupBy=client&measures=billableAmount&clients=${client.id}`,
      )
    ).json();
    const billable = formatMoney(report.totals.billableAmount, 'USD');

    // New invoice: the client, last month (the default), lines per project, previewed first.
    await page.goto('/homepage/invoices');
    await page.getByRole('button', { name: 'New invoice' }).click();
    const dialog = page.getByRole('dialog', { name: 'New invoice' });
    await dialog.getByLabel('Client').click();
    await page.getByRole('option', { name: 'Harbour Co' }).click();
    await expect(dialog.getByLabel('From')).toHaveValue(from);
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog.getByTestId('preview-total')).toHaveText(billable);
    await expect(dialog.getByTestId('invoice-preview')).toContainText('Website');
    await expectNoSeriousViolations(page, 'new invoice dialog');
    await shotsAtWidths(page, 'client-invoices-new');
    await dialog.getByRole('button', { name: 'Create draft' }).click();

    // The draft opens; issuing numbers it.
    const drawer = page.getByRole('dialog').filter({ has: page.getByTestId('invoice-lines') });
    await expect(drawer.getByTestId('invoice-status')).toHaveText('Draft');
    await expect(drawer.getByTestId('invoice-total')).toHaveText(billable);
    // The time it was made from: the four billable entries, each with its person, project and amount.
    const entries = drawer.getByRole('table', { name: 'Time on this invoice' });
    await expect(entries.getByRole('row')).toHaveCount(5);
    await expect(entries.getByRole('row').nth(1)).toContainText('Olive Owner');
    await expect(entries.getByRole('row').nth(1)).toContainText('Website');
    // 1 h 20 min rounded up to 1.5 h at 95.00.
    await expect(entries.getByRole('row').nth(1)).toContainText(formatMoney(1.5 * 95_00, 'USD'));
    // Every line multiplies: hours shown x rate shown = amount shown.
    const lines = drawer.getByTestId('invoice-lines').getByRole('row');
    await expect(lines.filter({ hasText: 'Website' })).toContainText(['4.25', '$95.00/h', '$403.75'].join(''));
    await expect(lines.filter({ hasText: 'Shop' })).toContainText(['3.75', '$120.00/h', '$450.00'].join(''));
    await expect(entries.getByRole('row').nth(4)).toContainText('Shop');
    await expectNoSeriousViolations(page, 'draft invoice');
    await shotsAtWidths(page, 'client-invoices-draft');
    await drawer.getByRole('button', { name: 'Issue', exact: true }).click();
    await expect(drawer.getByTestId('invoice-status')).toHaveText('Issued');
    const year = new Date().getUTCFullYear();
    await expect(drawer.getByRole('heading', { name: `${year}-0001` })).toBeVisible();

    // The PDF's total is the billable report's.
    const downloading = page.waitForEvent('download');
    await drawer.getByRole('button', { name: 'Download PDF' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe(`invoice-${year}-0001.pdf`);
    const text = pdfText(readFileSync(await file.path()));
    expect(text).toContain(`No. ${year}-0001`);
    expect(text).toContain('Harbour Co');
    expect(text).toContain('IBAN GB00 0000 1111');
    expect(text).toContain(billable);

    await page.keyboard.press('Escape');
    await expect(page.getByTestId('client-invoice-row')).toHaveCount(1);
    await expect(page.getByTestId('invoice-totals')).toContainText(billable);
    await expectNoSeriousViolations(page, 'invoices list');
    await shotsAtWidths(page, 'client-invoices-full');

    // The Detailed report names the invoice on each invoiced entry; the link opens it.
    await page.goto(`/homepage/reports/detailed?preset=custom&from=${from}&to=${to}`);
    const rows = page.getByTestId('detailed-row');
    await expect(rows).toHaveCount(5);
    await expect(page.getByRole('link', { name: `Invoice ${year}-0001` })).toHaveCount(4);
    await expect(rows.filter({ hasText: 'Not invoiced' }).getByRole('link')).toHaveCount(0);
    await shotsAtWidths(page, 'client-invoices-detailed-links');
    await page
      .getByRole('link', { name: `Invoice ${year}-0001` })
      .first()
      .click();
    await expect(page).toHaveURL(/\/homepage\/invoices\?invoice=/);
    await expect(drawer.getByRole('heading', { name: `${year}-0001` })).toBeVisible();
    await expect(drawer.getByRole('table', { name: 'Time on this invoice' }).getByRole('row')).toHaveCount(5);

    // Voiding asks first, saying what it does; then the invoice says who voided it and keeps its number.
    await drawer.getByRole('button', { name: 'Void', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Void this invoice?' });
    await expect(confirm).toContainText(`Invoice ${year}-0001 stays in the list, marked Void`);
    await expect(confirm).toContainText('can go on a new invoice');
    await expect(confirm).toContainText('No credit note is made and nothing is sent');
    await expectNoSeriousViolations(page, 'void dialog');
    await shotsAtWidths(page, 'client-invoices-void');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(drawer.getByTestId('invoice-status')).toHaveText('Issued');
    await drawer.getByRole('button', { name: 'Void', exact: true }).click();
    await confirm.getByRole('button', { name: 'Void invoice' }).click();
    await expect(drawer.getByTestId('invoice-status')).toHaveText('Void');
    await expect(drawer.getByTestId('invoice-voided')).toHaveText(/^Voided on \d{4}-\d{2}-\d{2} by Ada Admin\.$/);
    await expect(drawer.getByRole('heading', { name: `${year}-0001` })).toBeVisible();
    await ownerContext.close();
  });
});
