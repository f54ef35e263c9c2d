import { expect, test } from '@playwright/test';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

test.describe('custom roles', () => {
  test("an owner makes a role that sees others' time but does not edit projects, gives it to a member, who sees the right things; then a SCIM token", async ({
    page,
    browser,
  }) => {
    test.slow();
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const memberContext = await browser.newContext();
    const memberPage = await memberContext.newPage();
    const member = await joinAsMember(page.request, ws, memberPage.request, 'Rita Reviewer');
    const project = await (
      await page.request.post(`${ws}/projects`, { data: { name: 'Harbour', isPublic: true } })
    ).json();
    await page.request.put(`${ws}/projects/${project.id}/people`, {
      data: { userIds: [member.id], groupIds: [], managerUserIds: [member.id] },
    });

    await page.goto('/homepage/roles');
    await expect(page.getByTestId('roles-empty')).toBeVisible();
    await shotsAtWidths(page, 'roles-empty');

    await page.getByRole('button', { name: 'New role' }).click();
    const dialog = page.getByRole('dialog', { name: 'New role' });
    await dialog.getByLabel('Name').fill('Reviewer');
    await dialog.getByLabel("See others' time").check();
    await dialog.getByLabel('Edit projects granted "Can manage"').uncheck();
    await shotsAtWidths(page, 'roles-matrix');
    await dialog.getByRole('button', { name: 'Save role' }).click();
    await expect(page.getByTestId('roles-table')).toContainText('Reviewer');

    await page.getByRole('combobox', { name: 'Custom role of Rita Reviewer' }).click();
    await page.getByRole('option', { name: 'Reviewer' }).click();
    await expect(page.getByTestId('roles-table')).toContainText('1 people');

    // SCIM: generated, shown once.
    await page.getByRole('button', { name: 'Generate token' }).click();
    await expect(page.getByLabel('Token (shown once)')).toHaveValue(/^sdscim_/);
    // People who already have an account are invited, never added (issue 29).
    await expect(page.getByTestId('scim-section')).toContainText('is sent an invitation and joins when they accept it');
    await shotsAtWidths(page, 'roles-full');

    // The member: others' time, yes; editing the granted project, no; the roles page, no.
    const me = await (await memberPage.request.get('/api/v1/me')).json();
    const current = me.workspaces.find((w: { id: string }) => ws.endsWith(w.id));
    expect(current.customRole.name).toBe('Reviewer');
    expect(current.permissions).toContain('time:view_others');
    const renamed = await memberPage.request.patch(`${ws}/projects/${project.id}`, { data: { name: 'Mine now' } });
    expect(renamed.status()).toBe(403);
    await memberPage.goto('/homepage/timesheet');
    await expect(memberPage.getByRole('combobox', { name: /timesheet of/i })).toBeVisible();
    await memberPage.goto('/homepage/roles');
    await expect(memberPage.getByText('Only owners and administrators manage roles.')).toBeVisible();
    await memberContext.close();
  });
});
