import { expect, test } from '@playwright/test';
import { waitForMail } from './support/mail';
import { newEmail, PASSWORD, signUpOverHttp } from './support/users';

test.describe('accounts', () => {
  test('a visitor signs up, lands on the timesheet with a 14-day trial, logs out and logs back in', async ({
    page,
  }) => {
    const email = newEmail('signup');
    await page.goto('/signuppage');
    await expect(page.getByRole('heading', { name: 'Start tracking time' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByLabel('Phone (optional)').fill('5551234567');
    await page.getByRole('button', { name: 'Sign up for free' }).click();

    // The first screen asks for names, prefilled with the e-mail's local part.
    await expect(page).toHaveURL(/\/homepage\/welcome$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Welcome to Sundial' })).toBeVisible();
    const localPart = email.split('@')[0] ?? '';
    await expect(page.getByLabel('Your name')).toHaveValue(localPart);
    await expect(page.getByLabel('Workspace name')).toHaveValue(`${localPart}'s workspace`);
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Workspace name').fill('Analytical Engines');
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(/\/homepage\/timesheet$/);
    await expect(page.getByRole('heading', { level: 1, name: 'TimeSheet' })).toBeVisible();
    await expect(page.getByTestId('trial-banner')).toHaveText(/You have 14 days left on your pro trial/);
    await page.screenshot({ path: 'e2e/.run/shell-timesheet.png', fullPage: true });

    // The names show in the shell: the initials, the name and the workspace in the user menu.
    await page.getByRole('button', { name: 'AL User menu' }).click();
    await expect(page.getByRole('menu').getByText('Ada Lovelace')).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Analytical Engines' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/homepage/dashboard');
    await expect(page).toHaveURL(/\/loginpage\?next=%2Fhomepage%2Fdashboard$/);

    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL(/\/homepage\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('sign-up explains bad input and a taken address', async ({ page, request }) => {
    const taken = await signUpOverHttp(request);
    await page.goto('/signuppage');
    const box = page.getByRole('alert');

    await page.getByRole('button', { name: 'Sign up for free' }).click();
    await expect(box).toHaveText('Please provide all fields.');

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up for free' }).click();
    await expect(box).toHaveText('Invalid Email.');

    await page.getByLabel('Email').fill(newEmail());
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('password');
    await page.getByRole('button', { name: 'Sign up for free' }).click();
    await expect(box).toHaveText(
      'Password must have greater than 8 characters, contain special character and a number.',
    );

    await page.getByLabel('Email').fill(taken);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up for free' }).click();
    await expect(box).toHaveText('This e-mail is already in use.');
  });

  test('log-in shows the red box for a wrong password without telling which field was wrong', async ({
    page,
    request,
  }) => {
    const email = await signUpOverHttp(request);
    await page.goto('/loginpage');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Not-the-password-1');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong e-mail or password.');
    await expect(page).toHaveURL(/\/loginpage$/);
  });

  test('the log-in page shows the plugin panel beside the form when wide and below it when narrow', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/loginpage');
    const form = page.getByRole('button', { name: 'Log in', exact: true });
    const panel = page.getByTestId('plugin-panel');
    const wide = { form: await form.boundingBox(), panel: await panel.boundingBox() };
    expect(wide.panel?.x).toBeGreaterThan((wide.form?.x ?? 0) + (wide.form?.width ?? 0));

    await page.setViewportSize({ width: 800, height: 900 });
    const narrow = { form: await form.boundingBox(), panel: await panel.boundingBox() };
    expect(narrow.panel?.y).toBeGreaterThan((narrow.form?.y ?? 0) + (narrow.form?.height ?? 0));
  });

  test('a forgotten password is reset through the link in the e-mail, once', async ({ page, request }) => {
    const email = await signUpOverHttp(request);
    await page.goto('/loginpage');
    await page.getByRole('link', { name: 'Forgotten Password?' }).click();
    await expect(page).toHaveURL(/\/forgotten_password$/);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('status')).toContainText('If an account exists for that e-mail');

    const mail = await waitForMail(email);
    const link = /https?:\/\/\S+\/password\?token=\S+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    await page.goto(link as string);

    await page.getByLabel('New Password').fill('short');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Password must have greater than 8 characters, contain special character and a number.',
    );
    await page.getByLabel('New Password').fill('Moonlit-nights-77');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/loginpage$/);
    await expect(page.getByRole('status')).toHaveText('Password Updated Successfully');

    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Moonlit-nights-77');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL(/\/homepage\/timesheet$/);

    await page.goto(link as string);
    await expect(page.getByRole('alert')).toHaveText('This link has already been used. Ask for a new one.');
    await expect(page.getByRole('link', { name: 'Send me a new link' })).toBeVisible();
  });
});

test.describe('signed-in shell', () => {
  test.beforeEach(async ({ page }) => {
    await signUpOverHttp(page.request);
  });

  test('the sidebar leads to every area and the title follows the path', async ({ page }) => {
    await page.goto('/homepage/timesheet');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [link, title] of [
      ['Dashboard', 'Dashboard'],
      ['Projects', 'Projects'],
      ['Tags', 'Tags'],
      ['Users', 'Users'],
      ['Attendance', 'Attendance'],
      ['Timesheet', 'TimeSheet'],
    ]) {
      await nav.getByRole('link', { name: link }).click();
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    }

    await nav.getByRole('button', { name: 'Reports' }).hover();
    const reports = page.getByRole('menu', { name: 'Reports' });
    await expect(reports.getByText('TIME REPORTS')).toBeVisible();
    await expect(reports.getByText('BUDGETING REPORTS')).toHaveCount(2);
    await reports.getByRole('menuitem', { name: 'People by days and task' }).click();
    await expect(page).toHaveURL(/\/homepage\/reports\/people-by-days-and-task$/);
    await expect(page.getByRole('heading', { level: 1, name: 'People by days and task' })).toBeVisible();

    await nav.getByRole('button', { name: 'Computer time' }).click();
    await page.getByRole('menuitem', { name: 'Activities' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Activities' })).toBeVisible();

    await page.getByRole('link', { name: 'Subscribe to Pro' }).click();
    await expect(page).toHaveURL(/\/homepage\/billing$/);
  });

  test('the sidebar collapses, hides its labels and remembers it', async ({ page }) => {
    await page.goto('/homepage/projects');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByText('MANAGE')).toBeVisible();
    const wide = (await nav.boundingBox())?.width ?? 0;
    expect(wide).toBeGreaterThan(150);
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(nav.getByText('MANAGE')).toHaveCount(0);
    // The width animates (150 ms): wait for it to settle rather than measure mid-way.
    await expect.poll(async () => (await nav.boundingBox())?.width ?? wide).toBeLessThan(wide / 2);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
    await page.screenshot({ path: 'e2e/.run/shell-collapsed.png' });
  });

  test('profile settings are saved and a second workspace can be created and switched to', async ({ page }) => {
    await page.goto('/homepage/profile');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Grace Hopper');
    await page.getByRole('combobox', { name: 'Week starts on' }).click();
    await page.getByRole('option', { name: 'Sunday' }).click();
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Profile saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Grace Hopper');
    await expect(page.getByRole('combobox', { name: 'Week starts on' })).toHaveValue('Sunday');

    await page.getByLabel('New workspace').fill('Night Shift');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await expect(page.getByLabel('Workspace name')).toHaveValue('Night Shift');
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Night Shift' })).toBeVisible();
    await page.screenshot({ path: 'e2e/.run/profile.png', fullPage: true });
  });
});
