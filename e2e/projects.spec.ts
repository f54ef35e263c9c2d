import { expect, test } from '@playwright/test';
import { chooseImportFile } from './support/imports';
import { shot, shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

// Its journeys are independent (each signs its own people up) and among the longest: they spread over
// both workers instead of running one after another in one (issue 31).
test.describe.configure({ mode: 'parallel' });

test.describe('projects, tasks, clients and tags', () => {
  test('a manager creates a client and a project with nested tasks, edits every section, archives and deletes', async ({
    page,
  }) => {
    // The longest journey (every section of the panel): on a busy 2-core machine it nears a minute.
    test.slow();
    await signUpOverHttp(page.request);
    await page.goto('/homepage/projects');
    await expect(page.getByText('Choose project or task to edit')).toBeVisible();

    // A client first.
    await page.getByRole('button', { name: 'Clients' }).click();
    const clients = page.getByRole('dialog', { name: 'Clients' });
    await clients.getByRole('button', { name: 'Add client' }).click();
    await clients.getByLabel('Client name').fill('Acme Corp');
    await clients.getByLabel('Currency').fill('eur');
    await clients.getByLabel('Address').fill('1 Main Street, Springfield');
    await clients.getByRole('button', { name: 'Add client' }).click();
    await expect(clients.getByRole('cell', { name: /^Acme Corp/ })).toBeVisible();
    await expect(clients.getByRole('cell', { name: 'EUR' })).toBeVisible();
    await page.keyboard.press('Escape');

    // Add Project: Esc cancels, Enter creates; the name is checked.
    await page.getByRole('button', { name: 'Add Project' }).click();
    const nameBar = page.getByPlaceholder('Enter the name for new project or task...');
    await nameBar.fill('Throwaway');
    await nameBar.press('Escape');
    await expect(nameBar).toBeHidden();
    await page.getByRole('button', { name: 'Add Project' }).click();
    await page.getByRole('button', { name: 'Create new project' }).click();
    await expect(page.getByText('Project name is required.')).toBeVisible();
    await nameBar.fill('Website relaunch');
    await nameBar.press('Enter');
    await expect(page.getByRole('heading', { name: 'Edit Project' })).toBeVisible();

    // Every section of the edit panel.
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    await pane.getByRole('textbox', { name: 'Name' }).fill('Website relaunch 2027');
    await pane.getByRole('combobox', { name: 'Client' }).click();
    await page.getByRole('option', { name: 'Acme Corp' }).click();
    await pane.getByRole('button', { name: 'Colour #eb5757' }).click();
    await pane.getByRole('button', { name: 'Edit description' }).click();
    await pane
      .getByRole('textbox', { name: 'Description' })
      .fill(
        'Ship the new site, see [the brief](https://example.com/brief).\n\n- copy\n- design\n\n<b>raw</b> [bad](javascript:alert(1))',
      );
    await pane.getByRole('button', { name: 'Save description' }).click();
    await expect(pane.getByTestId('description')).toContainText('Ship the new site, see the brief.');
    await pane.getByRole('combobox', { name: 'Budget type' }).click();
    await page.getByRole('option', { name: 'Estimated Fee' }).click();
    await pane.getByRole('textbox', { name: 'Budget amount' }).fill('2500.50');
    await pane.getByLabel('Reset the budget every month').check();
    await pane.getByLabel('Time from this task is billable by default').check();
    await pane.getByLabel('Enable Keyword').check();
    await pane.getByRole('combobox', { name: 'Keywords' }).fill('website');
    await pane.getByRole('combobox', { name: 'Keywords' }).press('Enter');
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Project saved.')).toBeVisible();

    // Nested tasks.
    const row = page.getByTestId('project-row').filter({ hasText: 'Website relaunch 2027' });
    await row.hover();
    await row.getByRole('button', { name: 'Add Task to Website relaunch 2027' }).click();
    await expect(pane.getByTestId('task-prefix')).toHaveText('Website relaunch 2027 /');
    await pane.getByRole('textbox', { name: 'Task title' }).fill('Design');
    await pane.getByLabel('Time from this task is billable by default').check();
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Task created.')).toBeVisible();
    await expect(pane.getByRole('heading', { name: 'Edit Task' })).toBeVisible();
    await page.getByRole('button', { name: 'Add sub-task to Design' }).click();
    await pane.getByRole('textbox', { name: 'Task title' }).fill('Logo');
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    const tasks = page.getByRole('group', { name: 'Tasks of Website relaunch 2027' });
    await expect(tasks.getByTestId('task-row')).toHaveCount(2);
    await expect(tasks.getByTestId('task-row').nth(1)).toContainText('Logo');
    await shot(page, 'projects-edit');

    // Saved and shown after reload.
    await page.reload();
    await expect(row).toContainText('Acme Corp');
    await row.click();
    await expect(pane.getByRole('textbox', { name: 'Name' })).toHaveValue('Website relaunch 2027');
    await expect(pane.getByRole('combobox', { name: 'Client' })).toHaveValue('Acme Corp');
    await expect(pane.getByTestId('description')).toContainText('Ship the new site, see the brief.');
    await expect(pane.getByTestId('description').getByRole('listitem')).toHaveText(['copy', 'design']);
    // Rendered by react-markdown: links open in a new tab, raw HTML stays text, other schemes are no links.
    const brief = pane.getByTestId('description').getByRole('link', { name: 'the brief' });
    await expect(brief).toHaveAttribute('href', 'https://example.com/brief');
    await expect(brief).toHaveAttribute('target', '_blank');
    await expect(brief).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(pane.getByTestId('description')).toContainText('<b>raw</b>');
    await expect(pane.getByTestId('description').getByRole('link')).toHaveCount(1);
    await expect(pane.getByRole('combobox', { name: 'Budget type' })).toHaveValue('Estimated Fee');
    await expect(pane.getByRole('textbox', { name: 'Budget amount' })).toHaveValue('2500.5');
    await expect(pane.getByLabel('Reset the budget every month')).toBeChecked();
    await expect(pane.getByLabel('Time from this task is billable by default')).toBeChecked();
    await expect(pane.getByLabel('Enable Keyword')).toBeChecked();
    await expect(pane.getByText('website', { exact: true })).toBeVisible();
    await expect(pane.getByRole('button', { name: 'Colour #eb5757' })).toHaveAttribute('aria-pressed', 'true');
    await expect(tasks.getByTestId('task-row')).toHaveCount(2);
    await tasks.getByTestId('task-row').filter({ hasText: 'Logo' }).getByRole('button', { name: 'Edit Task' }).click();
    await expect(pane.getByRole('textbox', { name: 'Task title' })).toHaveValue('Logo');

    // Archiving a task hides it; "Archived" shows it again, to restore.
    await tasks.getByRole('button', { name: 'Archive task Design' }).click();
    await expect(tasks.getByTestId('task-row')).toHaveCount(1);
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await expect(tasks.getByText('Design (archived)')).toBeVisible();
    await tasks.getByRole('button', { name: 'Restore task Design' }).click();
    await expect(tasks.getByText('Design (archived)')).toBeHidden();
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await expect(tasks.getByTestId('task-row')).toHaveCount(2);

    // Search finds the project by a task name.
    await page.getByRole('textbox', { name: 'Search projects and tasks' }).fill('logo');
    await expect(page.getByTestId('project-row')).toHaveCount(1);
    await page.getByRole('textbox', { name: 'Search projects and tasks' }).fill('');

    // Archive hides without deleting; Restore brings it back.
    await page.getByRole('button', { name: 'Add Project' }).click();
    await nameBar.fill('Old intranet');
    await nameBar.press('Enter');
    const old = page.getByTestId('project-row').filter({ hasText: 'Old intranet' });

    // Move: the sub-task "Logo" goes to "Old intranet"; "Old intranet" goes to the client Acme Corp.
    await tasks.getByTestId('task-row').filter({ hasText: 'Logo' }).getByRole('button', { name: 'Move' }).click();
    const moveTask = page.getByRole('dialog', { name: 'Move Logo' });
    await moveTask.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'Old intranet' }).click();
    await moveTask.getByRole('button', { name: 'Move' }).click();
    await expect(tasks.getByTestId('task-row')).toHaveCount(1);
    await old.click();
    await expect(page.getByRole('group', { name: 'Tasks of Old intranet' }).getByTestId('task-row')).toHaveText(/Logo/);
    await old.hover();
    await old.getByRole('button', { name: 'Actions for Old intranet' }).click();
    await page.getByRole('menuitem', { name: 'Move' }).click();
    const moveProject = page.getByRole('dialog', { name: 'Move Old intranet' });
    await moveProject.getByRole('combobox', { name: 'Client' }).click();
    await page.getByRole('option', { name: 'Acme Corp' }).click();
    await moveProject.getByRole('button', { name: 'Move' }).click();
    await expect(old).toContainText('Acme Corp');

    // Change Color from the row menu; the open edit panel follows.
    await old.hover();
    await old.getByRole('button', { name: 'Actions for Old intranet' }).click();
    await page.getByRole('menuitem', { name: 'Change Color' }).click();
    await page.getByRole('dialog', { name: 'Change Color' }).getByRole('button', { name: 'Colour #9b51e0' }).click();
    await expect(old.getByTestId('project-color')).toHaveCSS('background-color', 'rgb(155, 81, 224)');
    await expect(pane.getByRole('button', { name: 'Colour #9b51e0' })).toHaveAttribute('aria-pressed', 'true');
    await old.hover();
    await old.getByRole('button', { name: 'Actions for Old intranet' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await expect(old).toBeHidden();
    await page.getByRole('button', { name: 'Archived', exact: true }).click();
    await expect(old).toBeVisible();
    await page.getByRole('button', { name: 'Archived', exact: true }).click();

    // Delete asks first, with the spec's texts, title and id.
    await row.hover();
    await row.getByRole('button', { name: 'Actions for Website relaunch 2027' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete Project?' });
    await expect(dialog).toContainText(
      'This action is permanent and cannot be undone. All time tracked to this project will be gone.',
    );
    await expect(dialog).toContainText('Title: Website relaunch 2027');
    await expect(dialog).toContainText(/Id: [0-9a-f-]{36}/);
    await expect(dialog).toContainText('If you simply want to hide the project, we recommend archiving it instead.');
    await shot(page, 'projects-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(row).toBeVisible();
    await row.hover();
    await row.getByRole('button', { name: 'Actions for Website relaunch 2027' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(row).toBeHidden();
    await page.reload();
    await expect(page.getByTestId('project-row')).toHaveCount(0);
  });

  test('the owner manages tag lists, tags and the tag setting', async ({ page }) => {
    await signUpOverHttp(page.request);
    await page.goto('/homepage/tags');
    await page.getByRole('button', { name: 'Add tag list' }).click();
    await page.getByRole('textbox', { name: 'Tag list name' }).fill('Activity type');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const list = page.getByRole('region', { name: 'Tag list Activity type' });
    for (const name of ['Meeting', 'Development', 'Dev']) {
      await list.getByRole('button', { name: 'Add tag' }).click();
      await list.getByRole('textbox', { name: 'Tag name' }).fill(name);
      await list.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(list.getByTestId('tag').filter({ hasText: new RegExp(`^${name}$`) })).toBeVisible();
    }
    // A duplicate is refused with a message.
    await list.getByRole('button', { name: 'Add tag' }).click();
    await list.getByRole('textbox', { name: 'Tag name' }).fill('meeting');
    await list.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(list.getByText('A tag with this name already exists in this list.')).toBeVisible();
    await list.getByRole('button', { name: 'Cancel' }).click();

    // Merge "Dev" into "Development".
    await list.getByRole('button', { name: 'Actions for tag Dev', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Merge into…' }).click();
    const merge = page.getByRole('dialog', { name: 'Merge “Dev”' });
    await merge.getByRole('combobox', { name: 'Merge into' }).click();
    await page.getByRole('option', { name: 'Development' }).click();
    await merge.getByRole('button', { name: 'Merge' }).click();
    await expect(list.getByTestId('tag')).toHaveCount(2);

    // Rename and archive.
    await list.getByRole('button', { name: 'Actions for tag Meeting' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await list.getByRole('textbox', { name: 'Tag name' }).fill('Meetings');
    await list.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(list.getByTestId('tag').filter({ hasText: 'Meetings' })).toBeVisible();
    await list.getByRole('button', { name: 'Actions for tag Meetings' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await expect(list.getByText('Meetings (archived)')).toBeVisible();

    await page.getByLabel('Time entries must have at least one tag').check();
    await page.getByRole('button', { name: 'Save Setting' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
    await shot(page, 'tags');

    await page.reload();
    await expect(page.getByLabel('Time entries must have at least one tag')).toBeChecked();
    await expect(page.getByRole('region', { name: 'Tag list Activity type' }).getByTestId('tag')).toHaveCount(2);

    // Rename and delete the list.
    await list.getByRole('button', { name: 'Actions for tag list Activity type' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Tag list name' }).fill('Activity');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const renamed = page.getByRole('region', { name: 'Tag list Activity' });
    await renamed.getByRole('button', { name: 'Actions for tag list Activity' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete tag list?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No tag lists yet.')).toBeVisible();
  });

  test('the owner imports a CSV with a preview, then a Toggl Track export, then a large one with progress', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    await page.goto('/homepage/projects');
    await page.getByRole('button', { name: 'More project actions' }).click();
    await page.getByRole('menuitem', { name: 'Import From CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import From CSV' });
    const csv = 'Client,Project,Task,Parent Task\nAcme,Website,Design,\nAcme,Website,Logo,Design\n,,Orphan,\n';
    await chooseImportFile(dialog, 'projects.csv', csv);
    await expect(dialog.getByTestId('import-summary')).toContainText('1 row has an error');
    await expect(dialog.getByRole('cell', { name: 'A task needs a project.' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled();
    await shotsAtWidths(page, 'projects-import-errors');
    await chooseImportFile(dialog, 'projects.csv', csv.replace(',,Orphan,\n', ''));
    await expect(dialog.getByTestId('import-summary')).toContainText(
      '2 rows. Importing creates 1 client, 1 project, 2 tasks, 0 tags, 0 time entries.',
    );
    await shot(page, 'projects-import');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(dialog.getByRole('status')).toContainText('Imported: 1 client, 1 project, 2 tasks');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    const row = page.getByTestId('project-row').filter({ hasText: 'Website' });
    await expect(row).toContainText('Acme');
    await row.click();
    await expect(page.getByRole('group', { name: 'Tasks of Website' }).getByTestId('task-row')).toHaveCount(2);

    await page.getByRole('button', { name: 'More project actions' }).click();
    await page.getByRole('menuitem', { name: 'Import From add-ons' }).click();
    const addons = page.getByRole('dialog', { name: 'Import From add-ons' });
    await addons.getByText('Toggl Track', { exact: true }).click();
    const toggl = [
      'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags',
      'Ann,ann@example.org,Initech,Mobile app,Backend,API work,Yes,2026-11-02,09:00:00,2026-11-02,11:00:00,02:00:00,"dev, api"',
    ].join('\n');
    await chooseImportFile(addons, 'toggl.csv', toggl);
    await expect(addons.getByTestId('import-summary')).toContainText(
      '1 client, 1 project, 1 task, 2 tags, 1 time entry',
    );
    await addons.getByRole('button', { name: 'Import' }).click();
    await expect(addons.getByRole('status')).toContainText('Imported');
    await addons.getByRole('button', { name: 'Close', exact: true }).click();

    // A large export: read as it uploads, then imported in the background with its progress shown.
    await page.getByRole('button', { name: 'More project actions' }).click();
    await page.getByRole('menuitem', { name: 'Import From add-ons' }).click();
    await addons.getByText('Toggl Track', { exact: true }).click();
    const large = [toggl.split('\n')[0]];
    for (let i = 0; i < 10_000; i++) {
      large.push(
        `Ann,ann@example.org,Initech,Bulk ${i % 5},,Item ${i},No,2026-10-0${1 + (i % 9)},08:00:00,,,00:30:00,`,
      );
    }
    await chooseImportFile(addons, 'toggl-large.csv', large.join('\n'));
    await expect(addons.getByTestId('import-summary')).toContainText(
      '10,000 rows. Importing creates 0 clients, 5 projects',
      { timeout: allow(30_000) },
    );
    await addons.getByRole('button', { name: 'Import' }).click();
    const progress = addons.getByTestId('import-progress');
    await expect(progress).toContainText(/Waiting to start|Imported [\d,]+ of 10,000 rows/);
    await shotsAtWidths(page, 'projects-import-progress');
    await expect(addons.getByRole('status')).toContainText(
      'Imported: 0 clients, 5 projects, 0 tasks, 0 tags, 10,000 time entries',
      {
        timeout: allow(60_000),
      },
    );
    await shotsAtWidths(page, 'projects-import-done');
    await addons.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(page.getByTestId('project-row').filter({ hasText: 'Mobile app' })).toContainText('2:00:00');
    await page.getByTestId('project-row').filter({ hasText: 'Mobile app' }).click();
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    await pane.getByRole('textbox', { name: 'Budget amount' }).fill('4');
    await expect(pane.getByTestId('budget-usage')).toHaveText('Tracked 2:00:00 of 4 h (50%)');
    await page.goto('/homepage/tags');
    await expect(
      page.getByRole('region', { name: 'Tag list Imported from Toggl Track' }).getByTestId('tag'),
    ).toHaveCount(2);
  });

  test('a member sees only the projects shared with them, and cannot change them', async ({
    page,
    browser,
    baseURL,
  }) => {
    const owner = await browser.newContext({ baseURL });
    await signUpOverHttp(owner.request);
    const ws = await workspaceApi(owner.request);
    const { id: memberId } = await joinAsMember(owner.request, ws, page.request, 'Mia Member');
    const shared = await (
      await owner.request.post(`${ws}/projects`, { data: { name: 'Shared work', description: 'Visible to Mia' } })
    ).json();
    await owner.request.post(`${ws}/projects`, { data: { name: 'Secret plans' } });
    await owner.request.put(`${ws}/projects/${shared.id}/people`, { data: { userIds: [memberId], groupIds: [] } });
    await owner.request.post(`${ws}/projects/${shared.id}/tasks`, { data: { name: 'Do the thing' } });
    await owner.close();

    await page.goto('/homepage/projects');
    const rows = page.getByTestId('project-row');
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText('Shared work');
    await expect(page.getByRole('button', { name: 'Add Project' })).toHaveCount(0);
    await rows.click();
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    await expect(pane.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    await expect(pane.getByTestId('description')).toContainText('Visible to Mia');
    await expect(pane.getByText('Mia Member').first()).toBeVisible();
    await expect(pane.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'Tasks of Shared work' }).getByTestId('task-row')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Delete task Do the thing' })).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Filter' }).click();
    await page.getByRole('option', { name: 'My Task' }).click();
    await expect(rows).toHaveCount(1);
    await shot(page, 'projects-member');
  });

  test('the owner grants "Can manage" to one member, who then edits the project; the other member cannot', async ({
    page,
    browser,
    baseURL,
  }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const granted = await browser.newContext({ baseURL });
    const other = await browser.newContext({ baseURL });
    const gina = await joinAsMember(page.request, ws, granted.request, 'Gina Granted');
    const uma = await joinAsMember(page.request, ws, other.request, 'Uma Ungranted');
    const project = await (await page.request.post(`${ws}/projects`, { data: { name: 'Team site' } })).json();
    await page.request.put(`${ws}/projects/${project.id}/people`, {
      data: { userIds: [gina.id, uma.id], groupIds: [] },
    });

    // The owner switches "Can manage" on for Gina in the People section and saves.
    await page.goto('/homepage/projects');
    await page.getByTestId('project-row').filter({ hasText: 'Team site' }).click();
    const pane = page.getByRole('complementary', { name: 'Edit pane' });
    const ginaSwitch = pane.getByRole('switch', { name: 'Gina Granted can manage' });
    await expect(ginaSwitch).not.toBeChecked();
    await ginaSwitch.click({ force: true });
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Project saved.')).toBeVisible();
    await page.reload();
    await page.getByTestId('project-row').filter({ hasText: 'Team site' }).click();
    await expect(pane.getByRole('switch', { name: 'Gina Granted can manage' })).toBeChecked();
    await expect(pane.getByRole('switch', { name: 'Uma Ungranted can manage' })).not.toBeChecked();
    await shot(page, 'projects-grants');

    // Gina edits the project; People stay read-only for her, and the row menu has no Delete.
    const ginaPage = await granted.newPage();
    await ginaPage.goto('/homepage/projects');
    await ginaPage.getByTestId('project-row').filter({ hasText: 'Team site' }).click();
    const ginaPane = ginaPage.getByRole('complementary', { name: 'Edit pane' });
    await expect(ginaPane.getByRole('heading', { name: 'Edit Project' })).toBeVisible();
    await ginaPane.getByRole('textbox', { name: 'Name' }).fill('Team site v2');
    await ginaPane.getByRole('checkbox', { name: 'Time from this task is billable by default' }).check();
    await expect(ginaPane.getByRole('switch')).toHaveCount(1); // Enable Keyword only: no grant toggles
    await expect(ginaPane.getByRole('group', { name: 'Who can manage this project' })).toContainText('Gina Granted');
    await ginaPane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(ginaPage.getByText('Project saved.')).toBeVisible();
    await ginaPage.reload();
    const ginaRow = ginaPage.getByTestId('project-row').filter({ hasText: 'Team site v2' });
    await ginaRow.click();
    await expect(ginaPane.getByRole('textbox', { name: 'Name' })).toHaveValue('Team site v2');
    await expect(ginaPane.getByRole('checkbox', { name: 'Time from this task is billable by default' })).toBeChecked();
    await ginaRow.hover();
    await ginaPage.getByRole('button', { name: 'Actions for Team site v2' }).click();
    await expect(ginaPage.getByRole('menuitem', { name: 'Archive' })).toBeVisible();
    await expect(ginaPage.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
    await ginaPage.keyboard.press('Escape');
    // She adds a task to it, too.
    await ginaRow.hover();
    await ginaRow.getByRole('button', { name: 'Add Task to Team site v2' }).click();
    await ginaPane.getByRole('textbox', { name: 'Task title' }).fill('Copy review');
    await ginaPane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(ginaPage.getByText('Task created.')).toBeVisible();
    await expect(ginaPage.getByRole('group', { name: 'Tasks of Team site v2' })).toContainText('Copy review');
    await shot(ginaPage, 'projects-granted-member');

    // Uma sees the project read-only.
    const umaPage = await other.newPage();
    await umaPage.goto('/homepage/projects');
    await umaPage.getByTestId('project-row').filter({ hasText: 'Team site v2' }).click();
    const umaPane = umaPage.getByRole('complementary', { name: 'Edit pane' });
    await expect(umaPane.getByRole('heading', { name: 'Project', exact: true })).toBeVisible();
    await expect(umaPane.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    await expect(umaPane.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    await expect(umaPage.getByRole('button', { name: 'Actions for Team site v2' })).toHaveCount(0);
    await granted.close();
    await other.close();
  });

  test('a long project list shows a few rows at a time and loads the next page as its end comes near', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    for (let i = 1; i <= 101; i++) {
      const name = `Bulk ${String(i).padStart(3, '0')}`;
      expect((await page.request.post(`${ws}/projects`, { data: { name } })).status()).toBe(201);
    }
    await page.goto('/homepage/projects');
    const rows = page.getByTestId('project-row');
    await expect(rows.first()).toContainText('Bulk 001');
    // Only the rows near the viewport are in the page; the rest are loaded and shown on scrolling.
    expect(await rows.count()).toBeLessThan(60);
    await expect(page.getByText('Showing 100 of 101 projects')).toBeVisible();
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return rows.last().textContent();
      })
      .toContain('Bulk 101');
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    // An expanded project deep in the list keeps its tasks open while scrolled away and back.
    await rows.filter({ hasText: 'Bulk 099' }).getByRole('button', { expanded: false }).click();
    await expect(rows.filter({ hasText: 'Bulk 099' }).getByRole('button', { expanded: true })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(rows.filter({ hasText: 'Bulk 099' })).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(rows.filter({ hasText: 'Bulk 099' }).getByRole('button', { expanded: true })).toBeVisible();
    // A search starts again from the first page.
    await page.getByRole('textbox', { name: 'Search projects and tasks' }).fill('Bulk 10');
    await expect(rows).toHaveCount(2);
  });
});
