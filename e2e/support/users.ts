import { type APIRequestContext, expect } from '@playwright/test';
import { waitForMail } from './mail';

export const PASSWORD = 'Sunny-days-2026!';
let n = 0;
export const newEmail = (prefix = 'e2e') => `${prefix}.${Date.now()}.${++n}@example.org`;

/** Signs up over HTTP (the journey under test is elsewhere); the request context keeps the cookie. */
export async function signUpOverHttp(request: APIRequestContext, email = newEmail()): Promise<string> {
  const response = await request.post('/api/v1/auth/signup', { data: { email, password: PASSWORD } });
  if (response.status() !== 201) throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
  return email;
}

/** Confirms a signed-up address over HTTP with the link mailed to it (docs/decisions/0014). */
export async function confirmAddressOverHttp(request: APIRequestContext, email: string): Promise<void> {
  const token = /\/verify-email\?token=([\w-]+)/.exec(
    (await waitForMail(email, 10_000, /Confirm your e-mail/)).text,
  )?.[1];
  const response = await request.post('/api/v1/auth/email/verify', { data: { token } });
  expect(response.status(), await response.text()).toBe(200);
}

/** The id of the signed-in user's current workspace. */
export async function currentWorkspaceId(request: APIRequestContext): Promise<string> {
  const me = await (await request.get('/api/v1/me')).json();
  return me.currentWorkspaceId;
}

/** The API base of the signed-in user's current workspace. */
export async function workspaceApi(request: APIRequestContext): Promise<string> {
  return `/api/v1/workspaces/${await currentWorkspaceId(request)}`;
}

/** POSTs to the signed-in user's workspace API (`ws`), expecting a success; answers the JSON. */
export const workspacePoster = (request: APIRequestContext, ws: string) => async (path: string, data: object) => {
  const response = await request.post(`${ws}${path}`, { data });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return response.json();
};

/** The owner invites a member (or a guest) by e-mail; the invite is accepted over `request` (which is then signed in). */
export async function joinAsMember(
  owner: APIRequestContext,
  ws: string,
  request: APIRequestContext,
  name: string,
  role: 'member' | 'guest' = 'member',
) {
  const email = newEmail(role);
  expect((await owner.post(`${ws}/invites`, { data: { emails: [email], role } })).status()).toBe(201);
  const token = /\/invite\?token=([\w-]+)/.exec((await waitForMail(email)).text)?.[1];
  const accepted = await request.post(`/api/v1/invites/${token}/accept`, { data: { password: PASSWORD, name } });
  expect(accepted.status()).toBe(200);
  return { email, id: (await accepted.json()).user.id as string };
}
