/// <reference path="../apps/api/test/oidc-provider-module.d.ts" />
import { type Browser, expect, type Page, test } from '@playwright/test';
import { startTestDnsServer, type TestDnsServer } from '../apps/api/test/dns-server';
import { startOpenIdProvider, type TestOpenIdProvider } from '../apps/api/test/openid-provider';
import { baseURL } from './playwright.config';
import { dnsPort } from './support/dns';
import { openIdPort, SOCIAL, WORKSPACE_CLIENT } from './support/openid';
import { shotsAtWidths } from './support/shots';
import { confirmAddressOverHttp, PASSWORD, signUpOverHttp } from './support/users';

/**
 * Single sign-on in a browser, against a real OpenID provider (oidc-provider, as in the API tests)
 * and a real DNS server (the API tests' too) that this journey runs beside the server: social
 * sign-up and linking, then a workspace's own provider set up by its owner on the Single sign-on
 * page, its domain proved by a TXT record, and members logging in through it.
 */
const PORT = Number(new URL(baseURL).port);
let idp: TestOpenIdProvider;
let dns: TestDnsServer;

test.beforeAll(async () => {
  idp = await startOpenIdProvider(
    [
      { ...SOCIAL, redirectUris: [`${baseURL}/api/v1/auth/oidc/${SOCIAL.id}/callback`] },
      { ...WORKSPACE_CLIENT, redirectUris: [`${baseURL}/api/v1/auth/sso/oidc/callback`] },
    ],
    { port: openIdPort(PORT) },
  );
  dns = await startTestDnsServer({ port: dnsPort(PORT) });
});
test.afterAll(async () => {
  await idp?.close();
  await dns?.close();
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

  await expect(page.getByText('No domains yet.')).toBeVisible();
  await shotsAtWidths(page, 'sso-domains-empty');
  // A public mail domain is refused where it was typed.
  await page.getByLabel('Add a domain').fill('gmail.com');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('gmail.com is a public e-mail service')).toBeVisible();

  // The owner's own address there proves nothing: the domain waits for its TXT record.
  await page.getByLabel('Add a domain').fill(domain);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const claim = page.getByRole('region', { name: domain });
  await expect(claim.getByText('Pending')).toBeVisible();
  const name = await claim.getByLabel('Record name').inputValue();
  const value = await claim.getByLabel('Record value (TXT)').inputValue();
  expect(name).toBe(`_sundial-challenge.${domain}`);
  expect(value).toMatch(/^sundial-domain-verification=/);
  await shotsAtWidths(page, 'sso-domains-pending');
  await claim.getByRole('button', { name: 'Verify' }).click();
  await expect(claim.getByRole('alert')).toContainText(`We could not find the TXT record ${name}`);
  await expect(claim.getByText('Pending')).toBeVisible();
  await shotsAtWidths(page, 'sso-domains-error');
  // Published at the DNS, the record proves it.
  dns.txt.set(name, [value]);
  await claim.getByRole('button', { name: 'Verify' }).click();
  await expect(claim.getByText('Verified', { exact: true })).toBeVisible();
  await expect(claim.getByRole('alert')).toHaveCount(0);
  await expect(claim.getByRole('button', { name: 'Verify' })).toHaveCount(0);
  await expect(page.getByText(`${domain} is verified.`)).toBeVisible();
  const workspaceId = await page.getByLabel('Workspace ID').inputValue();
  // "Require SSO" says whom it holds and what it leaves alone (issue 29).
  await expect(page.getByText("Their other workspaces and the owner's password are not affected.")).toBeVisible();
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
  // The page is the owners' and admins': no link for a member (the menu itself is there).
  await expect(member.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' })).toBeVisible();
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
