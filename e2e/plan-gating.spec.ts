import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type BrowserContext, expect, test } from '@playwright/test';
import { freePort, startSundial as startOwnSundial, stopSundial } from './support/own-server';
import { RUN_DIR } from './support/paths';
import { shotsAtWidths } from './support/shots';
import { PASSWORD, signUpOverHttp, workspaceApi } from './support/users';

/**
 * A workspace whose trial has ended: its owner sees the upgrade prompt in place of the Export menu
 * and of the rates section, with "Choose a plan"; a member is told to ask an owner or admin.
 *
 * No API call ends a trial (it ends after 14 days), so this journey runs its own Sundial (the same
 * compiled API, its own embedded database): it sets the workspace up over HTTP, stops the server,
 * moves the trial's end into the past in the database, and starts the server again.
 */
const DATA_DIR = path.join(RUN_DIR, 'plan-gating-data');
const startSundial = (port: number) => startOwnSundial(port, { dataDir: DATA_DIR });

test.describe('plan gating', () => {
  let port: number;
  let server: ChildProcess | undefined;

  test.beforeAll(async () => {
    fs.rmSync(DATA_DIR, { recursive: true, force: true });
    port = await freePort();
  });
  test.afterAll(async () => {
    if (server) await stopSundial(server);
  });

  test('a Free workspace shows the upgrade prompt in place of exports and rates; a member is told to ask', async ({
    browser,
  }) => {
    const baseURL = `http://localhost:${port}`;
    server = await startSundial(port);
    const owner: BrowserContext = await browser.newContext({ baseURL });
    const member: BrowserContext = await browser.newContext({ baseURL });

    // On the trial: a project, and a member who joins through a copied invitation link.
    await signUpOverHttp(owner.request);
    const ws = await workspaceApi(owner.request);
    expect((await owner.request.post(`${ws}/projects`, { data: { name: 'Harbour' } })).status()).toBe(201);
    const invited = await owner.request.post(`${ws}/invites`, {
      data: { emails: ['mia.member@example.org'], role: 'member' },
    });
    const inviteId = (await invited.json()).items[0].id;
    const { url } = await (await owner.request.post(`${ws}/invites/${inviteId}/link`)).json();
    const token = new URL(url).searchParams.get('token');
    const accepted = await member.request.post(`/api/v1/invites/${token}/accept`, {
      data: { password: PASSWORD, name: 'Mia Member' },
    });
    expect(accepted.status()).toBe(200);

    // Fourteen days later, without a purchase.
    await stopSundial(server);
    const db = new PGlite(path.join(DATA_DIR, 'pglite'));
    await db.query(`update workspaces set trial_ends_at = now() - interval '1 day'`);
    await db.close();
    server = await startSundial(port);

    const page = await owner.newPage();
    await page.goto('/homepage/reports/summary');
    await expect(page.getByTestId('trial-banner')).toContainText('Your Pro trial has ended');
    const exportPrompt = page.locator('[data-testid="upgrade-prompt"][data-feature="export"]');
    await expect(exportPrompt).toContainText(
      'Export to Excel, Google Spreadsheet and CSV is available on the Basic plan.',
    );
    await expect(exportPrompt.getByRole('link', { name: 'Choose a plan' })).toHaveAttribute(
      'href',
      '/homepage/billing',
    );
    await expect(page.getByRole('button', { name: 'Export' })).toHaveCount(0);
    // Amounts are left out because of the plan, and the page says so rather than blaming access.
    await expect(page.locator('[data-testid="upgrade-prompt"][data-feature="billing_rates"]')).toBeVisible();
    await expect(page.getByTestId('money-hidden')).toHaveCount(0);
    await shotsAtWidths(page, 'plan-gating-export-owner');

    await page.goto('/homepage/projects');
    await page.getByTestId('project-row').filter({ hasText: 'Harbour' }).click();
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    const rates = pane.getByRole('region', { name: 'Rates' });
    await expect(rates.getByTestId('upgrade-prompt')).toContainText(
      'Billing rates and labour costs is available on the Pro plan.',
    );
    await expect(rates.getByLabel('Billable rate (USD/h)')).toHaveCount(0);
    await rates.scrollIntoViewIfNeeded();
    // The edit pane scrolls on its own, below a full page's fold: the page, then the section itself.
    await shotsAtWidths(page, 'plan-gating-project-pane-owner');
    const shots = process.env.E2E_SHOTS_DIR;
    for (const width of shots ? [1440, 1024] : []) {
      await page.setViewportSize({ width, height: 900 });
      await rates.screenshot({ path: `${shots}/plan-gating-rates-owner-${width}.png` });
    }

    const theirs = await member.newPage();
    await theirs.goto('/homepage/reports/summary');
    const asked = theirs.locator('[data-testid="upgrade-prompt"][data-feature="export"]');
    await expect(asked).toContainText('Ask an owner or admin to upgrade.');
    await expect(asked.getByRole('link', { name: 'Choose a plan' })).toHaveCount(0);
    await shotsAtWidths(theirs, 'plan-gating-export-member');

    await owner.close();
    await member.close();
  });
});
