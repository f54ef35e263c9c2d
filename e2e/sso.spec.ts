/// <reference path="../apps/api/test/oidc-provider-module.d.ts" />
import { type Browser, expect, type Page, test } from '@playwright/test';
import { startOpenIdProvider, type TestOpenIdProvider } from '../apps/api/test/openid-provider';
import { baseURL } from './playwright.config';
import { openIdPort, SOCIAL, WORKSPACE_CLIENT } from './support/openid';
import { shotsAtWidths } from './support/shots';
import { confirmAddressOverHttp, PASSWORD, signUpOverHttp } from './support/users';

/**
 * Single sign-on in a browser, against a real OpenID provider (oidc-provider, as in the API tests)
 * that this journey runs beside the server: social sign-up and linking, then a workspace's own
 * provider set up by its owner on the Single sign-on page and used by members.
 */
const PORT = Number(new URL(baseURL).port);
let idp: TestOpenIdProvider;

test.beforeAll(async () => {
  idp = await startOpenIdProvider(
    [
      { ...SOCIAL, redirectUris: [`${baseURL}/api/v1/auth/oidc/${SOCIAL.id}/callback`] },
      { ...WORKSPACE_CLIENT, redirectUris: [`${baseURL}/api/v1/auth/sso/oidc/callback`] },
    ],
    { port: openIdPort(PORT) },
  );
});
test.afterAll(async () => {
  await idp?.close();
});

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** The provider's own log-in and consent pages, as a person goes through them. */
async function signInAtProvider(page: Page, subject: string) {
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/`));
  await page.getByPlaceholder('Enter any login').fill(subject);
  await page.getByPlaceholder('and password').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** A browser of someone else's: no session here nor at the provider. */
async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

test('the provider button is on log-in and sign-up, and a new person signs up through it', async ({ page }) => {
  const email = `new.${unique()}@social.example`;
  idp.accounts.set('new-person', { email, email_verified: true });

  await page.goto('/loginpage');
  await expect(page.getByRole('link', { name: `Continue with ${SOCIAL.name}` })).toBeVisible();
  await page.goto('/signuppage');
  await page.getByRole('link', { name: `Continue with ${SOCIAL.name}` }).click();
  await signInAtProvider(page, 'new-person');

  await expect(page).toHaveURL(/\/homepage\/timesheet$/);
  await expect(page.getByRole('heading', { level: 1, name: 'TimeSheet' })).toBeVisible();
  const me = await (await page.request.get('/api/v1/me')).json();
  expect(me.user.email).toBe(email);
  expect(me.workspaces).toHaveLength(1);
  // Their sessions list what it knows: the device and the IP address (not a place).
  await page.goto('/homepage/profile');
  await expect(page.getByRole('columnheader', { name: 'IP address' })).toBeVisible();
});

test('an existing password account is linked only once its password is typed', async ({ page, request }) => {
  const email = `linker.${unique()}@social.example`;
  await signUpOverHttp(request, email);
  // Only a confirmed address is matched to a provider's (docs/decisions/0014).
  await confirmAddressOverHttp(request, email);
  idp.accounts.set('linker', { email, email_verified: true });

  await page.goto('/loginpage');
  await page.getByRole('link', { name: `Continue with ${SOCIAL.name}` }).click();
  await signInAtProvider(page, 'linker');

  await expect(page).toHaveURL(/\/link-account/);
  await expect(page.getByText(`${email} already has a Sundial account`)).toBeVisible();
  // Not signed in on the provider's word alone.
  expect((await page.request.get('/api/v1/me')).status()).toBe(401);
  await page.getByRole('textbox', { name: 'Password' }).fill('Not-the-password-1');
  await page.getByRole('button', { name: 'Link and log in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  expect((await page.request.get('/api/v1/me')).status()).toBe(401);

  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Link and log in' }).click();
  await expect(page).toHaveURL(/\/homepage\/timesheet$/);
  expect((await (await page.request.get('/api/v1/me')).json()).user.email).toBe(email);

  // The profile lists the linked provider, and removing it unlinks it.
  await page.goto('/homepage/profile');
  const section = page.getByRole('region', { name: 'Linked sign-in methods' });
  await expect(section.getByRole('row', { name: new RegExp(SOCIAL.name) })).toBeVisible();
  await shotsAtWidths(page, 'linked-identities-some');
  await section.getByRole('button', { name: `Remove ${SOCIAL.name}` }).click();
  await expect(section.getByText('No other sign-in methods are linked')).toBeVisible();
  await shotsAtWidths(page, 'linked-identities-none');
});

test('an owner sets up the workspace provider, and members log in through it', async ({ page, browser }) => {
  const domain = `corp${unique()}.example`;
  const owner = `owner@${domain}`;
  await signUpOverHttp(page.request, owner);
  idp.accounts.set('owner', { email: owner, email_verified: true });
  idp.accounts.set('member', { email: `member@${domain}`, email_verified: true });
  idp.accounts.set('member2', { email: `member2@${domain}`, email_verified: true });

  // The owner finds the page in the sidebar, beside Roles.
  await page.goto('/homepage/timesheet');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Single sign-on' }).click();
  await expect(page).toHaveURL(/\/homepage\/sso$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Single sign-on' })).toBeVisible();
  await page.getByLabel('Issuer URL').fill(idp.issuer);
  await page.getByLabel('Client ID').fill(WORKSPACE_CLIENT.clientId);
  await page.getByLabel('Client secret').fill(WORKSPACE_CLIENT.clientSecret);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Single sign-on saved.')).toBeVisible();

  await page.getByLabel('Add a domain').fill(domain);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const row = page.getByRole('row', { name: new RegExp(domain) });
  await expect(row.getByText('Not verified')).toBeVisible();
  await row.getByRole('button', { name: 'Verify' }).click();
  await signInAtProvider(page, 'owner');
  await expect(page).toHaveURL(/\/homepage\/sso$/);
  await expect(
    page.getByRole('row', { name: new RegExp(domain) }).getByText('Verified', { exact: true }),
  ).toBeVisible();
  const workspaceId = await page.getByLabel('Workspace ID').inputValue();
  await shotsAtWidths(page, 'sso-settings');

  // A member types their work e-mail.
  const member = await freshPage(browser);
  await member.goto('/loginpage');
  await member.getByRole('button', { name: 'Log in with SSO' }).click();
  const field = member.getByLabel('Work e-mail or workspace ID');
  await field.fill(`member@${domain}`);
  await member.getByRole('button', { name: 'Continue with SSO' }).click();
  await signInAtProvider(member, 'member');
  await expect(member).toHaveURL(/\/homepage\/timesheet$/);
  const me = await (await member.request.get('/api/v1/me')).json();
  expect(me.user.email).toBe(`member@${domain}`);
  expect(me.workspaces.find((w: { id: string }) => w.id === workspaceId)).toMatchObject({ role: 'member' });
  // The page is the owners' and admins': no link for a member.
  await expect(member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Roles' })).toBeVisible();
  await expect(
    member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Single sign-on' }),
  ).toHaveCount(0);
  await member.context().close();

  // Another types the workspace ID; something that is neither is explained first.
  const other = await freshPage(browser);
  await other.goto('/loginpage');
  await other.getByRole('button', { name: 'Log in with SSO' }).click();
  await other.getByLabel('Work e-mail or workspace ID').fill('acme-corp');
  await other.getByRole('button', { name: 'Continue with SSO' }).click();
  await expect(other.getByRole('alert')).toContainText('A workspace ID looks like');
  await shotsAtWidths(other, 'sso-login-form');
  await other.getByLabel('Work e-mail or workspace ID').fill(workspaceId);
  await other.getByRole('button', { name: 'Continue with SSO' }).click();
  await signInAtProvider(other, 'member2');
  await expect(other).toHaveURL(/\/homepage\/timesheet$/);
  expect((await (await other.request.get('/api/v1/me')).json()).user.email).toBe(`member2@${domain}`);
  await other.context().close();
});
