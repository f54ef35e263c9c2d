import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { currentWorkspaceId, signUpOverHttp } from './support/users';

test('a person makes an API key, a script uses it within its areas, and revoking it stops it at once', async ({
  page,
  playwright,
  baseURL,
}) => {
  const email = await signUpOverHttp(page.request);
  const workspaceId = await currentWorkspaceId(page.request);

  // The expiry e-mail links here: the section is scrolled to.
  await page.goto('/homepage/profile#api-keys');
  const section = page.getByRole('region', { name: 'API keys' });
  await expect(section.getByText(/^No API keys yet\./)).toBeVisible();
  await expect(section).toBeInViewport();
  const docs = section.getByRole('link', { name: /API documentation/ });
  await expect(docs).toHaveAttribute('href', '/api/docs');
  await expect(docs).toHaveAttribute('target', '_blank');
  await shotsAtWidths(page, 'profile-api-keys-empty');

  await section.getByRole('button', { name: 'Create API key' }).click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByLabel('Name').fill('Nightly sync');
  // No area chosen: the server's answer is shown under the choices.
  await form.getByRole('button', { name: 'Create API key' }).click();
  await expect(form.getByText('Give the key access to at least one area.')).toBeVisible();
  // The segmented control's radios are hidden behind their labels, which take the click.
  const choose = async (area: string, access: string) => {
    const group = form.getByRole('radiogroup', { name: area });
    await group.getByText(access, { exact: true }).click();
    await expect(group.getByRole('radio', { name: access, exact: true })).toBeChecked();
  };
  await choose('Time', 'Read & write');
  await expect(form.getByText('Give the key access to at least one area.')).toBeHidden();
  await choose('Projects', 'Read');
  await expect(form.getByRole('combobox', { name: 'Expires' })).toHaveValue('1 year');
  await expectNoSeriousViolations(page, 'api keys');
  await shotsAtWidths(page, 'profile-api-keys-create');

  await form.getByRole('button', { name: 'Create API key' }).click();
  const created = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(created.getByText('Copy this key now: it will not be shown again.')).toBeVisible();
  const token = await created.getByRole('textbox', { name: /API key/ }).inputValue();
  expect(token).toMatch(/^sdl_\w+/);
  await expect(created.getByText(`curl -H "Authorization: Bearer ${token}" ${baseURL}/api/v1/me`)).toBeVisible();
  await expect(created.getByRole('button', { name: 'Copy' })).toBeVisible();
  await shotsAtWidths(page, 'profile-api-keys-token');
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(created).toBeHidden();

  // A context of its own, with no cookie: the bearer alone signs the calls in.
  const script = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  const me = await script.get('/api/v1/me');
  expect(me.status(), await me.text()).toBe(200);
  expect((await me.json()).user.email).toBe(email);
  const projects = await script.get(`/api/v1/workspaces/${workspaceId}/projects`);
  expect(projects.status(), await projects.text()).toBe(200);
  const members = await script.get(`/api/v1/workspaces/${workspaceId}/members`);
  expect(members.status()).toBe(403);
  expect((await members.json()).error.code).toBe('key_scope');

  await page.reload();
  const row = section.getByRole('row').filter({ hasText: 'Nightly sync' });
  await expect(row).toContainText(`${token.slice(0, 'sdl_'.length + 6)}…`);
  await expect(row).toContainText('Time: read & write · Projects: read');
  await expect(row).not.toContainText('Never used');
  await shotsAtWidths(page, 'profile-api-keys');

  await row.getByRole('button', { name: 'Revoke Nightly sync' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API key' });
  await expect(confirm).toContainText('Revoke “Nightly sync”? Scripts using it stop working at once.');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(section.getByText(/^No API keys yet\./)).toBeVisible();
  expect((await script.get('/api/v1/me')).status()).toBe(401);
  await script.dispose();
});

test('an owner makes a workspace key acting as a member, an integration uses it in that workspace only, and revokes it', async ({
  page,
  playwright,
  baseURL,
}) => {
  await signUpOverHttp(page.request);
  const workspaceId = await currentWorkspaceId(page.request);

  await page.goto('/homepage/webhooks');
  await expect(page.getByRole('heading', { level: 1, name: 'API & webhooks' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Workspace API keys' });
  await expect(section.getByText(/^No API keys yet\./)).toBeVisible();
  await section.getByRole('button', { name: 'Create API key' }).click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByLabel('Name').fill('Payroll export');
  await expect(form.getByRole('combobox', { name: 'Acts as' })).toHaveValue('Regular user');
  const projects = form.getByRole('radiogroup', { name: 'Projects' });
  await projects.getByText('Read & write', { exact: true }).click();
  await form.getByRole('button', { name: 'Create API key' }).click();
  const created = page.getByRole('dialog', { name: 'Your new API key' });
  const token = await created.getByRole('textbox', { name: /API key/ }).inputValue();
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(section.getByRole('row').filter({ hasText: 'Payroll export' })).toContainText(
    'Acts as regular user · made by',
  );
  await shotsAtWidths(page, 'workspace-api-keys');

  const integration = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  const base = `/api/v1/workspaces/${workspaceId}`;
  expect((await integration.get(`${base}/projects`)).status()).toBe(200);
  // A member may not make projects, whatever the key's areas say; nor reach the person's own routes.
  expect((await integration.post(`${base}/projects`, { data: { name: 'Nope' } })).status()).toBe(403);
  expect((await integration.get('/api/v1/me/api-keys')).status()).toBe(403);

  await section.getByRole('button', { name: 'Revoke Payroll export' }).click();
  await page.getByRole('dialog', { name: 'Revoke API key' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(section.getByText(/^No API keys yet\./)).toBeVisible();
  expect((await integration.get(`${base}/projects`)).status()).toBe(401);
  await integration.dispose();
});
