import { expect, type Locator, type Page, test } from '@playwright/test';
import { shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { signUpOverHttp, workspaceApi, workspacePoster } from './support/users';

/** Shots at 1440 and 1024 with `field` scrolled into view in the edit pane (it scrolls on its own). */
async function paneShots(page: Page, field: Locator, name: string) {
  if (!process.env.E2E_SHOTS_DIR) return;
  const before = page.viewportSize();
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await field.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    // Not full-page: that grows the viewport, and the pane's scroll goes back to the top.
    const dir = process.env.E2E_SHOTS_DIR;
    if (dir) await page.screenshot({ path: `${dir}/${name}-${width}.png` });
  }
  if (before) await page.setViewportSize(before);
}

test.describe('budget alerts', () => {
  test('a project crossing 80 % of its budget shows its alert in the app and its state on Projects, as a monthly fee budget does', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const post = workspacePoster(page.request, await workspaceApi(page.request));
    // Nothing yet: the bell says so.
    await page.goto('/homepage/timesheet');
    await page.getByRole('button', { name: 'Notifications' }).click();
    await expect(page.getByText('Nothing new. Budget alerts and approvals show here.')).toBeVisible();
    await shotsAtWidths(page, 'budget-alerts-empty');
    await page.keyboard.press('Escape');

    const project = await post('/projects', { name: 'Harbour', budget: { type: 'hours', amount: 60 } });
    const start = new Date(Date.now() - 3 * 3_600_000);
    await post('/time-entries', {
      start: start.toISOString(),
      end: new Date(start.getTime() + 50 * 60_000).toISOString(),
      projectId: project.id,
    });

    // The job runs on its own; the bell asks again when reopened.
    const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
    await expect(async () => {
      await page.reload();
      await expect(bell).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: allow(20_000) });
    await bell.click();
    await expect(page.getByText('Project "Harbour" has reached 80% of its budget')).toBeVisible();
    await expect(page.getByText('Project "Harbour" used 0:50 h of 1:00 h.', { exact: false })).toBeVisible();
    await shotsAtWidths(page, 'budget-alerts-unread');
    await page.getByText('Project "Harbour" has reached 80% of its budget').click();

    // Opening it marks it read and leads to Projects, where the project shows its state.
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'Harbour' }).getByText('Near budget')).toBeVisible();

    // A monthly fee budget shows its state too, from the alerts of this month.
    await post('/rates', { level: 'workspace', effectiveFrom: '2020-01-01', billableCents: 100_00 });
    const quay = await post('/projects', { name: 'Quay', budget: { type: 'fee', amount: 50_00, resetsMonthly: true } });
    const hourAgo = new Date(Date.now() - 3_600_000);
    await post('/time-entries', {
      start: hourAgo.toISOString(),
      end: new Date(hourAgo.getTime() + 50 * 60_000).toISOString(),
      projectId: quay.id,
      billable: true,
    });
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('listitem', { name: 'Quay' }).getByText('Over budget')).toBeVisible({
        timeout: 1000,
      });
    }).toPass({ timeout: allow(20_000) });
    await shotsAtWidths(page, 'budget-alerts-projects');
  });

  test('a manager sets a budget to alert at 50 % only in its edit panel, and hears of it at 50 %', async ({ page }) => {
    await signUpOverHttp(page.request);
    const post = workspacePoster(page.request, await workspaceApi(page.request));
    const project = await post('/projects', { name: 'Dock', budget: { type: 'hours', amount: 60 } });

    await page.goto('/homepage/projects');
    await page.getByRole('listitem', { name: 'Dock' }).getByRole('button', { name: /^Dock/ }).click();
    await expect(page.getByRole('heading', { name: 'Edit Project' })).toBeVisible();
    const budget = page.getByRole('region', { name: 'Budget' });
    const alertAt = budget.getByRole('combobox', { name: 'Alert at (% of the budget)' });
    // The default, shown as it is; a percentage out of range is refused as it is typed.
    await expect(budget.getByText('80', { exact: true })).toBeVisible();
    await expect(budget.getByText('100', { exact: true })).toBeVisible();
    await alertAt.fill('1000');
    await alertAt.press('Enter');
    await expect(budget.getByText('An alert threshold must be at most 999 %.')).toBeVisible();
    await paneShots(page, alertAt, 'budget-alerts-thresholds-error');
    for (let i = 0; i < 3; i++) await alertAt.press('Backspace');
    await expect(budget.getByText('An alert threshold must be at most 999 %.')).toBeHidden();
    await alertAt.fill('50');
    await alertAt.press('Enter');
    await paneShots(page, alertAt, 'budget-alerts-thresholds');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Project saved.')).toBeVisible();

    // 50 minutes of an hour: past 50 % and past the 80 % it no longer alerts at.
    const start = new Date(Date.now() - 3 * 3_600_000);
    await post('/time-entries', {
      start: start.toISOString(),
      end: new Date(start.getTime() + 50 * 60_000).toISOString(),
      projectId: project.id,
    });
    const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
    await expect(async () => {
      await page.reload();
      await expect(bell).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: allow(20_000) });
    await bell.click();
    await expect(page.getByText('Project "Dock" has reached 50% of its budget')).toBeVisible();
    await expect(page.getByText('Project "Dock" has reached 80% of its budget')).toBeHidden();
  });
});
