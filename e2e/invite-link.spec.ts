import { expect, test } from '@playwright/test';
import { waitForMail } from './support/mail';
import { newEmail, PASSWORD, signUpOverHttp } from './support/users';

test.describe('invitation link', () => {
  test('an owner copies an invitation link from the pending list and hands it over; the colleague joins with it', async ({
    page,
    context,
    browser,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUpOverHttp(page.request, newEmail('owner'));
    const colleague = newEmail('colleague');
    const invited = await page.request.get('/api/v1/me');
    const workspaceId = (await invited.json()).currentWorkspaceId as string;
    await page.request.post(`/api/v1/workspaces/${workspaceId}/invites`, { data: { emails: [colleague] } });
    const mailed = /http\S+\/invite\?token=[\w-]+/.exec((await waitForMail(colleague)).text)?.[0] ?? '';
    expect(mailed).toBeTruthy();

    await page.goto('/homepage/user');
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    await expect(pending).toContainText(colleague);
    await pending.getByRole('button', { name: `Copy invitation link for ${colleague}` }).click();
    await expect(page.getByText(`Invitation link for ${colleague} copied`)).toBeVisible();
    await expect(page.getByText('The link e-mailed before no longer works.')).toBeVisible();
    await page.screenshot({ path: '/tmp/invite-link-copied.png' });
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/\/invite\?token=[\w-]+$/);
    expect(link).not.toBe(mailed);

    // Where the clipboard is out of reach, the link is shown to copy by hand.
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new Error('not allowed'));
    });
    await pending.getByRole('button', { name: `Copy invitation link for ${colleague}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Invitation link' });
    const field = dialog.getByLabel(`Invitation link for ${colleague}`);
    await expect(field).toHaveValue(/\/invite\?token=[\w-]+$/);
    await expect(dialog).toContainText('replaces the link e-mailed before');
    await page.screenshot({ path: '/tmp/invite-link-dialog.png' });
    const shown = await field.inputValue();
    expect(shown).not.toBe(link);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();

    // The colleague, in their own browser: the e-mailed and first copied links no longer work; the newest does.
    const theirs = await browser.newContext();
    const them = await theirs.newPage();
    for (const stale of [mailed, link]) {
      await them.goto(stale);
      await expect(them.getByRole('button', { name: 'Create account and join' })).toBeHidden();
      await expect(them.getByText('This invitation link is not valid.', { exact: false })).toBeVisible();
    }
    await them.goto(shown);
    await expect(them.getByText('invited you to join')).toBeVisible();
    await them.getByLabel('Your name').fill('Cleo Colleague');
    await them.getByLabel('Choose a password').fill(PASSWORD);
    await them.getByRole('button', { name: 'Create account and join' }).click();
    await expect(them).toHaveURL(/\/homepage\/timesheet$/);
    await theirs.close();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'People (2 users)' })).toBeVisible();
    await expect(pending).toBeHidden();
  });
});
