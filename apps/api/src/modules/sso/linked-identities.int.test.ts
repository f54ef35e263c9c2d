import { ssoErrorMessage, ssoMessages } from '@sundial/core';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  caller,
  confirmEmail,
  createTestApp,
  mailedToken,
  type SignedUp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  type TestApp,
  uniqueEmail,
} from '../../../test/harness.js';
import { startOpenIdProvider, type TestOpenIdProvider } from '../../../test/openid-provider.js';
import { cookieOf } from '../../../test/two-factor.js';

/**
 * Issue 29 (docs/decisions/0014): accounts pre-created with someone else's address. An attacker
 * runs an identity provider (a workspace's own, or any that vouches for addresses) against a real
 * OpenID provider (oidc-provider); the victim takes the account back with a password reset.
 */
let idp: TestOpenIdProvider;
let t: TestApp;
let call: ReturnType<typeof caller>;
const SOCIAL_CALLBACK = 'http://localhost:3000/api/v1/auth/oidc/acme/callback';
const WORKSPACE_CALLBACK = 'http://localhost:3000/api/v1/auth/sso/oidc/callback';
const VICTIM_DOMAIN = 'victimcorp.test';

beforeAll(async () => {
  idp = await startOpenIdProvider([
    { clientId: 'sundial', clientSecret: 'a-client-secret', redirectUris: [SOCIAL_CALLBACK] },
    { clientId: 'attacker-client', clientSecret: 'attacker-secret', redirectUris: [WORKSPACE_CALLBACK] },
  ]);
  t = await createTestApp({
    OIDC_PROVIDERS: JSON.stringify([
      { id: 'acme', name: 'Acme ID', issuer: idp.issuer, clientId: 'sundial', clientSecret: 'a-client-secret' },
    ]),
  });
  call = caller(t.app);
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** Social sign-in as the provider's `subject`: the app's answer to the provider's redirect back. */
async function socialSignIn(subject: string): Promise<LightMyRequestResponse> {
  const start = await call('GET', '/api/v1/auth/oidc/acme/start?returnTo=%2Freports');
  const back = await idp.signIn(start.headers.location as string, subject);
  return t.app.inject({
    url: `${back.pathname}${back.search}`,
    headers: { cookie: cookieOf(start, 'sundial_sso_state') },
  });
}

/** "Log in with SSO" by e-mail, signed in at the workspace's provider as `subject`. */
async function ssoSignIn(email: string, subject: string): Promise<LightMyRequestResponse> {
  const start = await call('POST', '/api/v1/auth/sso/start', undefined, { email, returnTo: '/team' });
  expect(start.statusCode, start.body).toBe(200);
  const back = await idp.signIn(start.json().url, subject);
  const state = start.cookies.find((c) => c.name === 'sundial_sso_state');
  return call('GET', `${back.pathname}${back.search}`, `sundial_sso_state=${state?.value}`);
}

const hasSession = (response: LightMyRequestResponse) =>
  response.cookies.some((c) => (c.name === 'sundial_sid' || c.name === '__Host-sid') && c.value !== '');
const meOf = async (cookie: string) => (await call('GET', '/api/v1/me', cookie)).json();
const identitiesOf = (userId: string) =>
  t.db.selectFrom('user_identities').select(['id', 'provider']).where('user_id', '=', userId).execute();

/** Bob takes his address back: "Forgot password", the mailed link, a new password. */
async function resetPassword(email: string, password: string): Promise<void> {
  expect((await call('POST', '/api/v1/auth/password/forgot', undefined, { email })).statusCode).toBe(202);
  await t.app.services.background.drain();
  const token = await mailedToken(t.db, email, 'password');
  const reset = await call('POST', '/api/v1/auth/password/reset', undefined, { token, password });
  expect(reset.statusCode, reset.body).toBe(200);
}

describe('an attacker’s workspace identity provider and a pre-created account (issue 29)', () => {
  let attacker: SignedUp;

  beforeAll(async () => {
    // The attacker signs up as it-admin@victimcorp and points their workspace's SSO at their own provider.
    attacker = await signUp(t.app, `it-admin@${VICTIM_DOMAIN}`);
    const saved = await call('PUT', `/api/v1/workspaces/${attacker.workspaceId}/sso`, attacker.cookie, {
      protocol: 'oidc',
      issuer: idp.issuer,
      clientId: 'attacker-client',
      clientSecret: 'attacker-secret',
      defaultRole: 'member',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await call('POST', `/api/v1/workspaces/${attacker.workspaceId}/sso/domains`, attacker.cookie, {
      domain: VICTIM_DOMAIN,
    });
    // However a domain gets proved (the admin's address then, DNS now), suppose it was: the account side must hold on its own.
    await t.db
      .updateTable('workspace_sso_domains')
      .set({ verified_at: new Date(), verified_by_user_id: attacker.userId })
      .where('workspace_id', '=', attacker.workspaceId)
      .execute();
  });

  it('loses the identity it linked once the real owner resets the password', async () => {
    const bob = `bob@${VICTIM_DOMAIN}`;
    idp.accounts.set('attacker-as-bob', { email: bob, email_verified: true });
    const precreated = await ssoSignIn(bob, 'attacker-as-bob');
    expect(precreated.headers.location).toBe('/team');
    const bobId = (await meOf(sessionCookie(precreated))).user.id;
    expect(await identitiesOf(bobId)).toHaveLength(1);

    // The real Bob: "Forgot password", then his own private workspace.
    await resetPassword(bob, 'Bobs-own-pass-1');
    expect(await identitiesOf(bobId)).toEqual([]);
    const login = await call('POST', '/api/v1/auth/login', undefined, { email: bob, password: 'Bobs-own-pass-1' });
    expect(login.statusCode, login.body).toBe(200);
    const created = await call('POST', '/api/v1/workspaces', sessionCookie(login), { name: 'Bob private' });
    expect(created.statusCode, created.body).toBe(201);

    // The attacker signs in through their provider as Bob again: no session, only the password-link page.
    const again = await ssoSignIn(bob, 'attacker-as-bob');
    expect(hasSession(again)).toBe(false);
    expect(again.headers.location).toBe('/link-account?returnTo=%2Fteam');
    // The session the attacker had before the reset ended with it.
    expect((await call('GET', '/api/v1/me', sessionCookie(precreated))).statusCode).toBe(401);
    const reset = await auditTrail(t.db, { actorUserId: bobId, action: 'user.password_reset' });
    expect(reset[0]?.detail).toEqual({ identitiesRemoved: [`workspace:${attacker.workspaceId}`] });
  });

  it('does not match an unconfirmed account by its address, so nothing is linked to it', async () => {
    // The attacker pre-creates carol@victimcorp with a password they know, then signs in as her through their provider.
    const carol = await signUp(t.app, `carol@${VICTIM_DOMAIN}`);
    idp.accounts.set('attacker-as-carol', { email: carol.email, email_verified: true });
    const refused = await ssoSignIn(carol.email, 'attacker-as-carol');
    expect(refused.headers.location).toBe('/loginpage?ssoError=sso_email_not_verified');
    expect(hasSession(refused)).toBe(false);
    expect(refused.cookies.find((c) => c.name === 'sundial_sso_link')).toBeUndefined();
    expect(
      await t.db.selectFrom('sso_pending_links').where('user_id', '=', carol.userId).selectAll().execute(),
    ).toEqual([]);
    expect(await identitiesOf(carol.userId)).toEqual([]);
    expect(ssoErrorMessage('sso_email_not_verified')).toBe(ssoMessages.emailNotVerified);
    // Not a just-in-time member of the attacker's workspace either.
    const member = await t.db
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', attacker.workspaceId)
      .where('user_id', '=', carol.userId)
      .execute();
    expect(member).toEqual([]);
  });

  it('gives an account a workspace provider creates an unconfirmed address', async () => {
    idp.accounts.set('dave-sub', { email: `dave@${VICTIM_DOMAIN}`, email_verified: true });
    const done = await ssoSignIn(`dave@${VICTIM_DOMAIN}`, 'dave-sub');
    expect((await meOf(sessionCookie(done))).user.emailVerified).toBe(false);
  });
});

describe('social sign-in and unconfirmed addresses', () => {
  it('refuses to link an unconfirmed account, and offers the link once it is confirmed', async () => {
    const owner = await signUp(t.app);
    idp.accounts.set('claims-unconfirmed', { email: owner.email, email_verified: true });
    const refused = await socialSignIn('claims-unconfirmed');
    expect(refused.headers.location).toBe('/loginpage?ssoError=sso_email_not_verified');
    expect(refused.cookies.find((c) => c.name === 'sundial_sso_link')).toBeUndefined();

    await confirmEmail(t, owner.email);
    const offered = await socialSignIn('claims-unconfirmed');
    expect(offered.headers.location).toBe('/link-account?returnTo=%2Freports');
  });

  it('takes a social provider’s email_verified: true as proof of a new account’s address, and nothing less', async () => {
    const vouched = uniqueEmail('vouched').toLowerCase();
    idp.accounts.set('vouched', { email: vouched, email_verified: true });
    expect((await meOf(sessionCookie(await socialSignIn('vouched')))).user.emailVerified).toBe(true);

    // A provider that says nothing of verification (Microsoft) signs in, but proves nothing.
    const silent = uniqueEmail('silent').toLowerCase();
    idp.accounts.set('silent', { email: silent });
    const done = await socialSignIn('silent');
    expect((await meOf(sessionCookie(done))).user.emailVerified).toBe(false);
    expect(await mailedToken(t.db, silent, 'verify-email')).toBeTruthy();
  });
});

describe('linked identities on the profile', () => {
  async function linkedOwner() {
    const owner = await signUp(t.app);
    await confirmEmail(t, owner.email);
    const subject = `linked-${owner.userId}`;
    idp.accounts.set(subject, { email: owner.email, email_verified: true });
    const link = cookieOf(await socialSignIn(subject), 'sundial_sso_link');
    const linked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sso/link',
      headers: { cookie: link },
      payload: { password: STRONG_PASSWORD },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    return { ...owner, subject };
  }

  it('lists the user’s own identities and removes one, after which the provider no longer signs in', async () => {
    const owner = await linkedOwner();
    const list = await call('GET', '/api/v1/me/identities', owner.cookie);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      hasPassword: true,
      items: [
        {
          id: expect.any(String),
          kind: 'social',
          provider: 'Acme ID',
          workspace: null,
          email: owner.email,
          linkedAt: expect.any(String),
        },
      ],
    });
    const [identity] = list.json().items;

    // Someone else cannot see it nor remove it.
    const other = await signUp(t.app);
    expect((await call('GET', '/api/v1/me/identities', other.cookie)).json().items).toEqual([]);
    const foreign = await call('DELETE', `/api/v1/me/identities/${identity.id}`, other.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(await identitiesOf(owner.userId)).toHaveLength(1);
    expect((await call('DELETE', `/api/v1/me/identities/${identity.id}`)).statusCode).toBe(401);

    const removed = await call('DELETE', `/api/v1/me/identities/${identity.id}`, owner.cookie);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await call('GET', '/api/v1/me/identities', owner.cookie)).json().items).toEqual([]);
    expect(await auditTrail(t.db, { actorUserId: owner.userId, action: 'user.identity_removed' })).toHaveLength(1);
    const again = await socialSignIn(owner.subject);
    expect(hasSession(again)).toBe(false);
    expect(again.headers.location).toBe('/link-account?returnTo=%2Freports');
    expect((await call('DELETE', `/api/v1/me/identities/${identity.id}`, owner.cookie)).statusCode).toBe(404);
  });

  it('refuses to remove the last way to sign in of an account without a password', async () => {
    const email = uniqueEmail('only-social').toLowerCase();
    idp.accounts.set('only-social', { email, email_verified: true });
    const cookie = sessionCookie(await socialSignIn('only-social'));
    const userId = (await meOf(cookie)).user.id;
    // A second identity, as a workspace provider would have linked it.
    await t.db
      .insertInto('user_identities')
      .values({ id: crypto.randomUUID(), user_id: userId, provider: 'social:other', subject: 'x', email })
      .execute();
    const list = (await call('GET', '/api/v1/me/identities', cookie)).json();
    expect(list.hasPassword).toBe(false);
    expect(list.items).toHaveLength(2);

    expect((await call('DELETE', `/api/v1/me/identities/${list.items[1].id}`, cookie)).statusCode).toBe(204);
    const last = await call('DELETE', `/api/v1/me/identities/${list.items[0].id}`, cookie);
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toMatchObject({ code: 'last_sign_in_method', message: ssoMessages.lastSignInMethod });
    expect(await identitiesOf(userId)).toHaveLength(1);

    // A reset sets a password (and drops the identity): the account is the owner's by its mailbox alone.
    await resetPassword(email, 'Only-social-now-1');
    const login = await call('POST', '/api/v1/auth/login', undefined, { email, password: 'Only-social-now-1' });
    expect((await call('GET', '/api/v1/me/identities', sessionCookie(login))).json()).toEqual({
      hasPassword: true,
      items: [],
    });
  });

  it('names the workspace of a workspace provider’s identity', async () => {
    const owner = await signUp(t.app);
    await t.db
      .insertInto('user_identities')
      .values({
        id: crypto.randomUUID(),
        user_id: owner.userId,
        provider: `workspace:${owner.workspaceId}`,
        subject: `sub-${owner.userId}`,
        email: owner.email,
      })
      .execute();
    const name = (await meOf(owner.cookie)).workspaces[0].name;
    expect((await call('GET', '/api/v1/me/identities', owner.cookie)).json().items).toEqual([
      expect.objectContaining({
        kind: 'workspace',
        provider: 'Single sign-on',
        workspace: { id: owner.workspaceId, name },
      }),
    ]);
  });
});
