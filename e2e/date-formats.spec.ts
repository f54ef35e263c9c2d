import { expect, test } from '@playwright/test';
import { shotsAtWidths } from './support/shots';
import { signUpOverHttp, workspaceApi } from './support/users';

// A week in the past, whatever today is: Monday 23 November 2026, one entry 09:00-10:30 UTC.
const MONDAY = '2026-11-23';
const SUNDAY = '2026-11-29';

/**
 * Every screen writes dates and times as the profile says (issue 30): the timesheet's week and day
 * headings, the report range and days, the Detailed report's times and the dashboard; a change of
 * profile changes them all.
 */
test('dates and times follow the profile on every screen', async ({ page }) => {
  await signUpOverHttp(page.request);
  const ws = await workspaceApi(page.request);
  const entry = await page.request.post(`${ws}/time-entries`, {
    data: { start: `${MONDAY}T09:00:00Z`, end: `${MONDAY}T10:30:00Z`, note: 'Planning' },
  });
  expect(entry.status()).toBe(201);
  const profile = (formats: object) => page.request.patch('/api/v1/me', { data: { timeZone: 'UTC', ...formats } });

  // Month first on a 12-hour clock.
  expect((await profile({ dateFormat: 'MM/DD/YYYY', timeFormat: '12h' })).status()).toBe(200);
  await page.goto(`/homepage/timesheet?day=${MONDAY}`);
  await expect(page.getByLabel('Week shown')).toHaveText('Nov 23 – 29, 2026');
  await page.getByLabel('View').getByText('Day list', { exact: true }).click();
  await expect(page.getByText('Mon, Nov 23', { exact: true })).toBeVisible();
  const times = page.getByText('9:00 AM – 10:30 AM', { exact: true });
  await expect(times).toBeVisible();
  // The 12-hour times are longer: the column is wide enough for them whole.
  expect(await times.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await shotsAtWidths(page, 'date-formats-us-timesheet');

  const range = `preset=custom&from=${MONDAY}&to=${SUNDAY}`;
  await page.goto(`/homepage/reports/detailed?${range}`);
  const row = page.getByTestId('detailed-row').first();
  await expect(row).toContainText('Mon, Nov 23');
  await expect(row).toContainText('9:00 AM–10:30 AM');
  await shotsAtWidths(page, 'date-formats-us-detailed');
  await page.goto(`/homepage/reports/summary?${range}&groupBy=day`);
  await expect(page.getByText('Nov 23 – 29, 2026', { exact: true })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Mon, Nov 23' })).toBeVisible();
  await shotsAtWidths(page, 'date-formats-us-summary');

  // Day first on a 24-hour clock: the same screens change with the profile.
  expect((await profile({ dateFormat: 'DD.MM.YYYY', timeFormat: '24h' })).status()).toBe(200);
  await page.goto(`/homepage/timesheet?day=${MONDAY}`);
  await expect(page.getByLabel('Week shown')).toHaveText('23 – 29 Nov 2026');
  await expect(page.getByText('Mon, 23 Nov', { exact: true })).toBeVisible();
  await expect(page.getByText('09:00 – 10:30')).toBeVisible();
  await page.goto(`/homepage/reports/detailed?${range}`);
  await expect(page.getByTestId('detailed-row').first()).toContainText('09:00–10:30');
  await page.goto(`/homepage/reports/summary?${range}&groupBy=day`);
  await expect(page.getByRole('rowheader', { name: 'Mon, 23 Nov' })).toBeVisible();
});
