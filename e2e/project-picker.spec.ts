import { expect, type Page, test } from '@playwright/test';
import { signUpOverHttp } from './support/users';

/** Goes to another page of the app through the sidebar: the same document, no reload. */
async function open(page: Page, name: 'Timesheet' | 'Projects') {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
}

/** The options of the timer's project picker. */
async function pickerOptions(page: Page): Promise<string[]> {
  const picker = page.getByRole('combobox', { name: 'Project / task' }).first();
  await picker.click();
  const listbox = page.getByRole('listbox');
  await expect(listbox).toBeVisible();
  const options = await listbox.getByRole('option').allTextContents();
  await picker.press('Escape');
  return options;
}

test.describe('projects and the timesheet share their data', () => {
  test('a project created, given a task and renamed on Projects shows in the timesheet picker without a reload', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    // Tasks asked for project by project while on the timesheet (the Projects page may, the pickers must not).
    const taskListRequests: string[] = [];
    let pickerRequests = 0;
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      const onTimesheet = page.url().endsWith('/homepage/timesheet');
      if (onTimesheet && /\/projects\/[^/]+\/tasks$/.test(pathname)) taskListRequests.push(pathname);
      if (pathname.endsWith('/project-picker')) pickerRequests += 1;
    });

    await page.goto('/homepage/timesheet');
    await expect(page.getByRole('textbox', { name: 'Note' })).toBeVisible();
    // A reload would lose this mark.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await expect.poll(() => pickerRequests).toBeGreaterThan(0);
    expect(await pickerOptions(page)).toEqual([]);

    // Created on Projects, with a task.
    await open(page, 'Projects');
    await page.getByRole('button', { name: 'Add Project' }).click();
    const nameBar = page.getByPlaceholder('Enter the name for new project or task...');
    await nameBar.fill('Atlas');
    await nameBar.press('Enter');
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    await expect(pane.getByRole('heading', { name: 'Edit Project' })).toBeVisible();
    const row = page.getByTestId('project-row').filter({ hasText: 'Atlas' });
    await row.hover();
    await row.getByRole('button', { name: 'Add Task to Atlas' }).click();
    await pane.getByRole('textbox', { name: 'Task title' }).fill('Design');
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Task created.')).toBeVisible();

    await open(page, 'Timesheet');
    await expect.poll(() => pickerOptions(page)).toEqual(['Atlas', 'Atlas › Design']);

    // Renamed on Projects.
    await open(page, 'Projects');
    await row.click();
    await expect(pane.getByRole('heading', { name: 'Edit Project' })).toBeVisible();
    await pane.getByRole('textbox', { name: 'Name' }).fill('Atlas relaunch');
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Project saved.')).toBeVisible();

    await open(page, 'Timesheet');
    await expect.poll(() => pickerOptions(page)).toEqual(['Atlas relaunch', 'Atlas relaunch › Design']);

    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    // The picker asks once for all projects with their tasks, never project by project.
    expect(taskListRequests).toEqual([]);
  });
});
