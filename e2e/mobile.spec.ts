import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { SIGNED_IN_PATHS } from '../apps/web/src/routes';
import { waitForMail } from './support/mail';
import { shot } from './support/shots';
import { allow } from './support/time';
import { confirmAddressOverHttp, newEmail, PASSWORD, signUpOverHttp } from './support/users';

const PHONE = { width: 375, height: 812 };
/** How far the page reaches past the right edge of the window (0 when nothing scrolls sideways). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** An owner named Olivia Owner, with a project, time entries, a tag and a pending invitation to show. */
async function seedOwner(request: APIRequestContext): Promise<string> {
  // Confirmed, as a team's owner soon is: the pages are measured without the confirmation banner.
  await confirmAddressOverHttp(request, await signUpOverHttp(request, newEmail('olivia')));
  expect((await request.patch('/api/v1/me', { data: { name: 'Olivia Owner' } })).status()).toBe(200);
  const ws = (await (await request.get('/api/v1/me')).json()).currentWorkspaceId as string;
  const project = await request.post(`/api/v1/workspaces/${ws}/projects`, {
    // An hour's budget, over by the three hours below: its row shows an "Over budget" badge.
    data: { name: 'Website relaunch for a client with a rather long name', budget: { type: 'hours', amount: 60 } },
  });
  expect(project.status()).toBe(201);
  const projectId = (await project.json()).id;
  for (const hoursAgo of [3, 27]) {
    const start = new Date(Date.now() - hoursAgo * 3_600_000);
    const entry = await request.post(`/api/v1/workspaces/${ws}/time-entries`, {
      data: {
        start: start.toISOString(),
        end: new Date(start.getTime() + 5_400_000).toISOString(),
        note: 'Writing the release notes and a long description of what changed',
        projectId,
      },
    });
    expect(entry.status()).toBe(201);
  }
  const list = await request.post(`/api/v1/workspaces/${ws}/tag-lists`, { data: { name: 'Activity type' } });
  expect(list.status()).toBe(201);
  await request.post(`/api/v1/workspaces/${ws}/tag-lists/${(await list.json()).id}/tags`, {
    data: { name: 'Meeting' },
  });
  return ws;
}

