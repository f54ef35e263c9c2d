import { expect, test } from '@playwright/test';
import { newEmail, PASSWORD, signUpOverHttp, workspaceApi } from './support/users';

test.describe('allowed e-mail domains', () => {
  test('an admin sets the workspace’s allowed domains; an invitation outside them is refused on screen', async ({
    page,
    browser,
  }) => {
    // The owner (in a context of its own) makes the admin, who accepts over HTTP in the page's context.
    const ownerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    await signUpOverHttp(ownerContext.request, newEmail('owner'));
    const ws = await workspaceApi(ownerContext.request);
    const adminEmail = newEmail('admin');
    const sent = await ownerContext.request.post(`${ws}/invites`, { data: { emails: [adminEmail], role: 'admin' } });
    expect(sent.status(), await sent.text()).toBe(201);
    const link = await ownerContext.request.post(`${ws}/invites/${(await sent.json()).items[0].id}/link`);
    const token = new URL((await link.json()).url).searchParams.get('token');
    const accepted = await page.request.post(`/api/v1/invites/${token}/accept`, {
      data: { password: PASSWORD, name: 'Ada Admin' },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    await ownerContext.close();

    await page.goto('/homepage/profile');
    const domains = page.getByRole('combobox', { name: 'Allowed e-mail domains' });
    await expect(page.getByText('Any e-mail address may join this workspace.')).toBeVisible();
    await domains.fill('bad_domain');
    await domains.press('Enter');
    await page.getByRole('button', { name: 'Save domains' }).click();
    await expect(page.getByText('"bad_domain" is not a domain. Enter one like example.com.')).toBeVisible();
    await page.screenshot({ path: '/tmp/sec-allowed-domains-error.png' });
    await domains.press('Backspace');
    await domains.fill('Allowed.example');
    await domains.press('Enter');
    await page.getByRole('button', { name: 'Save domains' }).click();
    await expect(page.getByText('Allowed e-mail domains saved.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save domains' })).toBeDisabled();
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      await domains.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/sec-allowed-domains-${width}.png` });
    }

    await page.goto('/homepage/user');
    await page.getByRole('button', { name: 'Invite people' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite people' });
    await dialog.getByLabel('Email addresses').fill('someone@elsewhere.example');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      'someone@elsewhere.example is not at an allowed e-mail domain of this workspace (allowed.example).',
    );
    await page.screenshot({ path: '/tmp/sec-allowed-domains-refused.png' });
    await dialog.getByLabel('Email addresses').fill('someone@allowed.example');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(page.getByRole('table', { name: 'Pending invitations' })).toContainText('someone@allowed.example');
  });
});
