import { expect, type Page, test } from '@playwright/test';
import { signUpOverHttp, workspaceApi } from './support/users';

const SHOTS = process.env.E2E_SHOTS_DIR;

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('an owner sets the report time zone in the time settings, and the reports say their days are in it', async ({
  page,
}) => {
  await signUpOverHttp(page.request);
  const ws = await workspaceApi(page.request);
  const start = new Date(Date.now() - 3 * 3_600_000).toISOString();
  expect((await page.request.post(`${ws}/time-entries`, { data: { start, duration: '1h' } })).status()).toBe(201);

  await page.goto('/homepage/timesheet');
  await page.getByRole('button', { name: 'Time settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Time settings' });
  const zone = settings
    .getByRole('textbox', { name: 'Report time zone' })
    .or(settings.getByRole('combobox', { name: 'Report time zone' }));
  await zone.click();
  await zone.press('ControlOrMeta+a');
  await zone.pressSequentially('Lisbon');
  await page.getByRole('option', { name: 'Europe/Lisbon' }).click();
  await shots(page, 'report-zone-settings');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings).toBeHidden();
  expect((await (await page.request.get(`${ws}/time-settings`)).json()).reportTimeZone).toBe('Europe/Lisbon');

  await page.goto('/homepage/reports/summary?preset=thisWeek');
  await expect(page.getByTestId('report-zone')).toHaveText('Days in Europe/Lisbon');
  await shots(page, 'report-zone-summary');
  // A link that names another zone shows that one.
  await page.goto('/homepage/reports/summary?preset=thisWeek&timeZone=America/Chicago');
  await expect(page.getByTestId('report-zone')).toHaveText('Days in America/Chicago');
});
