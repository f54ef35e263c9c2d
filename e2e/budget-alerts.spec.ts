import { expect, test } from '@playwright/test';
import { shotsAtWidths } from './support/shots';
import { signUpOverHttp, workspaceApi, workspacePoster } from './support/users';

test.describe('budget alerts', () => {
  test('a project crossing 80 % of its budget shows its alert in the app and its state on Projects, as a monthly fee budget does', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const post = workspacePoster(page.request, await workspaceApi(page.request));
    // Nothing yet: the bell says so.
    await page.goto('/homepage/timesheet');
    await page.getByRole('button', { name: 'Notifications' }).click();
    await expect(page.getByText('Nothing new. Budget alerts show here.')).toBeVisible();
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
    }).toPass({ timeout: 20_000 });
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
    }).toPass({ timeout: 20_000 });
    await shotsAtWidths(page, 'budget-alerts-projects');
  });
});
