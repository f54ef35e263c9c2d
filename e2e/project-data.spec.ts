import { expect, test } from '@playwright/test';
import { shot } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

test.describe('project data that is kept and shown right', () => {
  test('the panel Save keeps a description still being typed; people are shown by name', async ({
    page,
    browser,
    baseURL,
  }) => {
    const ownerEmail = await signUpOverHttp(page.request);
    expect((await page.request.patch('/api/v1/me', { data: { name: 'Olive Owner' } })).status()).toBe(200);
    const ws = await workspaceApi(page.request);
    const other = await browser.newContext({ baseURL });
    const mia = await joinAsMember(page.request, ws, other.request, 'Mia Member');
    await other.close();
    const project = await (await page.request.post(`${ws}/projects`, { data: { name: 'Website' } })).json();
    await page.request.put(`${ws}/projects/${project.id}/people`, { data: { userIds: [mia.id], groupIds: [] } });

    await page.goto('/homepage/projects');
    const row = page.getByTestId('project-row').filter({ hasText: 'Website' });
    await row.click();
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    await pane.getByRole('button', { name: 'Edit description' }).click();
    await pane.getByRole('textbox', { name: 'Description' }).fill('Relaunch **before** the fair.');
    await pane.getByRole('textbox', { name: 'Name' }).fill('Website 2027');
    await shot(page, 'project-description-open');
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Project saved.')).toBeVisible();

    await page.reload();
    await page.getByTestId('project-row').filter({ hasText: 'Website 2027' }).click();
    await expect(pane.getByTestId('description')).toContainText('Relaunch before the fair.');
    await expect(pane.getByText('No description yet.')).toHaveCount(0);

    // The owner and the assigned member by name; the e-mail only as secondary text.
    await expect(pane.getByTestId('project-owner')).toContainText('Olive Owner');
    await expect(pane.getByTestId('project-owner')).toContainText(ownerEmail);
    await expect(pane.getByRole('switch', { name: 'Mia Member can manage' })).toBeVisible();
    await pane.getByRole('combobox', { name: 'Assign people' }).click();
    const option = page.getByRole('option', { name: /Mia Member/ });
    await expect(option).toContainText(mia.email);
    await page.keyboard.press('Escape');

    // Cancel in the description editor still puts back what was saved.
    await pane.getByRole('button', { name: 'Edit description' }).click();
    await pane.getByRole('textbox', { name: 'Description' }).fill('Scrap that');
    await pane.getByRole('button', { name: 'Cancel' }).first().click();
    await expect(pane.getByTestId('description')).toContainText('Relaunch before the fair.');
  });

  test('deleting a tag asks first, telling how many time entries lose it', async ({ page }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const list = await (await page.request.post(`${ws}/tag-lists`, { data: { name: 'Kind' } })).json();
    const meeting = await (
      await page.request.post(`${ws}/tag-lists/${list.id}/tags`, { data: { name: 'Meeting' } })
    ).json();
    await page.request.post(`${ws}/tag-lists/${list.id}/tags`, { data: { name: 'Design' } });
    for (const hoursAgo of [5, 3]) {
      const start = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
      const entry = await page.request.post(`${ws}/time-entries`, {
        data: { start, duration: '1h', tagIds: [meeting.id] },
      });
      expect(entry.status()).toBe(201);
    }

    await page.goto('/homepage/tags');
    const region = page.getByRole('region', { name: 'Tag list Kind' });
    await region.getByRole('button', { name: 'Actions for tag Meeting' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete tag?' });
    await expect(dialog).toContainText('“Meeting” will be removed from 2 time entries');
    await shot(page, 'tag-delete-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(region.getByTestId('tag')).toHaveCount(2);

    await region.getByRole('button', { name: 'Actions for tag Meeting' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(region.getByTestId('tag')).toHaveCount(1);
    await expect(region.getByTestId('tag')).toHaveText('Design');
  });

  test('searching for a task opens its project to show the task; the task panel shows the whole project name', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const longName = 'Customer portal for the northern region sales and support teams';
    const portal = await (await page.request.post(`${ws}/projects`, { data: { name: longName } })).json();
    await page.request.post(`${ws}/projects/${portal.id}/tasks`, { data: { name: 'Quarterly invoice run' } });
    await page.request.post(`${ws}/projects/${portal.id}/tasks`, { data: { name: 'Onboarding' } });
    await page.request.post(`${ws}/projects`, { data: { name: 'Internal' } });

    await page.goto('/homepage/projects');
    await expect(page.getByTestId('project-row')).toHaveCount(2);
    await page.getByRole('textbox', { name: 'Search projects and tasks' }).fill('invoice');
    const row = page.getByTestId('project-row');
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('button', { expanded: true })).toHaveCount(1);
    const tasks = page.getByRole('group', { name: `Tasks of ${longName}` });
    const match = tasks.getByTestId('task-row').filter({ hasText: 'Quarterly invoice run' });
    await expect(match).toBeVisible();
    await expect(match).toHaveAttribute('data-match', 'true');

    await match.getByRole('button', { name: 'Edit Task' }).click();
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    const prefix = pane.getByTestId('task-prefix');
    await expect(prefix).toHaveText(`${longName} /`);
    // Shown whole: the text fits its box rather than being cut with an ellipsis.
    expect(await prefix.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shot(page, 'project-search-expanded');

    // Clearing the search leaves the project as the user left it, and a project matched by its own name stays shut.
    await page.getByRole('textbox', { name: 'Search projects and tasks' }).fill('Internal');
    await expect(page.getByTestId('project-row')).toHaveCount(1);
    await expect(page.getByTestId('project-row').getByRole('button', { expanded: true })).toHaveCount(0);
  });
});
