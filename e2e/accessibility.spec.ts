import { type APIRequestContext, type ConsoleMessage, expect, type Page, type Request, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shot } from './support/shots';
import { allow } from './support/time';
import { signUpOverHttp } from './support/users';

// Its journeys are independent (each signs its own people up) and among the longest: they spread over
// both workers instead of running one after another in one (issue 31).
test.describe.configure({ mode: 'parallel' });

const SCHEMES = ['light', 'dark'] as const;
const scheme = (page: Page) => page.locator('html').getAttribute('data-mantine-color-scheme');

/**
 * A workspace with a project in yellow (the hardest colour to read on) and one entry this morning;
 * with `running`, a timer runs on it too, so its calendar block is checked as well.
 */
async function seed(request: APIRequestContext, { running = false } = {}): Promise<void> {
  await signUpOverHttp(request);
  const me = await (await request.get('/api/v1/me')).json();
  const ws = me.currentWorkspaceId as string;
  const project = await request.post(`/api/v1/workspaces/${ws}/projects`, {
    data: { name: 'Website', color: '#fab005' },
  });
  expect(project.status()).toBe(201);
  const projectId = (await project.json()).id as string;
  const start = new Date();
  start.setHours(9, 0, 0, 0);
  const end = new Date(start.getTime() + 90 * 60_000);
  const entry = await request.post(`/api/v1/workspaces/${ws}/time-entries`, {
    data: { start: start.toISOString(), end: end.toISOString(), note: 'Design review', projectId },
  });
  expect(entry.status()).toBe(201);
  if (running) {
    const timer = await request.post(`/api/v1/workspaces/${ws}/timer/start`, {
      data: { note: 'Writing copy', projectId },
    });
    expect(timer.ok()).toBe(true);
  }
}

