import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { signUpOverHttp, workspaceApi } from './support/users';

test.describe('Google Sheets link', () => {
  test('an owner makes a Google Sheets link from the Export menu, and the formula’s address answers the report’s CSV to someone signed out, until revoked', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL });
    await signUpOverHttp(context.request);
    const ws = await workspaceApi(context.request);
    const atlas = await (await context.request.post(`${ws}/projects`, { data: { name: 'Atlas' } })).json();
    // A name a spreadsheet would run as a formula: the CSV must make it inert.
    const risky = await (await context.request.post(`${ws}/projects`, { data: { name: '=SUM(1,2)' } })).json();
    const start = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    for (const [hoursAgo, duration, projectId] of [
      [5, '2h', atlas.id],
      [2, '45m', risky.id],
    ] as const) {
      const r = await context.request.post(`${ws}/time-entries`, {
        data: { start: start(hoursAgo), duration, projectId },
      });
      expect(r.status()).toBe(201);
    }

    const page = await context.newPage();
    await page.goto('/homepage/reports/summary?groupBy=project');
    await expect(page.getByTestId('summary-total').getByRole('cell').first()).toHaveText('2:45:00');

    // The Export menu offers Google Sheets beside the files.
    await page.getByRole('button', { name: 'Export' }).click();
    await expect(page.getByRole('menuitem', { name: 'Google Sheets…' })).toBeVisible();
    await shotsAtWidths(page, 'sheets-export-menu');
    await page.getByRole('menuitem', { name: 'Google Sheets…' }).click();

    // The view is not saved yet: the dialog saves it first.
    const saveFirst = page.getByRole('dialog', { name: 'Google Sheets' });
    await expect(saveFirst.getByText('A Google Sheets link reads a saved report.')).toBeVisible();
    await saveFirst.getByRole('textbox', { name: 'Name' }).fill('Hours by project');
    await saveFirst.getByRole('button', { name: 'Save and continue' }).click();

    const dialog = page.getByRole('dialog', { name: 'Google Sheets: "Hours by project"' });
    await expect(dialog.getByText('This report has no Google Sheets link yet.')).toBeVisible();
    await expect(dialog.getByText('Google refreshes imported data about every hour')).toBeVisible();
    await expect(dialog.getByText('Anyone who has the formula can read this report’s data')).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Google Sheets link' }).click();
    const formulaField = dialog.getByRole('textbox', { name: 'Formula for a Google Sheets cell' });
    await expect(formulaField).toHaveValue(/^=IMPORTDATA\("http.+\.csv"\)$/);
    await expect(dialog.getByRole('button', { name: 'Copy formula' })).toBeVisible();
    await shotsAtWidths(page, 'sheets-link-dialog');
    await expectNoSeriousViolations(page, 'Google Sheets dialog');
    const formula = await formulaField.inputValue();
    const url = formula.match(/^=IMPORTDATA\("(.+)"\)$/)?.[1] as string;
    expect(new URL(url).pathname).toMatch(/^\/api\/v1\/public\/reports\/csv\/[A-Za-z0-9_-]{43}\.csv$/);

    // Fetched as Google does: no session at all.
    const signedOut = await browser.newContext({ baseURL });
    const reader = await signedOut.newPage();
    const response = await reader.request.get(url);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/csv; charset=utf-8');
    const rows: string[][] = parse(await response.body());
    expect(rows[0]?.slice(0, 3)).toEqual(['Project', 'Tracked', 'Tracked (hours)']);
    expect(rows).toContainEqual(expect.arrayContaining(['Atlas', '2:00:00', '2.00']));
    expect(rows).toContainEqual(expect.arrayContaining(["'=SUM(1,2)", '0:45:00', '0.75']));
    expect(rows.at(-1)?.slice(0, 3)).toEqual(['Total', '2:45:00', '2.75']);

    // Closed and reopened, the dialog shows the link without its formula; revoking it ends the CSV.
    await page.keyboard.press('Escape');
    await page.goto('/homepage/reports/saved');
    await page.getByRole('button', { name: 'Google Sheets' }).click();
    const again = page.getByRole('dialog', { name: 'Google Sheets: "Hours by project"' });
    await expect(again.getByText('Active')).toBeVisible();
    await expect(again.getByText(/last fetched/)).toBeVisible();
    await expect(again.getByRole('textbox', { name: 'Formula for a Google Sheets cell' })).toHaveCount(0);
    await shotsAtWidths(page, 'sheets-link-state');
    await again.getByRole('button', { name: 'Revoke' }).click();
    await expect(again.getByText('Revoked')).toBeVisible();
    expect((await reader.request.get(url)).status()).toBe(404);
    await signedOut.close();
    await context.close();
  });

  test('the Estimates report is saved and reopened; its share and Google Sheets dialogs say it cannot be shared yet', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL });
    await signUpOverHttp(context.request);
    const page = await context.newPage();
    await page.goto('/homepage/reports/estimates?preset=lastMonth');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const saveDialog = page.getByRole('dialog', { name: 'Save this report' });
    await saveDialog.getByRole('textbox', { name: 'Name' }).fill('Budgets last month');
    await saveDialog.getByRole('button', { name: 'Save report' }).click();
    await expect(page.getByText('Saved "Budgets last month".')).toBeVisible();

    await page.goto('/homepage/reports/saved');
    const row = page.getByRole('table', { name: 'Saved reports' }).getByRole('row', { name: /Budgets last month/ });
    await expect(row).toContainText('Estimates');
    await row.getByRole('button', { name: 'Share link' }).click();
    const share = page.getByRole('dialog', { name: 'Share "Budgets last month" by link' });
    await expect(share.getByText('The Estimates report can be saved and reopened, but not shared')).toBeVisible();
    await expect(share.getByRole('button', { name: 'Create link' })).toHaveCount(0);
    await shotsAtWidths(page, 'estimates-saved-share');
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: 'Google Sheets' }).click();
    const sheets = page.getByRole('dialog', { name: 'Google Sheets: "Budgets last month"' });
    await expect(sheets.getByText('The Estimates report can be saved and reopened, but not shared')).toBeVisible();
    await expect(sheets.getByRole('button', { name: /Create/ })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await row.getByRole('link', { name: 'Open Budgets last month' }).click();
    await expect(page).toHaveURL(/\/homepage\/reports\/estimates\?preset=lastMonth$/);
    await context.close();
  });
});
