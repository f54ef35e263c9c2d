import { ssoErrorMessage } from '@sundial/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  confirmEmail,
  createTestApp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  type TestApp,
  uniqueEmail,
} from '../../../test/harness.js';
import {
  forgeIdToken,
  type IdTokenForgery,
  startOpenIdProvider,
  type TestOpenIdProvider,
} from '../../../test/openid-provider.js';
import { cookieOf, freshCode, sendSecondStep, turnOnTwoFactor } from '../../../test/two-factor.js';

/**
 * Social sign-in against a real OpenID provider started here (oidc-provider, PKCE required):
 * the browser's round trip is driven by HTTP, the app answers through inject.
 */
let idp: TestOpenIdProvider;
let t: TestApp;
const CALLBACK = 'http://localhost:3000/api/v1/auth/oidc/acme/callback';

beforeAll(async () => {
  // It signs its ID tokens with RS256, but lists HS256 and none as well, as a provider may.
  idp = await startOpenIdProvider(
    [{ clientId: 'sundial', clientSecret: 'a-client-secret', redirectUris: [CALLBACK] }],
    {
      advertisedIdTokenAlgs: ['RS256', 'HS256', 'none'],
    },
  );
  t = await createTestApp({
    OIDC_PROVIDERS: JSON.stringify([
      { id: 'acme', name: 'Acme ID', issuer: idp.issuer, clientId: 'sundial', clientSecret: 'a-client-secret' },
    ]),
  });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

/** Starts at the app, signs in at the provider as `subject`, and brings the callback back to the app. */
async function signInThroughProvider(subject: string, returnTo = '/timesheet') {
  const start = await t.app.inject({
    method: 'GET',
    url: `/api/v1/auth/oidc/acme/start?returnTo=${encodeURIComponent(returnTo)}`,
  });
  expect(start.statusCode, start.body).toBe(303);
  const stateCookie = cookieOf(start, 'sundial_sso_state');
  const back = await idp.signIn(start.headers.location as string, subject);
  const callback = await t.app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { cookie: stateCookie },
  });
  return { start, back, callback, stateCookie };
}

const failuresAudited = () => auditTrail(t.db, { action: 'user.sso_sign_in_failed' });
const usersWith = (email: string) => t.db.selectFrom('users').select('id').where('email', '=', email).execute();

