import { expect, test } from '@playwright/test';
import { waitForMail } from './support/mail';
import { newEmail, PASSWORD, signUpOverHttp } from './support/users';

test.describe('team', () => {
  test('an owner invites a colleague, who accepts from the e-mail; the owner groups, re-roles and disables them', async ({
    page,
    browser,
  }) => {
    const owner = await signUpOverHttp(page.request, newEmail('owner'));
    const colleague = newEmail('colleague');

    // The owner invites a colleague from the Users screen.
    await page.goto('/homepage/user');
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await expect(page.getByTestId('seat-count')).toHaveText('1/unlimited users');
    await expect(page.getByRole('heading', { name: 'People (1 user)' })).toBeVisible();
    await expect(page.getByTestId(`member-${owner}`)).toContainText('Account owner');
    await page.getByRole('button', { name: 'Invite people' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite people' });
    await dialog.getByLabel('Email addresses').fill(colleague);
    await page.screenshot({ path: '/tmp/team-e2e-invite-dialog.png' });
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('table', { name: 'Pending invitations' })).toContainText(colleague);
    await page.screenshot({ path: '/tmp/team-e2e-invited.png', fullPage: true });

    // The colleague follows the link in the e-mail the server really sent, in their own browser.
    const mail = await waitForMail(colleague);
    const link = /http\S+\/invite\?token=[\w-]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    const theirs = await browser.newContext();
    const them = await theirs.newPage();
    await them.goto(link ?? '');
    await expect(them.getByText('invited you to join')).toBeVisible();
    await them.getByLabel('Your name').fill('Cleo Colleague');
    await them.getByLabel('Choose a password').fill(PASSWORD);
    await them.screenshot({ path: '/tmp/team-e2e-accept.png' });
    await them.getByRole('button', { name: 'Create account and join' }).click();
    await expect(them).toHaveURL(/\/homepage\/timesheet$/);

    // They can sign in again with the password they chose.
    await them.getByRole('button', { name: 'User menu' }).click();
    await them.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(them).toHaveURL(/\/$/);
    await them.goto('/loginpage');
    await them.getByLabel('Email').fill(colleague);
    await them.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await them.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(them).toHaveURL(/\/homepage\/timesheet$/);

    // The owner sees them, creates a group and puts them in it.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'People (2 users)' })).toBeVisible();
    await expect(page.getByTestId('seat-count')).toHaveText('2/unlimited users');
    await expect(page.getByRole('table', { name: 'Pending invitations' })).toBeHidden();

    await page.getByRole('button', { name: 'Create group' }).click();
    const groupDialog = page.getByRole('dialog', { name: 'Create group' });
    await groupDialog.getByLabel('Group name').fill('Design');
    await groupDialog.getByRole('button', { name: 'Create group' }).click();
    await expect(groupDialog).toBeHidden();
    await page.getByRole('button', { name: `Actions for ${colleague}` }).click();
    await page.getByRole('menuitem', { name: 'Design' }).click();
    await page.getByRole('button', { name: 'EXPAND ALL' }).click();
    const table = page.getByRole('table', { name: 'Groups and users' });
    await expect(table.getByText('Design')).toBeVisible();
    await expect(table.getByTestId(`member-${colleague}`)).toHaveCount(2);

    // The list pages: with one person per request (the page size rewritten on the way to the real
    // server), the screen offers to show more and counts everyone.
    const members = (url: URL) => url.pathname.endsWith('/members');
    await page.route(members, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('limit', '1');
      return route.continue({ url: url.toString() });
    });
    await page.reload();
    await expect(page.getByTestId('people-shown')).toHaveText('Showing 1 of 2 people');
    await expect(page.getByRole('heading', { name: 'People (2 users)' })).toBeVisible();
    await expect(page.getByTestId(`member-${colleague}`)).toHaveCount(0);
    // The group counts them and says they are on a page not loaded yet.
    await page.getByRole('button', { name: 'EXPAND ALL' }).click();
    await expect(table.getByText('1 more person in this group not loaded yet')).toBeVisible();
    await page.screenshot({ path: '/tmp/team-e2e-paged.png', fullPage: true });
    await page.getByRole('button', { name: 'Show more people' }).last().click();
    await expect(page.getByTestId(`member-${colleague}`)).toHaveCount(2);
    await expect(page.getByTestId('people-shown')).toBeHidden();
    await expect(table.getByText('not loaded yet')).toBeHidden();
    // The server searches people not loaded yet.
    await page.reload();
    await page.getByRole('textbox', { name: 'Search' }).fill(colleague.split('@')[0] ?? colleague);
    await expect(page.getByTestId(`member-${colleague}`).last()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'People (1 user)' })).toBeVisible();
    await page.unroute(members);
    await page.reload();

    // A project assigned to the group counts for its people (the project screens are another
    // journey; here the assignment goes through the same API they use).
    const workspaceId = (await (await page.request.get('/api/v1/me')).json()).currentWorkspaceId;
    const groups = (await (await page.request.get(`/api/v1/workspaces/${workspaceId}/groups`)).json()).items;
    const project = await (
      await page.request.post(`/api/v1/workspaces/${workspaceId}/projects`, { data: { name: 'Website relaunch' } })
    ).json();
    const assigned = await page.request.put(`/api/v1/workspaces/${workspaceId}/projects/${project.id}/people`, {
      data: { userIds: [], groupIds: [groups[0].id] },
    });
    expect(assigned.status()).toBe(200);
    await page.reload();
    const row = page.getByTestId(`member-${colleague}`).last();
    await row.getByRole('button', { name: '1 project' }).click();
    await expect(row.getByText('Website relaunch')).toBeVisible();

    // Bulk edit: make them a Manager.
    await page.getByRole('button', { name: 'Bulk edit' }).click();
    await page.getByRole('checkbox', { name: 'Select all users' }).check();
    await expect(page.getByText('2 selected')).toBeVisible();
    await page.getByRole('combobox', { name: 'Change role' }).click();
    await page.getByRole('option', { name: 'Manager' }).click();
    await page.screenshot({ path: '/tmp/team-e2e-bulk.png', fullPage: true });
    await page.getByRole('button', { name: 'Save' }).click();
    // The owner was selected too; their role stays, and the message says so.
    await expect(page.getByText('1 user updated. The role and status of the account owner')).toBeVisible();
    await expect(page.getByRole('combobox', { name: `Role of ${colleague}` })).toHaveValue('Manager');
    await page.screenshot({ path: '/tmp/team-e2e-grouped.png', fullPage: true });

    // Disable them: their access to this workspace ends at once (their session, which belongs to their
    // account and not to this workspace, stays: issue 29).
    await page
      .getByRole('button', { name: `Actions for ${colleague}` })
      .last()
      .click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await expect(page.getByTestId(`member-${colleague}`).last()).toContainText('Disabled');
    await expect(page.getByTestId('seat-count')).toHaveText('1/unlimited users');
    await them.goto('/homepage/timesheet');

    // They are told why there is nothing to see, not shown an empty app.
    const workspaceName = (await (await page.request.get(`/api/v1/workspaces/${workspaceId}`)).json()).name;
    await expect(them.getByRole('heading', { name: `You no longer have access to ${workspaceName}` })).toBeVisible();
    await expect(them.getByText(`An administrator of ${workspaceName} disabled your account`)).toBeVisible();
    await expect(them.getByRole('button', { name: 'Log out' })).toBeVisible();
    await expect(them.getByRole('navigation')).toHaveCount(0);
    await them.screenshot({ path: '/tmp/team-e2e-no-access.png' });
    await them.setViewportSize({ width: 375, height: 800 });
    await them.screenshot({ path: '/tmp/team-e2e-no-access-375.png', fullPage: true });
    await them.setViewportSize({ width: 1280, height: 720 });

    // The "hide disabled users" setting is saved for the workspace.
    await page.getByRole('checkbox', { name: 'Hide disabled users from lists in reports' }).check();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Hide disabled users from lists in reports' })).toBeChecked();
    await page.screenshot({ path: '/tmp/team-e2e-disabled.png', fullPage: true });

    // The disabled colleague starts a workspace of their own and is in the app.
    await them.getByLabel('Workspace name').fill('Cleo Studio');
    await them.getByRole('button', { name: 'Create a workspace' }).click();
    await expect(them).toHaveURL(/\/homepage\/timesheet$/);
    await them.getByRole('button', { name: 'User menu' }).click();
    await expect(them.getByRole('menuitem', { name: 'Cleo Studio' })).toBeVisible();
    await theirs.close();
  });
});
