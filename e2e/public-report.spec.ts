import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { signUpOverHttp, workspaceApi } from './support/users';

const RANGE = 'preset=custom&from=2026-11-16&to=2026-11-17&timeZone=UTC';

test.describe('public report pages', () => {
  test('a shared Detailed report shows its entries read-only a page at a time with its totals; a shared Summary shows its charts', async ({
    browser,
    baseURL,
  }) => {
    const ownerContext = await browser.newContext({ baseURL });
    const owner = ownerContext.request;
    await signUpOverHttp(owner);
    const ws = await workspaceApi(owner);
    const atlas = await (await owner.post(`${ws}/projects`, { data: { name: 'Atlas' } })).json();
    const beacon = await (await owner.post(`${ws}/projects`, { data: { name: 'Beacon' } })).json();
    // 55 entries of 10 minutes: more than the public page's 50 a page.
    for (let i = 0; i < 55; i++) {
      const start = new Date(Date.parse('2026-11-16T06:00:00Z') + i * 15 * 60_000);
      const r = await owner.post(`${ws}/time-entries`, {
        data: {
          start: start.toISOString(),
          end: new Date(start.getTime() + 10 * 60_000).toISOString(),
          projectId: i % 3 ? atlas.id : beacon.id,
          note: `Task ${String(i).padStart(2, '0')}`,
        },
      });
      expect(r.status()).toBe(201);
    }
    const shareReport = async (name: string, kind: string, query: string) => {
      const saved = await (await owner.post(`${ws}/saved-reports`, { data: { name, kind, query } })).json();
      const link = await owner.post(`${ws}/saved-reports/${saved.id}/links`, { data: {} });
      expect(link.status()).toBe(201);
      const { id, secret } = await link.json();
      return `/share/${id}#${secret}`;
    };
    const detailedLink = await shareReport('Atlas and Beacon, two days', 'detailed', RANGE);
    const summaryLink = await shareReport('Two days by project', 'summary', `${RANGE}&groupBy=project`);

    // A reader who is not signed in: the entries, the report's total, no edit controls; the secret in no URL.
    const reader = await browser.newContext({ baseURL });
    const page = await reader.newPage();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    await page.goto(detailedLink);
    await expect(page.getByRole('heading', { name: 'Atlas and Beacon, two days', level: 1 })).toBeVisible();
    const rows = page.getByTestId('detailed-table').getByTestId('detailed-row');
    await expect(rows).toHaveCount(50);
    await expect(page.getByTestId('detailed-total-trackedSeconds')).toHaveText('9:10:00');
    await expect(page.getByTestId('detailed-totals')).toContainText('55 entries');
    await expect(page.getByTestId('detailed-table').getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByTestId('detailed-table').getByRole('textbox')).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Cost' })).toHaveCount(0);
    await shotsAtWidths(page, 'public-detailed');
    await expectNoSeriousViolations(page, 'public detailed report');

    // The next page.
    await page.getByRole('button', { name: 'Load more entries' }).click();
    await expect(rows).toHaveCount(55);
    await expect(page.getByRole('button', { name: 'Load more entries' })).toHaveCount(0);
    await expect(rows.filter({ hasText: 'Task 00' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Task 54' })).toHaveCount(1);
    const secret = detailedLink.split('#')[1] ?? '';
    expect(urls.filter((u) => u.includes(secret))).toEqual([]);
    expect(urls.some((u) => u.includes('/api/v1/shared-reports/') && u.includes('cursor='))).toBe(true);

    // A shared Summary shows the signed-in Summary's charts.
    await page.goto(summaryLink);
    await expect(page.getByRole('heading', { name: 'Two days by project', level: 1 })).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Tracked time per day' })).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Tracked time by project' })).toBeVisible();
    await expect(page.getByTestId('summary-total').getByRole('cell').first()).toHaveText('9:10:00');
    await shotsAtWidths(page, 'public-summary-charts');
    await expectNoSeriousViolations(page, 'public summary with charts');

    // What a client opens on a phone or laptop set to dark: the page follows the scheme, readable.
    const darkReader = await browser.newContext({ baseURL, colorScheme: 'dark' });
    const dark = await darkReader.newPage();
    await dark.goto(detailedLink);
    await expect(dark.getByTestId('detailed-total-trackedSeconds')).toHaveText('9:10:00');
    expect(await dark.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await shotsAtWidths(dark, 'public-detailed-dark');
    await expectNoSeriousViolations(dark, 'public detailed report, dark');
    await dark.goto(summaryLink);
    await expect(dark.getByRole('figure', { name: 'Tracked time by project' })).toBeVisible();
    await expectNoSeriousViolations(dark, 'public summary with charts, dark');

    await darkReader.close();
    await reader.close();
    await ownerContext.close();
  });
});
