import { expect, type Page, test } from '@playwright/test';
import { signUpOverHttp } from './support/users';

/**
 * Collects every Content-Security-Policy report of the page: Chromium's console message for a
 * blocked load or script, and the securitypolicyviolation event (logged by an init script, which
 * the policy cannot block).
 */
async function watchPolicy(page: Page): Promise<string[]> {
  const reports: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/content security policy|securitypolicyviolation/i.test(text)) reports.push(`${page.url()}: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `securitypolicyviolation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return reports;
}

/** Opens a page and checks the policy came with it. */
async function open(page: Page, url: string): Promise<void> {
  const response = await page.goto(url);
  expect(response?.headers()['content-security-policy'], url).toMatch(/^default-src 'self'; script-src 'self'/);
}

test.describe('content security policy', () => {
  test('the public site runs its hashed inline script and styles with nothing blocked', async ({ page }) => {
    const reports = await watchPolicy(page);
    for (const url of ['/', '/pricing', '/blog']) {
      await open(page, url);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      // The inline script (allowed by its hash) marked the page; the inlined stylesheet applied.
      await expect(page.locator('html.js')).toBeAttached();
      expect(await page.evaluate(() => getComputedStyle(document.body).margin), url).toBe('0px');
    }
    await page.locator('main a[href^="/blog/"]').first().click();
    await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
    await expect(page.locator('html.js')).toBeAttached();
    // The cookie notice's buttons are wired by the site's module script.
    await page.getByRole('region', { name: 'Cookies' }).getByRole('button', { name: 'Accept analytics' }).click();
    await expect(page.getByRole('region', { name: 'Cookies' })).toBeHidden();

    const missing = await page.goto('/blog/no-such-post');
    expect(missing?.status()).toBe(404);
    expect(missing?.headers()['content-security-policy']).toMatch(/^default-src 'self'/);
    expect(reports).toEqual([]);
  });

  test('the sign-in page and the signed-in app load their scripts and Mantine styles with nothing blocked', async ({
    page,
  }) => {
    const reports = await watchPolicy(page);
    await open(page, '/loginpage');
    await expect(page.getByRole('button', { name: 'Log in', exact: true })).toBeVisible();

    await signUpOverHttp(page.request);
    await open(page, '/homepage/timesheet');
    await expect(page.getByRole('textbox', { name: 'Note' })).toBeVisible();
    // Mantine's stylesheet applied: a filled button is not the browser's grey default.
    const start = page.getByRole('button', { name: 'Start' });
    await expect(start).toBeVisible();
    expect(await start.evaluate((button) => getComputedStyle(button).backgroundColor)).not.toBe('rgb(239, 239, 239)');
    // The live updates (EventSource to the same origin) and fetches are allowed: a started timer shows.
    await page.getByRole('textbox', { name: 'Note' }).fill('Checking the policy');
    await start.click();
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    expect(reports).toEqual([]);
  });

  test('the API documentation renders under the policy', async ({ page }) => {
    const reports = await watchPolicy(page);
    await open(page, '/api/docs');
    await expect(page.getByRole('heading', { name: /Sundial API/ })).toBeVisible();
    expect(reports).toEqual([]);
  });
});
