import { expect, type Page, test } from '@playwright/test';
import { baseURL } from './playwright.config';
import { waitForMail } from './support/mail';
import { newEmail, PASSWORD } from './support/users';

const decline = (page: Page) =>
  page.getByRole('region', { name: 'Cookies' }).getByRole('button', { name: 'Only necessary' }).click();

test.describe('public site', () => {
  test('every navbar and footer link leads somewhere real', async ({ page, request }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Features', 'Pricing', 'Integrations', 'Blog', 'Book a Demo']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/loginpage');

    const hrefs = await page
      .locator('header a[href], footer a[href]')
      .evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute('href') ?? ''))]);
    expect(hrefs.length).toBeGreaterThanOrEqual(25);
    for (const href of hrefs) {
      const url = new URL(href, baseURL);
      expect(url.origin, href).toBe(baseURL);
      const response = await request.get(url.pathname);
      expect(response.status(), href).toBeLessThan(400);
      if (url.hash) {
        await page.goto(href);
        await expect(page.locator(url.hash), href).toBeAttached();
      }
    }
  });

  test('every link in the home and integrations pages leads somewhere real', async ({ page, request }) => {
    for (const from of ['/', '/integrations', '/pricing', '/calculators']) {
      await page.goto(from);
      const hrefs = await page
        .locator('main a[href]')
        .evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute('href') ?? ''))]);
      expect(hrefs.length, from).toBeGreaterThan(0);
      for (const href of hrefs) {
        const url = new URL(href, `${baseURL}${from}`);
        expect(url.origin, href).toBe(baseURL);
        expect((await request.get(url.pathname)).status(), `${href} on ${from}`).toBeLessThan(400);
        if (url.hash) {
          await page.goto(url.pathname + url.hash);
          await expect(page.locator(url.hash), href).toBeAttached();
          await page.goto(from);
        }
      }
    }
  });

  test('features that exist are no longer marked in development, and link to their screen or docs', async ({
    page,
  }) => {
    await page.goto('/');
    const features = page.getByRole('region', { name: 'Everything a team needs to track time' });
    for (const audience of ['For employees', 'For managers', 'For enterprise', 'For HR']) {
      await expect(features.getByRole('heading', { name: audience })).toBeVisible();
    }
    // Issues 3, 4 and 5 have landed: timer, timesheet, projects, tags, importers and team all exist.
    await expect(features.getByText('In development')).toHaveCount(0);
    const links: [string, RegExp, string][] = [
      ['One-click timer', /Open the timesheet/, '/homepage/timesheet'],
      ['Weekly timesheet and calendar', /Open the timesheet/, '/homepage/timesheet'],
      ['Tags', /Open tags/, '/homepage/tags'],
      ['Projects, tasks and clients', /Open projects/, '/homepage/projects'],
      ['Invites, guests and groups', /Open people and groups/, '/homepage/user'],
      ['Roles and permissions', /Open people and groups/, '/homepage/user'],
      ['Import from Toggl Track', /How importing works/, '/blog/moving-from-toggl-clockify-harvest'],
    ];
    for (const [title, name, href] of links) {
      const item = features
        .locator('details')
        .filter({ has: page.locator('summary', { hasText: new RegExp(`^${title}`) }) });
      await expect(item.locator('a', { hasText: name }), title).toHaveAttribute('href', href);
    }
    const grid = page.getByRole('region', { name: 'Integrations' });
    await expect(grid.getByText('In development')).toHaveCount(0);
    await expect(grid.getByText('Available')).toHaveCount(6);
    await page.goto('/integrations');
    await expect(page.getByText('In development')).toHaveCount(0);
    await expect(page.locator('#csv').getByRole('link', { name: 'Open projects' })).toHaveAttribute(
      'href',
      '/homepage/projects',
    );
    await page.goto('/');
    const api = features.locator('details', { hasText: 'REST API' });
    await expect(api.locator('summary')).not.toContainText('In development');
    await api.locator('summary').click();
    await expect(api.getByRole('link', { name: /API documentation/ })).toHaveAttribute('href', '/api/docs');
  });

  test('the hero e-mail box prefills sign-up, and the visitor is in the app within a minute', async ({ page }) => {
    const started = Date.now();
    const email = newEmail('hero');
    await page.goto('/');
    const hero = page.getByRole('region', { name: 'Time tracking your team will actually use' });
    await hero.getByLabel('Work e-mail').fill(email);
    await hero.getByRole('button', { name: 'Start free trial' }).click();

    await expect(page).toHaveURL(`/signuppage?email=${encodeURIComponent(email)}`);
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up for free' }).click();
    // Skipping the welcome screen keeps the names sign-up gave: the e-mail's local part.
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await expect(page).toHaveURL(/\/homepage\/timesheet$/);
    expect(Date.now() - started).toBeLessThan(60_000);
    const localPart = email.split('@')[0] ?? '';
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menu').getByText(localPart, { exact: true })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: `${localPart}'s workspace` })).toBeVisible();
  });

  test('pricing shows the catalogue prices for the chosen billing cycle', async ({ page }) => {
    await page.goto('/pricing');
    const basic = page.getByRole('listitem', { name: 'Basic' });
    const pro = page.getByRole('listitem', { name: 'Pro' });
    await expect(page.getByLabel('Annual')).toBeChecked();
    await expect(basic).toContainText('$6.30');
    await expect(basic).toContainText('$75.60 per year');
    await expect(pro).toContainText('$9.00');
    await expect(pro).toContainText('$108.00 per year');

    await page.getByText('Monthly', { exact: true }).click();
    await expect(page.getByLabel('Monthly')).toBeChecked();
    await expect(basic.getByText('$7.00')).toBeVisible();
    await expect(basic.getByText('$6.30')).toBeHidden();
    await expect(pro.getByText('$10.00')).toBeVisible();
    await expect(pro.getByText('$9.00')).toBeHidden();

    await page.getByText('Annual', { exact: false }).first().click();
    await expect(basic.getByText('$6.30')).toBeVisible();
    await expect(basic.getByText('$7.00')).toBeHidden();
    await expect(pro.getByText('Timesheet approvals')).toBeVisible();
    await expect(
      page.getByRole('listitem', { name: 'Enterprise' }).getByRole('link', { name: /Book a call/ }),
    ).toHaveAttribute('href', '/demo');
  });

  test('the cookie choice is remembered and can be changed', async ({ page }) => {
    await page.goto('/');
    const notice = page.getByRole('region', { name: 'Cookies' });
    await expect(notice).toBeVisible();
    await decline(page);
    await expect(notice).toBeHidden();
    await page.reload();
    await expect(notice).toBeHidden();
    await page.goto('/blog');
    await expect(notice).toBeHidden();
    expect(await page.locator('script[data-analytics]').count()).toBe(0);

    await page.getByRole('button', { name: 'Cookie settings' }).click();
    await expect(notice).toBeVisible();
    await notice.getByRole('button', { name: 'Accept analytics' }).click();
    await page.reload();
    await expect(notice).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('sundial.cookie-consent'))).toBe('accepted');
  });

  test('a demo request explains mistakes, then reaches the operator by e-mail', async ({ page }) => {
    await page.goto('/');
    await decline(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Book a Demo' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Book a demo' })).toBeVisible();

    await page.getByRole('button', { name: 'Request a demo' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter your name.');
    await expect(page.getByLabel('Company')).toHaveAttribute('aria-invalid', 'true');

    const company = `Orbit ${Date.now()}`;
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Work e-mail').fill(newEmail('demo'));
    await page.getByLabel('Company').fill(company);
    await page.getByLabel('Team size').selectOption({ label: '11–50 people' });
    await page.getByLabel('Message (optional)').fill('Approvals and SSO, please.');
    await page.getByRole('button', { name: 'Request a demo' }).click();
    await expect(page.getByRole('heading', { name: 'Request sent' })).toBeVisible();

    // Without OPERATOR_EMAIL the request goes to MAIL_FROM's address.
    const mail = await waitForMail('no-reply@sundial.localhost');
    expect(mail.subject).toBe(`Demo request: ${company} (11–50 people)`);
    expect(mail.text).toContain('Approvals and SSO, please.');
  });

  test('the calculators recompute as the visitor types', async ({ page }) => {
    await page.goto('/calculators/overtime');
    await expect(page.locator('output[name="total"]')).toHaveText('$1,225.00');
    await page.getByLabel('Hours worked this week').fill('50');
    await expect(page.locator('output[name="overtimeHours"]')).toHaveText('10 h');
    await expect(page.locator('output[name="total"]')).toHaveText('$1,375.00');

    await page.goto('/calculators/hourly-rate');
    await page.getByLabel('Billable hours per week').fill('20');
    await expect(page.locator('output[name="rate"]')).toHaveText('$73.91');
  });

  test('search engines and link previews get titles, descriptions, a sitemap and robots.txt', async ({
    page,
    request,
  }) => {
    await page.goto('/blog/self-hosting-sundial');
    await expect(page).toHaveTitle('Self-hosting Sundial in five minutes · Sundial');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /One command starts Sundial/);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute(
      'content',
      `${baseURL}/blog/self-hosting-sundial`,
    );
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/blog/self-hosting-sundial`);

    const sitemap = await (await request.get('/sitemap.xml')).text();
    expect(sitemap).toContain(`<loc>${baseURL}/pricing</loc>`);
    expect(sitemap).toContain(`<loc>${baseURL}/blog/time-zones-and-dst</loc>`);
    expect(await (await request.get('/robots.txt')).text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    expect((await request.get('/blog/no-such-post')).status()).toBe(404);
  });

  test('the blog lists every post and the home page teases the latest three', async ({ page }) => {
    await page.goto('/blog');
    const posts = page.getByRole('article');
    await expect(posts).toHaveCount(4);
    await page.goto('/');
    const teasers = page.getByRole('region', { name: 'From the blog' }).getByRole('article');
    await expect(teasers).toHaveCount(3);
    await expect(teasers.first()).toContainText('Self-hosting Sundial in five minutes');
    await teasers.first().getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Self-hosting Sundial in five minutes');
  });

  for (const width of [375, 1440]) {
    test(`the public pages fit ${width} px without sideways scrolling`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await decline(page);
      for (const path of [
        '/pricing',
        '/blog',
        '/blog/self-hosting-sundial',
        '/calculators',
        '/demo',
        '/integrations',
      ]) {
        await page.goto(path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, path).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `e2e/.run/site${path.replaceAll('/', '-')}-${width}.png`, fullPage: true });
      }
    });

    test(`the landing page lays out at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      const nav = page.getByRole('navigation', { name: 'Main' });
      const menu = page.getByRole('button', { name: 'Menu' });
      if (width < 900) {
        await expect(nav).toBeHidden();
        await menu.click();
        await expect(menu).toHaveAttribute('aria-expanded', 'true');
        await expect(nav.getByRole('link', { name: 'Pricing' })).toBeVisible();
        await page.screenshot({ path: `e2e/.run/landing-${width}-menu.png` });
        await page.keyboard.press('Escape');
        await expect(nav).toBeHidden();
      } else {
        await expect(menu).toBeHidden();
        await expect(nav.getByRole('link', { name: 'Pricing' })).toBeVisible();
      }
      await decline(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `e2e/.run/landing-${width}.png`, fullPage: true });
    });
  }
});