/** The auth pages, each checked by axe; `tag` names the screenshots. */
async function visitAuthPages(page: Page, tag: string): Promise<void> {
  await page.goto('/loginpage');
  await expect(page.getByRole('heading', { name: 'Log in', level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} log in`);
  await shot(page, `a11y-${tag}-login`);

  await page.goto('/signuppage');
  await expect(page.getByRole('heading', { name: 'Start tracking time' })).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} sign up`);
  await shot(page, `a11y-${tag}-signup`);

  await page.goto('/forgotten_password');
  await expect(page.getByRole('heading', { name: 'Forgotten password' })).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} forgotten password`);
}

/** Every signed-in screen, each checked by axe (dialogs and panels open); `tag` names the screenshots. */
async function visitSignedInScreens(page: Page, tag: string): Promise<void> {
  // Eleven axe runs: on a busy two-core machine they take longer than one journey's default minute.
  test.setTimeout(allow(240_000));
  // Timesheet: list (with a running timer), week grid and calendar.
  await page.goto('/homepage/timesheet');
  await expect(page.getByRole('textbox', { name: 'Note', exact: true })).toBeVisible();
  await expect(page.getByTestId('trial-banner')).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} timesheet list`);
  await shot(page, `a11y-${tag}-timesheet-list`);
  await page.getByLabel('View').getByText('Week', { exact: true }).click();
  await expect(page.getByRole('columnheader', { name: 'Week total' })).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} timesheet week`);
  await shot(page, `a11y-${tag}-timesheet-week`);
  await page.getByLabel('View').getByText('Calendar', { exact: true }).click();
  await expect(page.getByTestId('calendar-block').first()).toBeVisible();
  // A running entry's block is not faded (opacity would cost its text contrast); a dashed edge marks it.
  const runningBlock = page.locator('[data-testid="calendar-block"][data-running]');
  if ((await runningBlock.count()) > 0) {
    await runningBlock.first().scrollIntoViewIfNeeded();
    expect(await runningBlock.first().evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    expect(await runningBlock.first().evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('dashed');
  }
  await expectNoSeriousViolations(page, `${tag} timesheet calendar`);
  await shot(page, `a11y-${tag}-timesheet-calendar`);
  await page.getByLabel('View').getByText('Day list', { exact: true }).click();

  // Projects with the edit panel open.
  await page.goto('/homepage/projects');
  await page.getByTestId('project-row').filter({ hasText: 'Website' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Project' })).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} projects with the edit panel`);
  await shot(page, `a11y-${tag}-projects`);

  await page.goto('/homepage/tags');
  await expect(page.getByRole('heading', { level: 1, name: /tags/i })).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} tags`);

  // Users, then with the invite dialog open.
  await page.goto('/homepage/user');
  await expect(page.getByRole('table')).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} users`);
  await shot(page, `a11y-${tag}-users`);
  await page.getByRole('button', { name: 'Invite people' }).click();
  await expect(page.getByRole('dialog', { name: 'Invite people' })).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} users with the invite dialog`);

  // No logo is set: the page must not ask for one (a 404 in every console, issue 30).
  const failedLoads: string[] = [];
  const noteFailure = (message: ConsoleMessage) => {
    if (message.type() === 'error') failedLoads.push(message.text());
  };
  const logoAsks: string[] = [];
  const noteLogo = (request: Request) => {
    if (request.url().endsWith('/logo')) logoAsks.push(request.url());
  };
  page.on('console', noteFailure);
  page.on('request', noteLogo);
  await page.goto('/homepage/profile');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('No logo', { exact: true })).toBeVisible();
  page.off('console', noteFailure);
  page.off('request', noteLogo);
  expect(logoAsks, 'the profile page asked for a logo the workspace does not have').toEqual([]);
  expect(failedLoads, 'console errors on the profile page').toEqual([]);
  await expectNoSeriousViolations(page, `${tag} profile`);
  await shot(page, `a11y-${tag}-profile`);

  // Billing, with the plan's Total box (it was light on light in the dark scheme).
  await page.goto('/homepage/billing');
  await expect(page.getByTestId('purchase-total')).not.toHaveText('–');
  await expectNoSeriousViolations(page, `${tag} billing`);
  await shot(page, `a11y-${tag}-billing`);

  // The user menu, open.
  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await expectNoSeriousViolations(page, `${tag} user menu`);
  await page.keyboard.press('Escape');
}

for (const colorScheme of SCHEMES) {
  test.describe(`accessibility (axe-core, WCAG 2.2 AA, ${colorScheme} scheme)`, () => {
    // The app follows the system's scheme until the person picks one.
    test.use({ viewport: { width: 1440, height: 900 }, colorScheme });

    test('the auth pages have no serious or critical violations', async ({ page }) => {
      await page.goto('/loginpage');
      expect(await scheme(page)).toBe(colorScheme);
      await visitAuthPages(page, `${colorScheme}-1440`);
    });

    test('the public site follows the scheme and has no serious or critical violations', async ({ page }) => {
      // The site once ignored the scheme the app follows (issue 30): its ground must be the scheme's.
      for (const path of ['/', '/pricing', '/integrations', '/calculators', '/blog', '/demo']) {
        await page.goto(path);
        expect(await scheme(page), path).toBe(colorScheme);
        const ground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(ground, path).toBe(colorScheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
        await expectNoSeriousViolations(page, `${colorScheme} site ${path}`);
        if (path === '/' || path === '/pricing')
          await shot(page, `a11y-${colorScheme}-1440-site${path.replace('/', '-')}`);
      }
    });

    test('every signed-in screen has no serious or critical violations', async ({ page }) => {
      await seed(page.request, { running: true });
      await page.goto('/homepage/timesheet');
      expect(await scheme(page)).toBe(colorScheme);
      await visitSignedInScreens(page, `${colorScheme}-1440`);
    });
  });
}

test.describe('accessibility in the dark scheme at 1024 px', () => {
  test.use({ viewport: { width: 1024, height: 768 }, colorScheme: 'dark' });

  test('every screen has no serious or critical violations', async ({ page }) => {
    await visitAuthPages(page, 'dark-1024');
    await seed(page.request);
    await visitSignedInScreens(page, 'dark-1024');
  });
});

test.describe('the Theme choice in the user menu', () => {
  test.use({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });

  test('is keyboard usable, marks the current theme, is remembered and follows the system on System', async ({
    page,
  }) => {
    await seed(page.request);
    await page.goto('/homepage/timesheet');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await scheme(page)).toBe('light');

    // Keyboard only: open the menu, arrow down to Dark, Enter.
    const menuButton = page.getByRole('button', { name: 'User menu' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitemradio', { name: 'System', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect(menu.getByRole('menuitemradio', { name: 'Dark', exact: true })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    const dark = menu.getByRole('menuitemradio', { name: 'Dark', exact: true });
    for (let i = 0; i < 12 && !(await dark.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('ArrowDown');
    }
    await expect(dark).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    // The menu stays open on the new choice, marked; Escape closes it and gives focus back.
    await expect(dark).toHaveAttribute('aria-checked', 'true');
    await expect(menu.getByRole('menuitemradio', { name: 'System', exact: true })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();

    // Remembered: after a reload the page is dark from its first paint, before the app starts.
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await scheme(page)).toBe('dark');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 255, 255)');
    await menuButton.click();
    await expect(menu.getByRole('menuitemradio', { name: 'Dark', exact: true })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expectNoSeriousViolations(page, 'user menu, dark chosen');

    // Light, chosen against a dark system, wins over it.
    await menu.getByRole('menuitemradio', { name: 'Light', exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await scheme(page)).toBe('light');

    // System follows the system, live.
    await menuButton.click();
    await menu.getByRole('menuitemradio', { name: 'System', exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  });
});

test.describe('reduced motion', () => {
  test.use({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });

  test('the sidebar and Mantine menus do not animate when the system asks for less motion', async ({ page }) => {
    await seed(page.request);
    await page.goto('/homepage/timesheet');
    const sidebar = page.getByRole('navigation', { name: 'Main' });
    await expect(sidebar).toBeVisible();
    const durations = async () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('*'))
          .map((el) => getComputedStyle(el))
          .filter((style) => style.transitionDuration.split(',').some((d) => Number.parseFloat(d) > 0))
          .map((style) => `${style.transitionProperty} ${style.transitionDuration}`),
      );
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
    // Nothing on the page (the collapsible sidebar included) has a transition left.
    expect(await durations()).toEqual([]);
    // A Mantine menu opens at once, with no transition on its dropdown.
    await page.getByRole('button', { name: 'User menu' }).click();
    const dropdown = page.getByRole('menu');
    await expect(dropdown).toBeVisible();
    expect(await dropdown.evaluate((el) => Number.parseFloat(getComputedStyle(el).transitionDuration))).toBe(0);

    // Without the preference, the sidebar does animate: the check above can fail.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.keyboard.press('Escape');
    expect((await durations()).length).toBeGreaterThan(0);
  });
});

/** A 1024 px wide window zoomed to 200%: the page lays out in 512 CSS pixels at twice the density. */
test.describe('text zoom to 200% at 1024 px', () => {
  test.use({ viewport: { width: 512, height: 384 }, deviceScaleFactor: 2 });

  const overflow = (page: Page) =>
    page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return root.scrollWidth - window.innerWidth;
    });

  test('no screen scrolls sideways and the main controls stay reachable', async ({ page }) => {
    for (const path of ['/loginpage', '/signuppage', '/forgotten_password']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await overflow(page), `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      await shot(page, `zoom-${path.slice(1)}`);
    }
    const submit = page.getByRole('button', { name: 'Submit' });
    await submit.scrollIntoViewIfNeeded();
    await expect(submit).toBeInViewport();

    await seed(page.request);
    await page.goto('/homepage/timesheet');
    await expect(page.getByRole('textbox', { name: 'Note', exact: true })).toBeVisible();
    for (const view of ['Day list', 'Week', 'Calendar']) {
      await page.getByLabel('View').getByText(view, { exact: true }).click();
      await page.waitForLoadState('networkidle');
      expect(await overflow(page), `the ${view} view scrolls sideways`).toBeLessThanOrEqual(0);
      // No text runs out of its cell (the week grid's totals once ran together at this width).
      const spilled = await page.evaluate(() =>
        Array.from(document.querySelectorAll('th, td'))
          .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
          .map((cell) => cell.textContent),
      );
      expect(spilled, `the ${view} view: text runs out of its cell`).toEqual([]);
      await shot(page, `zoom-timesheet-${view.replace(' ', '-').toLowerCase()}`);
    }
    await page.getByLabel('View').getByText('Day list', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Note', exact: true }).scrollIntoViewIfNeeded();
    await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();

    await page.goto('/homepage/projects');
    await page.getByTestId('project-row').filter({ hasText: 'Website' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Project' })).toBeVisible();
    expect(await overflow(page), 'projects with the edit panel scroll sideways').toBeLessThanOrEqual(0);
    await shot(page, 'zoom-projects');

    await page.goto('/homepage/user');
    await expect(page.getByRole('button', { name: 'Invite people' })).toBeVisible();
    expect(await overflow(page), 'users scrolls sideways').toBeLessThanOrEqual(0);
    await shot(page, 'zoom-users');

    await page.goto('/homepage/profile');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await overflow(page), 'profile scrolls sideways').toBeLessThanOrEqual(0);
    await shot(page, 'zoom-profile');

    // The navigation is behind the menu button, and the user menu with the Theme choice is in reach.
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name: 'Projects' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menuitemradio', { name: 'Dark', exact: true })).toBeVisible();
  });
});
