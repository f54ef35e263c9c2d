import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shot } from './support/shots';
import { signUpOverHttp } from './support/users';

test.describe('accessibility (axe-core, WCAG 2.2 AA, light scheme)', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the auth pages have no serious or critical violations', async ({ page }) => {
    await page.goto('/loginpage');
    await expect(page.getByRole('heading', { name: 'Log in', level: 1 })).toBeVisible();
    await expectNoSeriousViolations(page, 'log in');

    await page.goto('/signuppage');
    await expect(page.getByRole('heading', { name: 'Start tracking time' })).toBeVisible();
    await expectNoSeriousViolations(page, 'sign up');
    await shot(page, 'a11y-signup');

    await page.goto('/forgotten_password');
    await expect(page.getByRole('heading', { name: 'Forgotten password' })).toBeVisible();
    await expectNoSeriousViolations(page, 'forgotten password');
  });

  test('every signed-in screen has no serious or critical violations', async ({ page }) => {
    await signUpOverHttp(page.request);
    const me = await (await page.request.get('/api/v1/me')).json();
    const ws = me.currentWorkspaceId as string;
    const project = await page.request.post(`/api/v1/workspaces/${ws}/projects`, {
      data: { name: 'Website', color: '#fab005' },
    });
    expect(project.status()).toBe(201);
    const projectId = (await project.json()).id as string;
    const start = new Date();
    start.setHours(9, 0, 0, 0);
    const end = new Date(start.getTime() + 90 * 60_000);
    const entry = await page.request.post(`/api/v1/workspaces/${ws}/time-entries`, {
      data: { start: start.toISOString(), end: end.toISOString(), note: 'Design review', projectId },
    });
    expect(entry.status()).toBe(201);

    // Timesheet: list, week grid and calendar.
    await page.goto('/homepage/timesheet');
    await expect(page.getByRole('textbox', { name: 'Note', exact: true })).toBeVisible();
    await expect(page.getByTestId('trial-banner')).toBeVisible();
    await expectNoSeriousViolations(page, 'timesheet list');
    await shot(page, 'a11y-timesheet-list');
    await page.getByLabel('View').getByText('Week', { exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Week total' })).toBeVisible();
    await expectNoSeriousViolations(page, 'timesheet week');
    await page.getByLabel('View').getByText('Calendar', { exact: true }).click();
    await expect(page.getByTestId('calendar-block').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'timesheet calendar');
    await shot(page, 'a11y-timesheet-calendar');

    // Projects with the edit panel open.
    await page.goto('/homepage/projects');
    await page.getByTestId('project-row').filter({ hasText: 'Website' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Project' })).toBeVisible();
    await expectNoSeriousViolations(page, 'projects with the edit panel');
    await shot(page, 'a11y-projects');

    await page.goto('/homepage/tags');
    await expect(page.getByRole('heading', { level: 1, name: /tags/i })).toBeVisible();
    await expectNoSeriousViolations(page, 'tags');

    // Users with the invite dialog open.
    await page.goto('/homepage/user');
    await expect(page.getByRole('table')).toBeVisible();
    await shot(page, 'a11y-users');
    await page.getByRole('button', { name: 'Invite people' }).click();
    await expect(page.getByRole('dialog', { name: 'Invite people' })).toBeVisible();
    await expectNoSeriousViolations(page, 'users with the invite dialog');

    await page.goto('/homepage/profile');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSeriousViolations(page, 'profile');
  });
});
