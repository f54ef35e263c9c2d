import { expect, test } from '@playwright/test';
import { shotsAtWidths } from './support/shots';
import { signUpOverHttp, workspaceApi, workspacePoster } from './support/users';

test.describe('advanced tags', () => {
  test('a list required on a project blocks saving an entry with a message naming it, and picking a tag saves it; the rules are set on the Tags screen and the project', async ({
    page,
  }) => {
    test.slow();
    await signUpOverHttp(page.request);
    const post = workspacePoster(page.request, await workspaceApi(page.request));
    await post('/projects', { name: 'Website', isPublic: true });
    const activity = await post('/tag-lists', { name: 'Activity' });
    await post(`/tag-lists/${activity.id}/tags`, { name: 'Meeting' });
    const phase = await post('/tag-lists', { name: 'Phase' });
    await post(`/tag-lists/${phase.id}/tags`, { name: 'Design' });

    // The project asks for a tag of "Activity" (its panel on Projects).
    await page.goto('/homepage/projects');
    await page
      .getByRole('listitem', { name: 'Website' })
      .getByRole('button', { name: /^Website/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Edit Project' })).toBeVisible();
    const required = page.getByRole('region', { name: 'Required tag lists' });
    await required.getByPlaceholder('Choose tag lists').click();
    await page.getByRole('option', { name: 'Activity' }).click();
    await page.keyboard.press('Escape');
    await required.getByRole('button', { name: 'Save required lists' }).click();
    await expect(page.getByText('Required tag lists saved.')).toBeVisible();
    await shotsAtWidths(page, 'advanced-tags-project');

    // "Phase" is pick-one (the Tags screen); both lists show their rules.
    await page.goto('/homepage/tags');
    await page.getByRole('button', { name: 'Actions for tag list Phase' }).click();
    await page.getByRole('menuitem', { name: 'Rules…' }).click();
    const rules = page.getByRole('dialog', { name: 'Rules of “Phase”' });
    await rules.getByLabel('Pick one: a time entry may carry only one tag of this list').check();
    await shotsAtWidths(page, 'advanced-tags-rules');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(rules).toBeHidden();
    const phaseCard = page.getByRole('region', { name: 'Tag list Phase' });
    await expect(phaseCard.getByText('Pick one', { exact: true })).toBeVisible();
    const activityCard = page.getByRole('region', { name: 'Tag list Activity' });
    await expect(activityCard.getByText('Required on 1 project')).toBeVisible();
    await shotsAtWidths(page, 'advanced-tags-list');

    // An entry on Website without an Activity tag is refused, with the list named.
    await page.goto('/homepage/timesheet');
    await page.getByRole('button', { name: 'Add entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a time entry' });
    await dialog.getByLabel('Start time').fill('00:10');
    await dialog.getByRole('textbox', { name: 'Duration' }).fill('30m');
    await dialog.getByRole('combobox', { name: 'Project' }).click();
    await page.getByRole('option', { name: 'Website', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('This project needs a tag from "Activity": pick one.');
    await shotsAtWidths(page, 'advanced-tags-refused');
    await dialog.getByPlaceholder('Tags').click();
    await page.getByRole('option', { name: 'Meeting' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Save entry' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('entry-row')).toHaveCount(1);
  });
});
