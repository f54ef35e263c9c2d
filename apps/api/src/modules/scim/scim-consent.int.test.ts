import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  caller,
  createTestApp,
  type SignedUp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  type TestApp,
  uniqueEmail,
} from '../../../test/harness.js';
import { type Inbox, startInbox } from '../../../test/smtp.js';
import { hashPassword } from '../../platform/passwords.js';

/**
 * Issue 29: a workspace's SCIM token acts on what the workspace owns (its memberships, the
 * accounts it made), never on a person's account. Someone who already has an account joins only
 * by accepting an invitation; a deactivation ends access to this workspace only; an e-mail
 * address changes only on an account this workspace's provisioning made and nobody else used.
 */
let inbox: Inbox;
let t: TestApp;
let call: ReturnType<typeof caller>;
let attacker: SignedUp;
let token: string;
const SCIM = 'application/scim+json';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url });
  call = caller(t.app);
  attacker = await signUp(t.app);
  token = (await call('POST', `/api/v1/workspaces/${attacker.workspaceId}/scim-token`, attacker.cookie)).json().token;
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

const scim = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: object) =>
  t.app.inject({
    method,
    url: `/scim/v2${url}`,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': SCIM } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  });
const ok = (response: LightMyRequestResponse, status = 200) => {
  expect(response.statusCode, response.body).toBe(status);
  return response.json();
};
const provision = (email: string) =>
  scim('POST', '/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: email,
    name: { givenName: 'Provisioned', familyName: 'Person' },
    emails: [{ primary: true, value: email, type: 'work' }],
    externalId: `ext-${email}`,
    active: true,
  });
const membershipOf = (userId: string, workspaceId = attacker.workspaceId) =>
  t.db
    .selectFrom('memberships')
    .select(['status', 'role'])
    .where('user_id', '=', userId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
const emailOf = async (userId: string) =>
  (await t.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
/** The victim's own workspace answers their session (their data is reachable). */
const ownWorkspaceAnswers = async (victim: SignedUp, cookie = victim.cookie) =>
  (await call('GET', `/api/v1/workspaces/${victim.workspaceId}/projects`, cookie)).statusCode;

async function acceptFromMail(victim: SignedUp): Promise<LightMyRequestResponse> {
  const mail = await inbox.waitFor(victim.email);
  expect(mail.subject).toContain('invited you to');
  const link = /\/invite\?token=([\w-]+)/.exec(mail.text ?? '')?.[1] ?? '';
  return call('POST', `/api/v1/invites/${link}/accept`, victim.cookie, {});
}

/** A person with an account of their own (and their own workspace), named, with no tie to the attacker. */
async function victimAccount(): Promise<SignedUp> {
  const victim = await signUp(t.app, uniqueEmail('victim'));
  await t.db.updateTable('users').set({ name: 'Victoria Private' }).where('id', '=', victim.userId).execute();
  return victim;
}

describe('SCIM and an address that already has an account', () => {
  it('makes no membership: it invites, by e-mail, and answers as it does for a new address', async () => {
    const victim = await victimAccount();
    const newcomer = uniqueEmail('newcomer');
    const fresh = ok(await provision(newcomer), 201);
    const pending = ok(await provision(victim.email), 201);

    expect(await membershipOf(victim.userId)).toBeUndefined();
    // Nothing of the account: not its id, not its name; the same shape and values as a new address.
    expect(pending.id).not.toBe(victim.userId);
    expect(JSON.stringify(pending)).not.toContain(victim.userId);
    expect(JSON.stringify(pending)).not.toContain('Victoria');
    const shape = (r: Record<string, unknown>) => ({
      keys: Object.keys(r).sort(),
      active: r.active,
      name: r.name,
      displayName: r.displayName,
      meta: Object.keys(r.meta as object).sort(),
    });
    expect(shape(pending)).toEqual(shape(fresh));
    expect(pending).toMatchObject({ userName: victim.email, externalId: `ext-${victim.email}` });
    // The provider finds the pending person by its id and by userName, as it finds anyone.
    expect(ok(await scim('GET', `/Users/${pending.id}`))).toMatchObject({ id: pending.id, userName: victim.email });
    const filter = encodeURIComponent(`userName eq "${victim.email}"`);
    expect(ok(await scim('GET', `/Users?filter=${filter}`)).Resources[0].id).toBe(pending.id);
    // A retry of the same create is the uniqueness error a new address's retry gets too.
    expect((await provision(victim.email)).statusCode).toBe((await provision(newcomer)).statusCode);

    // The person decides: the usual invitation reaches them, and accepting it makes the membership.
    const accepted = await acceptFromMail(victim);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await membershipOf(victim.userId)).toMatchObject({ status: 'active', role: 'member' });
    // The same SCIM id now stands for the membership.
    const member = ok(await scim('GET', `/Users/${pending.id}`));
    expect(member).toMatchObject({ id: pending.id, userName: victim.email, active: true });
    expect(ok(await scim('GET', `/Users?filter=${filter}`)).Resources.map((r: { id: string }) => r.id)).toEqual([
      pending.id,
    ]);
  });

  it('answers two creates of one address at once with one User and one uniqueness error', async () => {
    const victim = await victimAccount();
    const both = await Promise.all([provision(victim.email), provision(victim.email)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const filter = encodeURIComponent(`userName eq "${victim.email}"`);
    expect(ok(await scim('GET', `/Users?filter=${filter}`)).totalResults).toBe(1);
    await inbox.waitFor(victim.email);
  });

  it('withdraws the invitation when the provider deactivates or deletes the pending person', async () => {
    const victim = await victimAccount();
    const pending = ok(await provision(victim.email), 201);
    const mail = await inbox.waitFor(victim.email);
    const link = /\/invite\?token=([\w-]+)/.exec(mail.text ?? '')?.[1] ?? '';
    const off = ok(
      await scim('PATCH', `/Users/${pending.id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
    );
    expect(off.active).toBe(false);
    expect((await call('POST', `/api/v1/invites/${link}/accept`, victim.cookie, {})).statusCode).toBe(410);
    expect(await membershipOf(victim.userId)).toBeUndefined();
    expect((await scim('DELETE', `/Users/${pending.id}`)).statusCode).toBe(204);
    expect((await scim('GET', `/Users/${pending.id}`)).statusCode).toBe(404);
  });
});

describe('SCIM changes touch only the workspace’s own membership', () => {
  it('deactivating or deleting a member ends their access here, not their sessions elsewhere', async () => {
    const victim = await victimAccount();
    const pending = ok(await provision(victim.email), 201);
    expect((await acceptFromMail(victim)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/workspaces/${attacker.workspaceId}/projects`, victim.cookie)).statusCode).toBe(
      200,
    );

    ok(
      await scim('PATCH', `/Users/${pending.id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
    );
    expect(await membershipOf(victim.userId)).toMatchObject({ status: 'disabled' });
    // The same session still works in the victim's own workspace; this one is closed to it.
    expect(await ownWorkspaceAnswers(victim)).toBe(200);
    expect((await call('GET', `/api/v1/workspaces/${attacker.workspaceId}/projects`, victim.cookie)).statusCode).toBe(
      404,
    );

    expect((await scim('DELETE', `/Users/${pending.id}`)).statusCode).toBe(204);
    expect(await membershipOf(victim.userId)).toMatchObject({ status: 'removed' });
    expect(await ownWorkspaceAnswers(victim)).toBe(200);
  });

  it('never changes the e-mail of an account the workspace did not make, nor of one its person has used', async () => {
    const victim = await victimAccount();
    const pending = ok(await provision(victim.email), 201);
    expect((await acceptFromMail(victim)).statusCode).toBe(200);
    const rename = (id: string) =>
      scim('PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', path: 'userName', value: attacker.email.replace('@', '+takeover@') }],
      });
    const refused = await rename(pending.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ scimType: 'mutability' });
    expect(await emailOf(victim.userId)).toBe(victim.email);

    // An account provisioning made, but whose person set a password and signed in with it: theirs now.
    const made = ok(await provision(uniqueEmail('made')), 201);
    const hash = await hashPassword(STRONG_PASSWORD);
    await t.db.updateTable('users').set({ password_hash: hash }).where('id', '=', made.id).execute();
    const login = await call('POST', '/api/v1/auth/login', undefined, {
      email: made.userName,
      password: STRONG_PASSWORD,
    });
    expect(login.statusCode, login.body).toBe(200);
    expect((await rename(made.id)).statusCode).toBe(400);
    expect(await emailOf(made.id)).toBe(made.userName);
    // Its sessions survive a deactivation too: only this workspace is closed to them.
    const cookie = sessionCookie(login);
    ok(
      await scim('PATCH', `/Users/${made.id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      }),
    );
    expect((await call('GET', '/api/v1/me', cookie)).statusCode).toBe(200);
  });
});
