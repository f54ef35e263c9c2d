import { expect, test } from '@playwright/test';
import { chooseImportFile } from './support/imports';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

test.describe('importing projects and tasks from project tools', () => {
  test('the owner imports a Jira export, chooses who takes the tasks of people who are not members, and sees the tasks', async ({
    page,
    browser,
  }) => {
    const ownerEmail = await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const danaContext = await browser.newContext();
    const dana = await joinAsMember(page.request, ws, (await danaContext.newPage()).request, 'Dana Scully');
    await page.goto('/homepage/projects');
    await page.getByRole('button', { name: 'More project actions' }).click();
    await page.getByRole('menuitem', { name: 'Import From add-ons' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import From add-ons' });
    for (const tool of ['Jira', 'Asana', 'Trello', 'ClickUp', 'monday.com', 'Todoist']) {
      await expect(dialog.getByRole('radio', { name: tool, exact: true })).toBeVisible();
    }
    await dialog.getByRole('radio', { name: 'Jira', exact: true }).check();
    await expect(dialog.getByText('Export → Export CSV (all fields)')).toBeVisible();

    const jira = [
      'Summary,Issue key,Issue id,Issue Type,Status,Project name,Project key,Assignee,Assignee Id,Parent,Parent summary,Labels,Labels',
      `Checkout,SHOP-1,10001,Epic,To Do,Web shop,SHOP,Owner,${ownerEmail},,,,`,
      'Cart page,SHOP-2,10002,Story,In Progress,Web shop,SHOP,Dana Scully,dana@old-company.example,10001,Checkout,ui,web',
      'Fix totals,SHOP-3,10003,Sub-task,Done,Web shop,SHOP,Fox Mulder,,10002,Cart page,,',
    ].join('\n');
    await chooseImportFile(dialog, 'jira.csv', jira);
    await expect(dialog.getByTestId('import-summary')).toContainText(
      '3 rows. Importing creates 1 project, 3 tasks. 1 task assignment by e-mail.',
    );
    await expect(dialog.getByRole('cell', { name: 'Checkout › Cart page › Fix totals' })).toBeVisible();
    const mapping = dialog.getByTestId('import-assignees');
    await expect(mapping.getByText('dana@old-company.example')).toBeVisible();
    await expect(mapping.getByText('Fox Mulder')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled();
    await expect(dialog.getByText('Choose a member or “Leave unassigned” for each person to import.')).toBeVisible();

    await mapping.getByRole('combobox', { name: 'Member for dana@old-company.example' }).click();
    await page.getByRole('option', { name: `Dana Scully (${dana.email})` }).click();
    await mapping.getByRole('combobox', { name: 'Member for Fox Mulder' }).click();
    await page.getByRole('option', { name: 'Leave unassigned' }).click();
    await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled();
    await shotsAtWidths(page, 'project-imports-mapping');

    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(dialog.getByRole('status')).toContainText('Imported: 1 project, 3 tasks, 2 task assignments.');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByTestId('project-row').filter({ hasText: 'Web shop' }).click();
    const tasks = page.getByRole('group', { name: 'Tasks of Web shop' }).getByTestId('task-row');
    await expect(tasks).toHaveCount(3);
    await expect(tasks.filter({ hasText: 'Fix totals' })).toBeVisible();
    // Dana took over the tasks of her old address.
    await tasks.filter({ hasText: 'Cart page' }).getByRole('button', { name: 'Edit Task' }).click();
    await expect(page.getByRole('region', { name: 'People' }).getByText('Dana Scully', { exact: true })).toBeVisible();
    await shotsAtWidths(page, 'project-imports-tasks');
    await danaContext.close();
  });
});
