import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { signUpOverHttp, workspaceApi } from './support/users';

/**
 * COMPUTER TIME > Categories (issue 35): a new workspace reads the starter categories, tries a
 * window against the rules, adds a category with a rule inside another, sees the window sorted
 * into it at once, and deletes it.
 */
test('an owner sorts activity into categories by rules, tried on a window as they are changed', async ({ page }) => {
  test.setTimeout(allow(90_000));
  await signUpOverHttp(page.request);
  const ws = await workspaceApi(page.request);
  await page.goto('/homepage/computer-time/categories');
  await expect(page.getByText('Activity from the desktop app is sorted into these categories')).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByRole('rowheader', { name: 'Development' })).toBeVisible();
  await expect(table.getByRole('rowheader', { name: 'Social media' })).toBeVisible();

  // The default window of the try-out box is a pull request on GitHub: Development.
  const result = page.getByTestId('category-result');
  await expect(result).toContainText('Development');
  await expect(result).toContainText('Productive');
  await page.getByRole('textbox', { name: 'Address' }).fill('https://www.netflix.com/browse');
  await expect(result).toContainText('Entertainment');
  await expect(result).toContainText('Unproductive');
  await page.getByRole('textbox', { name: 'Address' }).fill('https://github.com/acme/app/pull/7');
  await expectNoSeriousViolations(page, 'categories');
  await shotsAtWidths(page, 'computer-time-categories');

  // Code review, inside Development, for pull requests: deeper, so it wins.
  await page.getByRole('button', { name: 'Actions for Development' }).click();
  await page.getByRole('menuitem', { name: 'Add a category inside' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Code review');
  await dialog.getByRole('button', { name: 'Add a rule' }).click();
  await dialog.getByRole('combobox', { name: 'Rules 1: field' }).click();
  await page.getByRole('option', { name: 'Site' }).click();
  await dialog.getByLabel('Rules 1: Contains').fill('github.com/*/pull');
  await shotsAtWidths(page, 'computer-time-category-modal');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('rowheader', { name: 'Code review' })).toBeVisible();
  await expect(result).toContainText('Development › Code review');

  // Stored for everyone: the API answers the same tree.
  const stored = await (await page.request.get(`${ws}/computer-time/categories`)).json();
  expect(stored.items.find((c: { name: string }) => c.name === 'Code review')?.rules).toEqual([
    { field: 'site', pattern: 'github.com/*/pull' },
  ]);

  await page.getByRole('button', { name: 'Actions for Code review' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(table.getByRole('rowheader', { name: 'Code review' })).toHaveCount(0);
  await expect(result).not.toContainText('Code review');

  // What the desktop app keeps: applications only, away after 5 minutes, 90 days, managers see
  // their people's, and a password manager never recorded.
  const settings = page.getByRole('region', { name: 'What the desktop app keeps' });
  await settings.getByRole('radio', { name: 'Applications', exact: true }).check();
  await settings.getByLabel('Away after (minutes)').fill('5');
  await settings.getByRole('combobox', { name: 'Keep activity' }).click();
  await page.getByRole('option', { name: '90 days' }).click();
  await settings.getByRole('switch', { name: /^Managers see their people’s activity/ }).check();
  await settings.getByRole('button', { name: 'Add an exclusion' }).click();
  // A refused save (an empty pattern) says why beside the row, and keeps what was chosen.
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByText('A pattern is 1 to 200 characters.')).toBeVisible();
  await expect(settings.getByRole('radio', { name: 'Applications', exact: true })).toBeChecked();
  expect((await (await page.request.get(`${ws}/computer-time/settings`)).json()).keep).toBe('titles');
  await settings.getByRole('textbox', { name: 'Exclusion 1: Contains' }).fill('keepass');
  await shotsAtWidths(page, 'computer-time-settings');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Computer time settings saved.')).toBeVisible();
  expect(await (await page.request.get(`${ws}/computer-time/settings`)).json()).toEqual({
    keep: 'apps',
    idleSeconds: 300,
    retentionDays: 90,
    managersSeeActivity: true,
    exclusions: [{ field: 'app', pattern: 'keepass' }],
  });

  // A group of its own: it keeps applications only, and its managers do not see its people's activity.
  const group = await (await page.request.post(`${ws}/groups`, { data: { name: 'Support' } })).json();
  await page.reload();
  const groups = page.getByRole('region', { name: 'Groups with settings of their own' });
  await expect(groups.getByText('No group has settings of its own')).toBeVisible();
  await groups.getByRole('combobox', { name: 'Group to give its own settings' }).click();
  await page.getByRole('option', { name: 'Support' }).click();
  await expect(groups.getByText('Choose something to save it.')).toBeVisible();
  await groups.getByRole('combobox', { name: 'Keep: Support' }).click();
  await page.getByRole('option', { name: 'Applications', exact: true }).click();
  await expect(groups.getByRole('status')).toHaveText('Saved');
  await groups.getByRole('combobox', { name: 'Managers see: Support' }).click();
  await page.getByRole('option', { name: 'No', exact: true }).click();
  await expect(groups.getByRole('combobox', { name: 'Managers see: Support' })).toHaveValue('No');
  await expect(groups.getByText('Choose something to save it.')).toBeHidden();
  await shotsAtWidths(page, 'computer-time-group-settings');
  const chosen = async () => (await (await page.request.get(`${ws}/computer-time/group-settings`)).json()).items;
  await expect
    .poll(chosen)
    .toEqual([{ groupId: group.id, groupName: 'Support', keep: 'apps', managersSeeActivity: false }]);
  await groups.getByRole('button', { name: 'Give Support the workspace’s settings' }).click();
  await expect(groups.getByText('No group has settings of its own')).toBeVisible();
  expect(await chosen()).toEqual([]);
});
