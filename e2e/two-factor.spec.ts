import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { waitForMail } from './support/mail';
import { shotsAtWidths } from './support/shots';
import { PASSWORD, signUpOverHttp } from './support/users';

/** The code an authenticator app shows `steps` 30-second steps from now. */
const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * steps });

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function password(page: Page, email: string) {
  await page.goto('/loginpage');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
}

test('a user turns on two-factor authentication, signs in with a code, and a recovery code works once', async ({
  page,
}) => {
  const email = await signUpOverHttp(page.request);
  await page.goto('/homepage/profile');
  await expect(page.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
  await expect(page.getByText('This device')).toBeVisible();
  await shotsAtWidths(page, 'profile-security-off');

  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const otpauth = (await page.getByTestId('otpauth-link').getAttribute('href')) ?? '';
  expect(otpauth).toMatch(/^otpauth:\/\/totp\//);
  const secret = new URL(otpauth).searchParams.get('secret') ?? '';
  await shotsAtWidths(page, 'profile-enrol');

  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText(/That code is not right/)).toBeVisible();
  await page.getByLabel('Code from the app').fill(await codeAt(secret, 0));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByTestId('recovery-codes');
  await expect(codes.getByText('Save your recovery codes now')).toBeVisible();
  const recoveryCodes = (await codes.locator('.mantine-SimpleGrid-root p').allTextContents()).map((c) => c.trim());
  expect(recoveryCodes).toHaveLength(10);
  await shotsAtWidths(page, 'profile-recovery-codes');
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('10 of 10 recovery codes left')).toBeVisible();
  await shotsAtWidths(page, 'profile-security-on');

  // Password, then the next code of the app (the one used to turn it on never works twice).
  await logOut(page);
  await password(page, email);
  await shotsAtWidths(page, 'login-second-step');
  await page.getByLabel('Code').fill(await codeAt(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/homepage\/timesheet$/);

  // A recovery code signs in once, and the owner is told by e-mail.
  await logOut(page);
  await password(page, email);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/homepage\/timesheet$/);
  expect((await waitForMail(email)).subject).toBe('A recovery code was used to sign in to Sundial');

  await logOut(page);
  await password(page, email);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText('That recovery code is not right or was used.');
  await expect(page).toHaveURL(/\/loginpage/);
});
