import { expect, test } from '@playwright/test';
import { shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { signUpOverHttp, workspaceApi } from './support/users';

const ENTRIES = 700;

/**
 * A Summary of more than 2,000 groups (700 descriptions, each with its day and person): the server
 * sends it folded, a row per description, and a group's subgroups come when it is opened; the long
 * table keeps only the rows near the viewport in the page.
 */
test('a large Summary opens folded, loads a group’s subgroups on demand and scrolls through every group, signed in and shared', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(allow(120_000));
  await signUpOverHttp(page.request);
  const ws = await workspaceApi(page.request);
  const hour = 3_600_000;
  // On the hour: no half-hour entry crosses a midnight, so each description has one day.
  const now = Math.floor(Date.now() / hour) * hour;
  for (let batch = 0; batch < ENTRIES; batch += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, ENTRIES - batch) }, async (_, j) => {
        const i = batch + j;
        const start = new Date(now - (i + 2) * hour).toISOString();
        const note = `Task ${String(i).padStart(3, '0')}`;
        const r = await page.request.post(`${ws}/time-entries`, { data: { start, duration: '30m', note } });
        expect(r.status(), await r.text()).toBe(201);
      }),
    );
  }
  const from = new Date(now - 40 * 24 * hour).toISOString().slice(0, 10);
  const to = new Date(now + 24 * hour).toISOString().slice(0, 10);
  const answered = page.waitForResponse((r) => r.url().includes('/reports/summary') && r.url().includes('fold='));
  await page.goto(`/homepage/reports/summary?preset=custom&from=${from}&to=${to}&groupBy=description,day,user`);
  const sent = await (await answered).json();
  expect(sent.folded).toBe(true);
  expect(sent.groups).toHaveLength(ENTRIES);

  await expect(page.getByTestId('summary-folded')).toContainText('2,100 groups');
  const table = page.getByTestId('summary-table');
  await expect(table.getByRole('rowheader', { name: /Task 000/ })).toBeVisible();
  // Only the rows near the viewport are in the page, not 700.
  expect(await table.locator('tbody tr').count()).toBeLessThan(120);
  await expect(page.getByTestId('summary-total')).toContainText('350:00:00');
  await shotsAtWidths(page, 'large-summary-folded');

  // Opening a description asks the server for its day (and that day's person) only.
  const children = page.waitForResponse((r) => r.url().includes('within='));
  await page.getByRole('button', { name: 'Show the breakdown of Task 000' }).click();
  const within = await children;
  expect(new URL(within.url()).searchParams.get('within')).toBe('["Task 000"]');
  const dayRow = table.locator('tr[data-level="1"]').first();
  await expect(dayRow).toContainText('0:30:00');
  await dayRow.getByRole('button', { name: /Show the breakdown of/ }).click();
  await expect(table.locator('tr[data-level="2"]').first()).toContainText('0:30:00');
  await shotsAtWidths(page, 'large-summary-opened');

  // Scrolling to the end brings the last description into the page.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(table.getByRole('rowheader', { name: /Task 699/ })).toBeVisible();

  // Shared by a public link, the same Summary comes folded too, and opens a group the same way.
  const query = `preset=custom&from=${from}&to=${to}&timeZone=UTC&groupBy=description,day,user`;
  const saved = await (
    await page.request.post(`${ws}/saved-reports`, { data: { name: 'Every task', kind: 'summary', query } })
  ).json();
  const { id, secret } = await (await page.request.post(`${ws}/saved-reports/${saved.id}/links`, { data: {} })).json();
  const reader = await (await browser.newContext({ baseURL })).newPage();
  const shared = reader.waitForResponse((r) => r.url().includes(`/shared-reports/${id}`));
  await reader.goto(`/share/${id}#${secret}`);
  expect((await (await shared).json()).report.view.folded).toBe(true);
  const sharedTable = reader.getByTestId('summary-table');
  await expect(reader.getByTestId('summary-folded')).toContainText('2,100 groups');
  expect(await sharedTable.locator('tbody tr').count()).toBeLessThan(120);
  const opened = reader.waitForResponse((r) => r.url().includes('within='));
  await reader.getByRole('button', { name: 'Show the breakdown of Task 000' }).click();
  expect((await opened).status()).toBe(200);
  await expect(sharedTable.locator('tr[data-level="1"]').first()).toContainText('0:30:00');
  await shotsAtWidths(reader, 'large-summary-shared');
});