describe('social sign-in through OpenID Connect', () => {
  it('lists the configured providers, ids and names only', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/providers' });
    expect(response.json()).toEqual({ items: [{ id: 'acme', name: 'Acme ID' }] });
  });

  it('lists none when the operator configured none', async () => {
    const bare = await createTestApp();
    try {
      const response = await bare.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/providers' });
      expect(response.json()).toEqual({ items: [] });
      const start = await bare.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/acme/start' });
      expect(start.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/acme/start' });
    const url = new URL(start.headers.location as string);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    // The browser keeps its state in a cookie for the way back; the server keeps the rest.
    const cookie = start.cookies.find((c) => c.name === 'sundial_sso_state');
    expect(cookie).toMatchObject({ value: url.searchParams.get('state'), httpOnly: true, sameSite: 'Lax' });
    expect(start.body).not.toContain('a-client-secret');
  });

  it('creates the account and its workspace on a first sign-in, and signs in to it again after', async () => {
    const email = uniqueEmail('Social.New').toLowerCase();
    idp.accounts.set('new-person', { email, email_verified: true });
    const { callback } = await signInThroughProvider('new-person');
    expect(callback.statusCode, callback.body).toBe(303);
    expect(callback.headers.location).toBe('/timesheet');
    const me = (await t.app.inject({ url: '/api/v1/me', headers: { cookie: sessionCookie(callback) } })).json();
    expect(me.user.email).toBe(email);
    expect(me.workspaces).toHaveLength(1);
    expect(me.workspaces[0]).toMatchObject({ role: 'owner', plan: 'pro' });

    const again = await signInThroughProvider('new-person', '/reports');
    expect(again.callback.headers.location).toBe('/reports');
    const meAgain = await t.app.inject({ url: '/api/v1/me', headers: { cookie: sessionCookie(again.callback) } });
    expect(meAgain.json().user.id).toBe(me.user.id);
    expect(await usersWith(email)).toHaveLength(1);

    const audited = await auditTrail(t.db, { actorUserId: me.user.id });
    expect(audited.map((a) => a.action)).toEqual([
      'workspace.created',
      'user.signed_up',
      'user.signed_in_sso',
      'user.signed_in_sso',
    ]);
    expect(JSON.stringify(audited)).toContain('social:acme');
  });

  it('refuses a callback without the browser that started it, or a second time', async () => {
    idp.accounts.set('twice', { email: uniqueEmail('twice').toLowerCase(), email_verified: true });
    const { back, callback, stateCookie } = await signInThroughProvider('twice');
    expect(callback.statusCode).toBe(303);
    const replay = await t.app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie: stateCookie } });
    expect(replay.headers.location).toBe('/loginpage?ssoError=sso_expired');
    expect(replay.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();

    const start = await t.app.inject({ url: '/api/v1/auth/oidc/acme/start' });
    const elsewhere = await idp.signIn(start.headers.location as string, 'twice');
    const noCookie = await t.app.inject({ url: `${elsewhere.pathname}${elsewhere.search}` });
    expect(noCookie.headers.location).toBe('/loginpage?ssoError=sso_expired');
    const otherState = await t.app.inject({
      url: `${elsewhere.pathname}${elsewhere.search}`,
      headers: { cookie: 'sundial_sso_state=someone-elses' },
    });
    expect(otherState.headers.location).toBe('/loginpage?ssoError=sso_expired');
    expect(ssoErrorMessage('sso_expired')).toMatch(/took too long/);
  });

  it('audits a failed sign-in with the provider and the reason, never what the provider sent', async () => {
    idp.accounts.set('audited', { email: uniqueEmail('audited').toLowerCase(), email_verified: true });
    const { back, stateCookie } = await signInThroughProvider('audited');
    const before = await failuresAudited();
    const replay = await t.app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie: stateCookie } });
    expect(replay.headers.location).toBe('/loginpage?ssoError=sso_expired');
    const after = await failuresAudited();
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toMatchObject({
      workspace_id: null,
      actor_user_id: null,
      detail: { provider: 'social:acme', code: 'sso_expired', ip: '127.0.0.1' },
    });
    expect(JSON.stringify(after)).not.toContain(back.searchParams.get('code') ?? 'no code');
  });

  it('refuses a provider account whose e-mail the provider does not vouch for', async () => {
    const email = uniqueEmail('unverified').toLowerCase();
    idp.accounts.set('unverified', { email, email_verified: false });
    const { callback } = await signInThroughProvider('unverified');
    expect(callback.headers.location).toBe('/loginpage?ssoError=sso_no_email');
    expect(await usersWith(email)).toHaveLength(0);
  });

  it('never returns anywhere but this site', async () => {
    idp.accounts.set('wanderer', { email: uniqueEmail('wanderer').toLowerCase(), email_verified: true });
    for (const returnTo of ['https://evil.example/', '//evil.example/', '/\\evil.example']) {
      const { callback } = await signInThroughProvider('wanderer', returnTo);
      expect(callback.headers.location).toBe('/');
    }
  });
});

describe('an ID token the provider did not sign', () => {
  const victimEmail = uniqueEmail('forged.victim').toLowerCase();

  beforeAll(async () => {
    idp.accounts.set('victim-sub', { email: victimEmail, email_verified: true });
    expect((await signInThroughProvider('victim-sub')).callback.headers.location).toBe('/timesheet');
    idp.accounts.set('forger-sub', { email: uniqueEmail('forger').toLowerCase(), email_verified: true });
  });

  it.each<IdTokenForgery>(['alg none', 'a key not in the JWKS', 'an unknown kid', 'HS256 with the client secret'])(
    'is refused when signed with %s, even naming an account that exists',
    async (how) => {
      // The forger signs in at the provider as themselves; the token endpoint's answer is swapped
      // for an ID token naming the victim (nonce, audience, issuer and times copied from the real one).
      idp.replaceIdToken = (issued) =>
        forgeIdToken(issued, { sub: 'victim-sub', email: victimEmail, email_verified: true }, how, 'a-client-secret');
      try {
        const before = await failuresAudited();
        const { callback } = await signInThroughProvider('forger-sub');
        expect(callback.headers.location).toBe('/loginpage?ssoError=sso_failed');
        expect(callback.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
        expect(await failuresAudited()).toHaveLength(before.length + 1);
      } finally {
        idp.replaceIdToken = undefined;
      }
      // The provider's own tokens still sign in.
      expect((await signInThroughProvider('victim-sub')).callback.headers.location).toBe('/timesheet');
    },
  );
});

describe('an e-mail that already has an account', () => {
  it('is linked only after the password of that account is proved', async () => {
    const owner = await signUp(t.app);
    // Only a confirmed address is matched at all (linked-identities.int.test.ts: an unconfirmed one is refused).
    await confirmEmail(t, owner.email);
    idp.accounts.set('claims-owner', { email: owner.email, email_verified: true });
    const { callback } = await signInThroughProvider('claims-owner', '/projects');
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe('/link-account?returnTo=%2Fprojects');
    expect(callback.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
    const linkCookie = cookieOf(callback, 'sundial_sso_link');

    const asked = await t.app.inject({ url: '/api/v1/auth/sso/link', headers: { cookie: linkCookie } });
    expect(asked.json()).toEqual({ email: owner.email, provider: 'Acme ID' });

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sso/link',
      headers: { cookie: linkCookie },
      payload: { password: 'Not-the-password-1' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(await t.db.selectFrom('user_identities').where('user_id', '=', owner.userId).selectAll().execute()).toEqual(
      [],
    );
    // Without the link request of this browser, the password links nothing.
    const noCookie = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sso/link',
      payload: { password: STRONG_PASSWORD },
    });
    expect(noCookie.statusCode).toBe(410);

    const right = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sso/link',
      headers: { cookie: linkCookie },
      payload: { password: STRONG_PASSWORD },
    });
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json()).toMatchObject({ user: { id: owner.userId }, returnTo: '/projects' });
    sessionCookie(right);

    // From now on the provider signs the owner in directly, into the same account.
    const later = await signInThroughProvider('claims-owner');
    const me = await t.app.inject({ url: '/api/v1/me', headers: { cookie: sessionCookie(later.callback) } });
    expect(me.json().user.id).toBe(owner.userId);
    const used = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sso/link',
      headers: { cookie: linkCookie },
      payload: { password: STRONG_PASSWORD },
    });
    expect(used.statusCode).toBe(410);
    const audited = await auditTrail(t.db, { actorUserId: owner.userId, action: 'user.identity_linked' });
    expect(audited).toHaveLength(1);
  });
});

