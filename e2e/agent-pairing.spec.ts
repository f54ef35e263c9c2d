import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { currentWorkspaceId, PASSWORD, signUpOverHttp } from './support/users';

test('a computer pairs by code, uploads its spans with the device token, and revoking it stops the token', async ({
  page,
  playwright,
  baseURL,
}) => {
  await signUpOverHttp(page.request);
  const workspaceId = await currentWorkspaceId(page.request);

  await page.goto('/homepage/profile#computers');
  const section = page.getByRole('region', { name: 'Computers' });
  await expect(section.getByText(/^No computer is paired yet\./)).toBeVisible();
  await shotsAtWidths(page, 'profile-computers-empty');

  // The agent: no cookie, no sign-in.
  const agent = await playwright.request.newContext({ baseURL });
  const started = await agent.post('/api/v1/agent/device-codes', {
    data: { name: 'build-box', platform: 'linux', agentVersion: '0.1.0' },
  });
  expect(started.status(), await started.text()).toBe(200);
  const codes = await started.json();
  const pending = await agent.post('/api/v1/agent/device-token', { data: { deviceCode: codes.deviceCode } });
  expect(pending.status()).toBe(400);
  expect((await pending.json()).error.code).toBe('authorization_pending');

  // The person opens the link the agent printed.
  await page.goto(new URL(codes.verificationUriComplete).pathname + new URL(codes.verificationUriComplete).search);
  await expect(page.getByText('build-box')).toBeVisible();
  await expect(page.getByText(`Linux · agent 0.1.0 · code ${codes.userCode}`)).toBeVisible();
  await expectNoSeriousViolations(page, 'pair a computer');
  await shotsAtWidths(page, 'agent-pair');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { name: 'Computer paired' })).toBeVisible();
  await shotsAtWidths(page, 'agent-paired');

  // The agent's next poll (after the interval) receives its token.
  await page.waitForTimeout(codes.interval * 1000);
  const issued = await agent.post('/api/v1/agent/device-token', { data: { deviceCode: codes.deviceCode } });
  expect(issued.status(), await issued.text()).toBe(200);
  const { token, deviceId } = await issued.json();
  expect(token).toMatch(/^sdd_/);
  const device = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  const config = await device.get('/api/v1/agent/config');
  expect((await config.json()).workspaceId).toBe(workspaceId);
  const start = Date.now() - 30 * 60_000;
  const spans = [0, 1, 2].map((i) => ({
    id: crypto.randomUUID(),
    kind: 'active',
    startedAt: new Date(start + i * 300_000).toISOString(),
    endedAt: new Date(start + (i + 1) * 300_000).toISOString(),
    app: ['code', 'firefox', 'slack'][i],
    title: 'Sundial',
    url: null,
    awayReason: null,
  }));
  const uploaded = await device.post('/api/v1/agent/spans', { data: { spans } });
  expect(await uploaded.json()).toEqual({ accepted: 3, duplicates: 0 });
  expect(await (await device.post('/api/v1/agent/spans', { data: { spans } })).json()).toEqual({
    accepted: 0,
    duplicates: 3,
  });
  // The token opens the agent's routes only.
  expect((await device.get('/api/v1/me')).status()).toBe(403);
  const own = await page.request.get(
    `/api/v1/workspaces/${workspaceId}/computer-time/spans?from=${new Date(start).toISOString()}&to=${new Date().toISOString()}`,
  );
  expect((await own.json()).items.map((s: { app: string }) => s.app)).toEqual(['code', 'firefox', 'slack']);

  await page.goto('/homepage/profile#computers');
  const row = section.getByRole('row').filter({ hasText: 'build-box' });
  await expect(row).toContainText('Linux · agent 0.1.0');
  await expect(row).not.toContainText('Not yet');
  await expectNoSeriousViolations(page, 'profile computers');
  await shotsAtWidths(page, 'profile-computers');
  await row.getByRole('button', { name: 'Revoke build-box' }).click();
  await expect(section.getByText(/^No computer is paired yet\./)).toBeVisible();
  const refused = await device.get('/api/v1/agent/config');
  expect(refused.status()).toBe(401);
  expect(deviceId).toBeTruthy();
  await agent.dispose();
  await device.dispose();
});

test('a person of two workspaces picks one, refuses a pairing, and a wrong code says so', async ({
  page,
  playwright,
  baseURL,
}) => {
  await signUpOverHttp(page.request);
  const second = await page.request.post('/api/v1/workspaces', { data: { name: 'Side project' } });
  expect(second.status(), await second.text()).toBe(201);
  const agent = await playwright.request.newContext({ baseURL });
  const codes = await (
    await agent.post('/api/v1/agent/device-codes', {
      data: { name: 'kiosk', platform: 'win32', agentVersion: '0.1.0' },
    })
  ).json();

  await page.goto('/homepage/agent/pair');
  await page.getByLabel('Code shown by the agent').fill('ZZZZ-ZZZZ');
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'unknown or has expired' })).toBeVisible();
  await page.getByLabel('Code shown by the agent').fill(codes.userCode.toLowerCase().replace('-', ''));
  await page.getByRole('button', { name: 'Look up' }).click();
  await expect(page.getByText('Windows · agent 0.1.0')).toBeVisible();
  const workspace = page.getByRole('combobox', { name: 'Workspace' });
  await expect(workspace).toBeVisible();
  await workspace.click();
  await expect(page.getByRole('option', { name: 'Side project' })).toBeVisible();
  await page.keyboard.press('Escape');
  await shotsAtWidths(page, 'agent-pair-workspaces');
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('heading', { name: 'Pairing refused' })).toBeVisible();
  const denied = await agent.post('/api/v1/agent/device-token', { data: { deviceCode: codes.deviceCode } });
  expect((await denied.json()).error.code).toBe('access_denied');
  await agent.dispose();
});

test('a signed-out person who opens the agent’s link signs in and comes back to the code', async ({
  page,
  playwright,
  baseURL,
}) => {
  const account = await playwright.request.newContext({ baseURL });
  const email = await signUpOverHttp(account);
  await account.dispose();
  const agent = await playwright.request.newContext({ baseURL });
  const codes = await (
    await agent.post('/api/v1/agent/device-codes', {
      data: { name: 'mac-mini', platform: 'darwin', agentVersion: '0.1.0' },
    })
  ).json();

  const link = new URL(codes.verificationUriComplete);
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(/\/loginpage\?next=/);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(`${link.pathname}${link.search}`);
  await expect(page.getByText(`macOS · agent 0.1.0 · code ${codes.userCode}`)).toBeVisible();
  await agent.dispose();
});
