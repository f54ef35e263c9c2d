import { expect, test } from '@playwright/test';
import { waitForMail } from './support/mail';
import { shotsAtWidths } from './support/shots';
import { newEmail, PASSWORD } from './support/users';

/**
 * Confirming the address of a sign-up (docs/decisions/0014): the app works at once, a banner asks
 * for the link mailed at sign-up (with "Send again"), and opening it makes the banner go.
 */
test('a new person confirms their address from the mailed link, and the banner goes', async ({ page }) => {
  const email = newEmail('confirm');
  await page.goto('/signuppage');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up for free' }).click();
  await page.getByRole('button', { name: 'Skip for now' }).click();

  // Nothing waits for the address: the timesheet is there, with the banner above it.
  await expect(page).toHaveURL(/\/homepage\/timesheet$/);
  const banner = page.getByTestId('email-banner');
  await expect(banner).toContainText('Confirm your e-mail address.');
  await expect(banner).toContainText(email);
  await shotsAtWidths(page, 'email-banner');

  await banner.getByRole('button', { name: 'Send again' }).click();
  await expect(page.getByText('We have sent a new link to confirm your e-mail address.')).toBeVisible();

  // The linked sign-in methods of a new account: none, and what the section says when it cannot load.
  await page.goto('/homepage/profile');
  const section = page.getByRole('region', { name: 'Linked sign-in methods' });
  await expect(section.getByText('No other sign-in methods are linked')).toBeVisible();
  await page.route('**/api/v1/me/identities', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unavailable', message: 'The server is busy. Try again.' } }),
    }),
  );
  await page.reload();
  await expect(section.getByText('The server is busy. Try again.')).toBeVisible();
  await shotsAtWidths(page, 'linked-identities-error');
  await page.unroute('**/api/v1/me/identities');

  // A wrong link says so.
  await page.goto('/verify-email?token=not-a-real-token-at-all');
  await expect(page.getByRole('alert')).toContainText('This confirmation link is not valid.');

  const mail = await waitForMail(email, 10_000, /Confirm your e-mail/);
  const link = /http\S+\/verify-email\?token=[\w-]+/.exec(mail.text)?.[0] ?? '';
  expect(link).not.toBe('');
  await page.goto(link);
  await expect(page.getByText('Your e-mail address is confirmed.')).toBeVisible();
  await shotsAtWidths(page, 'email-confirmed');
  await page.getByRole('link', { name: 'Go to Sundial' }).click();
  await expect(page).toHaveURL(/\/homepage\/timesheet$/);
  await expect(page.getByRole('heading', { level: 1, name: 'TimeSheet' })).toBeVisible();
  await expect(page.getByTestId('email-banner')).toHaveCount(0);
  expect((await (await page.request.get('/api/v1/me')).json()).user.emailVerified).toBe(true);

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole('alert')).toContainText('already been used');
});