describe('the same two-factor gate as the password', () => {
  it('asks a user with 2FA for the code on the log-in page, and signs in only with it', async () => {
    const email = uniqueEmail('social.2fa').toLowerCase();
    idp.accounts.set('with-2fa', { email, email_verified: true });
    const first = await signInThroughProvider('with-2fa');
    const { secret } = await turnOnTwoFactor(t.app, sessionCookie(first.callback));

    const { callback } = await signInThroughProvider('with-2fa', '/reports');
    expect(callback.statusCode, callback.body).toBe(303);
    expect(callback.headers.location).toBe('/loginpage?twoFactor=code&next=%2Freports');
    expect(callback.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
    const challenge = cookieOf(callback, 'sundial_2fa_challenge');
    expect(callback.cookies.find((c) => c.name === 'sundial_2fa_challenge')).toMatchObject({
      httpOnly: true,
      path: '/api/v1/auth',
    });

    const wrong = await sendSecondStep(t.app, challenge, { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
    const withoutChallenge = await sendSecondStep(t.app, '', { code: await freshCode(secret) });
    expect(withoutChallenge.statusCode).toBe(401);

    const right = await sendSecondStep(t.app, challenge, { code: await freshCode(secret) });
    expect(right.statusCode, right.body).toBe(200);
    const me = await t.app.inject({ url: '/api/v1/me', headers: { cookie: sessionCookie(right) } });
    expect(me.json().user.email).toBe(email);
    const again = await sendSecondStep(t.app, challenge, { code: await freshCode(secret) });
    expect(again.statusCode).toBe(401);
  });

  it('limits the session to setting 2FA up when a workspace of the user requires it', async () => {
    const email = uniqueEmail('social.enrol').toLowerCase();
    idp.accounts.set('must-enrol', { email, email_verified: true });
    const first = await signInThroughProvider('must-enrol');
    const cookie = sessionCookie(first.callback);
    const workspaceId = (await t.app.inject({ url: '/api/v1/me', headers: { cookie } })).json().currentWorkspaceId;
    const policy = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/workspaces/${workspaceId}/two-factor-policy`,
      headers: { cookie },
      payload: { required: true },
    });
    expect(policy.statusCode, policy.body).toBe(200);

    const { callback } = await signInThroughProvider('must-enrol', '/reports');
    expect(callback.headers.location).toBe('/loginpage?twoFactor=enrol&next=%2Freports');
    const limited = sessionCookie(callback);
    const blocked = await t.app.inject({
      url: `/api/v1/workspaces/${workspaceId}/projects`,
      headers: { cookie: limited },
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('two_factor_enrolment_required');

    await turnOnTwoFactor(t.app, limited);
    const lifted = await t.app.inject({
      url: `/api/v1/workspaces/${workspaceId}/projects`,
      headers: { cookie: limited },
    });
    expect(lifted.statusCode).toBe(200);
  });
});
