import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort, startSundial, stopSundial } from './support/own-server';
import { RUN_DIR } from './support/paths';
import { shotsAtWidths } from './support/shots';
import { signUpOverHttp } from './support/users';

/**
 * A self-hoster's Sundial with BILLING=off: every workspace has every feature, so the billing
 * pages say billing is off and nothing offers to buy seats. It runs a Sundial of its own, as the
 * journeys' server sells plans.
 */
const DATA_DIR = path.join(RUN_DIR, 'billing-off-data');

test('with BILLING=off the billing pages say billing is off and the Users screen sells no seats', async ({
  browser,
}) => {
  test.slow();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const port = await freePort();
  const server = await startSundial(port, { dataDir: DATA_DIR, env: { BILLING: 'off' } });
  try {
    const context = await browser.newContext({ baseURL: `http://localhost:${port}` });
    await signUpOverHttp(context.request);
    const page = await context.newPage();
    const off = 'Billing is off on this Sundial: there is nothing to buy, and every feature is on.';

    await page.goto('/homepage/billing');
    await expect(page.getByText(off)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue' })).toHaveCount(0);
    await expect(page.getByLabel('Number of licenses')).toHaveCount(0);
    await shotsAtWidths(page, 'billing-off-subscription');
    for (const url of [
      '/homepage/subscription?plan=pro&cycle=annual&licenses=3',
      '/homepage/payment?plan=pro&cycle=annual&licenses=3',
      '/homepage/invoice',
      '/homepage/billingaddress',
    ]) {
      await page.goto(url);
      await expect(page.getByText(off), url).toBeVisible();
      await expect(page.getByRole('link', { name: 'Back to your subscription' })).toBeVisible();
    }
    await shotsAtWidths(page, 'billing-off-address');

    await page.goto('/homepage/user');
    await expect(page.getByTestId('seat-count')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Change number of seats' })).toHaveCount(0);
    await shotsAtWidths(page, 'billing-off-users');
    await context.close();
  } finally {
    await stopSundial(server);
  }
});