test.describe('on a phone (375 px)', () => {
  test.use({ viewport: PHONE });

  test('every signed-in page fits the width, the drawer navigates and the timer starts and stops', async ({ page }) => {
    // It opens every page of the route table (36 and growing), each until the network is quiet.
    test.setTimeout(allow(60_000 + SIGNED_IN_PATHS.length * 5_000));
    const ws = await seedOwner(page.request);
    await page.request.post(`/api/v1/workspaces/${ws}/invites`, {
      data: { emails: ['someone.with.a.rather.long.address@example.org'], role: 'member' },
    });

    // Every page of the app's route list, at phone width: nothing scrolls sideways.
    for (const path of SIGNED_IN_PATHS) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByLabel('Loading')).toHaveCount(0);
      await page.waitForLoadState('networkidle');
      expect(await sidewaysOverflow(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }

    // The timesheet's three views too.
    await page.goto('/homepage/timesheet');
    for (const view of ['Day list', 'Week', 'Calendar']) {
      await page.getByText(view, { exact: true }).click();
      await page.waitForLoadState('networkidle');
      await shot(page, `mobile-timesheet-${view.replace(' ', '-').toLowerCase()}`);
      expect(await sidewaysOverflow(page), `the ${view} view scrolls sideways`).toBeLessThanOrEqual(0);
    }
    await page.getByText('Day list', { exact: true }).click();

    // The sidebar is a drawer behind the menu button.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await shot(page, 'mobile-drawer');
    await drawer.getByRole('link', { name: 'Projects' }).click();
    await expect(page).toHaveURL(/\/homepage\/projects$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    // A row with a budget badge keeps its name readable, and the badge its whole text.
    const row = page.getByTestId('project-row').filter({ hasText: 'Website relaunch' });
    const badge = row.getByText('Over budget');
    await expect(badge).toBeVisible();
    expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    const name = row.getByRole('button', { name: /^Website relaunch/ });
    const [nameBox, rowBox] = [await name.boundingBox(), await row.boundingBox()];
    expect(nameBox?.width ?? 0, 'the project name keeps most of the row').toBeGreaterThan((rowBox?.width ?? 0) * 0.6);
    await shot(page, 'mobile-projects');
    // Reports unfold in place (no hover on a touch screen).
    await page.getByRole('button', { name: 'Open menu' }).click();
    await drawer.getByRole('button', { name: 'Reports' }).click();
    await drawer.getByRole('link', { name: 'Summary' }).click();
    await expect(page).toHaveURL(/\/homepage\/reports\/summary$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Summary' })).toBeVisible();

    // The top bar: the whole "Subscribe to Pro" button is on screen, and the avatar's initials.
    await page.goto('/homepage/timesheet');
    const subscribe = page.getByRole('link', { name: 'Subscribe to Pro' });
    await expect(subscribe).toBeVisible();
    const box = await subscribe.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
    await expect(page.getByRole('button', { name: 'User menu' })).toHaveText('OO');

    // The timer starts and stops at this width.
    await page.getByRole('textbox', { name: 'Note', exact: true }).fill('Call from the train');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expect(page.getByLabel('Elapsed')).toHaveText(/0:00:0[1-9]/);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'mobile-timer-running');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Entry note' }).first()).toHaveValue('Call from the train');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'mobile-timer-stopped');
  });
});

test.describe('the shell', () => {
  test('a long address and workspace name wrap on the welcome page, light and dark', async ({ page }) => {
    await page.setViewportSize(PHONE);
    // Sign-up names the person and the workspace after the address: here a long one, unconfirmed.
    await signUpOverHttp(page.request, newEmail('internationale.handelsgesellschaft.nordrhein.westfalen'));
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto('/homepage/welcome');
      await expect(page.getByRole('heading', { name: 'Welcome to Sundial' })).toBeVisible();
      // The confirmation banner wraps the address; its close button stays on the screen.
      const banner = page.getByTestId('email-banner');
      await expect(banner).toContainText('internationale.handelsgesellschaft');
      const dismiss = banner.getByRole('button', { name: 'Dismiss' });
      const box = await dismiss.boundingBox();
      expect((box?.x ?? PHONE.width) + (box?.width ?? 0), "the banner's close button is on screen").toBeLessThanOrEqual(
        PHONE.width,
      );
      for (const label of ['Your name', 'Workspace name']) {
        const field = await page.getByRole('textbox', { name: label }).boundingBox();
        expect((field?.x ?? PHONE.width) + (field?.width ?? 0), label).toBeLessThanOrEqual(PHONE.width);
      }
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await shot(page, `mobile-welcome-${colorScheme}`);
    }
  });

  test('billing prompts are for owners and admins; a member sees only the trial state', async ({ page, browser }) => {
    const ws = await seedOwner(page.request);
    await page.goto('/homepage/timesheet');
    await expect(page.getByRole('link', { name: 'Subscribe to Pro' })).toBeVisible();
    await expect(page.getByTestId('trial-banner').getByRole('link', { name: 'Choose a plan' })).toBeVisible();

    const member = newEmail('member');
    const invite = await page.request.post(`/api/v1/workspaces/${ws}/invites`, {
      data: { emails: [member], role: 'member' },
    });
    expect(invite.status()).toBe(201);
    const token = /invite\?token=([\w-]+)/.exec((await waitForMail(member)).text)?.[1];
    const theirs = await browser.newContext();
    const accepted = await theirs.request.post(`/api/v1/invites/${token}/accept`, {
      data: { password: PASSWORD, name: 'Mia Member' },
    });
    expect(accepted.ok()).toBe(true);
    const them = await theirs.newPage();
    await them.goto('/homepage/user');
    await expect(them.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await expect(them.getByTestId('trial-banner')).toContainText('14 days left');
    await expect(them.getByRole('link', { name: 'Choose a plan' })).toHaveCount(0);
    await expect(them.getByRole('link', { name: 'Subscribe to Pro' })).toHaveCount(0);
    await expect(them.getByRole('link', { name: 'Change number of seats' })).toHaveCount(0);
    await expect(them.getByRole('button', { name: 'User menu' })).toHaveText('MM');
    await theirs.close();
  });

  test('on a desktop the sidebar stays, keeps its collapsed state and runs the full height of a tall page', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 600 });
    await seedOwner(page.request);
    await page.goto('/homepage/profile');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveCount(0);

    // The profile page is taller than the window: the white sidebar reaches its bottom.
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(pageHeight).toBeGreaterThan(600);
    expect((await nav.boundingBox())?.height).toBeCloseTo(pageHeight, 0);

    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeVisible();

    // In team bulk edit, Cancel is a plain button, not the main one.
    await page.goto('/homepage/user');
    await page.getByRole('button', { name: 'Bulk edit' }).click();
    await expect(page.getByRole('button', { name: 'Cancel' })).toHaveAttribute('data-variant', 'default');
  });
});
