import { expect, type Page, test } from '@playwright/test';
import { shotsAtWidths } from './support/shots';
import { joinAsMember, signUpOverHttp, workspaceApi } from './support/users';

/** The links of the sidebar (its menus are buttons), as the person sees them; the first is the logo. */
const sidebarLinks = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link');
const EVERYONE = ['Sundial', 'Timesheet', 'Dashboard', 'Projects', 'Tags', 'Attendance'];

test.describe('navigation', () => {
  test('an owner sees every link; a member and a guest see only the pages they may use, and a typed URL says why not', async ({
    page,
    browser,
  }) => {
    test.slow();
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    await page.goto('/homepage/timesheet');
    await expect(sidebarLinks(page)).toHaveText([
      'Sundial',
      'Timesheet',
      'Dashboard',
      'Projects',
      'Tags',
      'Invoices',
      'Users',
      'Roles',
      'Single sign-on',
      'Audit log',
      'API & webhooks',
      'Attendance',
      'Approvals',
    ]);
    await page.getByRole('button', { name: /User menu/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Billing' })).toBeVisible();
    await shotsAtWidths(page, 'nav-owner');

    const memberContext = await browser.newContext();
    const member = await memberContext.newPage();
    await joinAsMember(page.request, ws, member.request, 'Mina Member');
    await member.goto('/homepage/timesheet');
    await expect(sidebarLinks(member)).toHaveText([...EVERYONE.slice(0, 5), 'Users', 'Attendance']);
    await member.getByRole('button', { name: /User menu/ }).click();
    await expect(member.getByRole('menuitem', { name: 'Profile settings' })).toBeVisible();
    await expect(member.getByRole('menuitem', { name: 'Billing' })).toHaveCount(0);
    await shotsAtWidths(member, 'nav-member');
    await member.keyboard.press('Escape');
    for (const [path, says] of <[string, string][]>[
      ['/homepage/invoices', 'Only owners and admins see invoices.'],
      ['/homepage/roles', 'Only owners and administrators manage roles.'],
      ['/homepage/sso', 'Only owners and admins manage single sign-on.'],
      ['/homepage/approvals', 'Approvals are for owners, admins and managers.'],
    ]) {
      await member.goto(path);
      await expect(member.getByText(says)).toBeVisible();
    }
    await memberContext.close();

    const guestContext = await browser.newContext();
    const guest = await guestContext.newPage();
    await joinAsMember(page.request, ws, guest.request, 'Gus Guest', 'guest');
    await guest.goto('/homepage/timesheet');
    await expect(sidebarLinks(guest)).toHaveText(EVERYONE);
    await shotsAtWidths(guest, 'nav-guest');
    await guest.goto('/homepage/user');
    await expect(guest.getByText('not the people of the workspace')).toBeVisible();
    await guestContext.close();
  });
});
