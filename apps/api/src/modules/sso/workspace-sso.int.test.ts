import { ssoErrorMessage } from '@sundial/core';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  createTestApp,
  joinWorkspace,
  type SignedUp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  type TestApp,
} from '../../../test/harness.js';
import { forgeIdToken, startOpenIdProvider, type TestOpenIdProvider } from '../../../test/openid-provider.js';
import { makeSigningKey, readAuthnRequest, samlResponse } from '../../../test/saml-idp.js';
import { cookieOf, freshCode, sendSecondStep, turnOnTwoFactor } from '../../../test/two-factor.js';

/**
 * Workspace SSO: OpenID Connect against a real provider (oidc-provider), SAML against an identity
 * provider built here (xml-crypto signs its assertions). The browser's round trips are HTTP.
 */
let idp: TestOpenIdProvider;
let t: TestApp;
const OIDC_CALLBACK = 'http://localhost:3000/api/v1/auth/sso/oidc/callback';

beforeAll(async () => {
  idp = await startOpenIdProvider([
    { clientId: 'workspace-client', clientSecret: 'workspace-client-secret', redirectUris: [OIDC_CALLBACK] },
  ]);
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });
const stateCookieOf = (response: LightMyRequestResponse) => {
  const cookie = response.cookies.find((c) => c.name === 'sundial_sso_state');
  return cookie ? `sundial_sso_state=${cookie.value}` : '';
};
const me = async (response: LightMyRequestResponse) =>
  (await call('GET', '/api/v1/me', sessionCookie(response))).json();

describe('workspace SSO through OpenID Connect', () => {
  let owner: SignedUp;
  const domain = 'oidc-corp.test';
  const ws = () => `/api/v1/workspaces/${owner.workspaceId}/sso`;

  /** The browser's way through the workspace's provider, from a start answer ({url} and its state cookie). */
  async function through(start: LightMyRequestResponse, subject: string) {
    expect(start.statusCode, start.body).toBe(200);
    const back = await idp.signIn(start.json().url, subject);
    expect(`${back.origin}${back.pathname}`).toBe(OIDC_CALLBACK);
    return call('GET', `${back.pathname}${back.search}`, stateCookieOf(start));
  }

  beforeAll(async () => {
    owner = await signUp(t.app, `owner@${domain}`);
    idp.accounts.set('owner-sub', { email: `owner@${domain}`, email_verified: true });
  });

  it('keeps the client secret sealed, never shows it, and audits the change without it', async () => {
    const saved = await call('PUT', ws(), owner.cookie, {
      protocol: 'oidc',
      issuer: idp.issuer,
      clientId: 'workspace-client',
      clientSecret: 'workspace-client-secret',
      requireSso: true,
      defaultRole: 'member',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ protocol: 'oidc', hasClientSecret: true, requireSso: true });
    expect(saved.body).not.toContain('workspace-client-secret');
    const row = await t.db.selectFrom('workspace_sso').selectAll().executeTakeFirstOrThrow();
    expect(row.oidc_client_secret_sealed).toMatch(/^v1\./);
    expect(row.oidc_client_secret_sealed).not.toContain('workspace-client-secret');
    const audited = await t.db
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'sso.settings_saved')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(audited)).not.toContain('workspace-client-secret');
    // Saved again without a secret: the stored one stays.
    const again = await call('PUT', ws(), owner.cookie, {
      protocol: 'oidc',
      issuer: idp.issuer,
      clientId: 'workspace-client',
      requireSso: true,
    });
    expect(again.json().hasClientSecret).toBe(true);
  });

  it('verifies a domain when the admin whose address is there signs in through the provider', async () => {
    await call('POST', `${ws()}/domains`, owner.cookie, { domain: domain.toUpperCase() });
    expect((await call('GET', ws(), owner.cookie)).json().domains).toEqual([
      { domain, verified: false, verifiedAt: null },
    ]);
    // Nobody can sign in through an unverified domain.
    idp.accounts.set('early', { email: `early@${domain}`, email_verified: true });
    expect((await call('POST', '/api/v1/auth/sso/start', undefined, { email: `early@${domain}` })).statusCode).toBe(
      404,
    );

    const start = await call('POST', `${ws()}/domains/${domain}/verify`, owner.cookie);
    const done = await through(start, 'owner-sub');
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/homepage/sso');
    expect((await call('GET', ws(), owner.cookie)).json().domains[0]).toMatchObject({ domain, verified: true });
  });

  it('refuses to verify a domain the provider does not vouch the admin’s own address for', async () => {
    await call('POST', `${ws()}/domains`, owner.cookie, { domain: 'elsewhere.test' });
    const start = await call('POST', `${ws()}/domains/elsewhere.test/verify`, owner.cookie);
    expect(start.statusCode).toBe(422);
    expect(start.json().error.code).toBe('sso_domain_not_proved');
  });

  it('finds the provider by e-mail, creates the account and makes it a member with the default role', async () => {
    idp.accounts.set('pat-sub', { email: `pat@${domain}`, email_verified: true });
    const start = await call('POST', '/api/v1/auth/sso/start', undefined, {
      email: `Pat@${domain}`,
      returnTo: '/team',
    });
    const done = await through(start, 'pat-sub');
    expect(done.headers.location).toBe('/team');
    const body = await me(done);
    expect(body.user.email).toBe(`pat@${domain}`);
    expect(body.currentWorkspaceId).toBe(owner.workspaceId);
    expect(body.workspaces.find((w: { id: string }) => w.id === owner.workspaceId)).toMatchObject({ role: 'member' });
    const joined = await auditTrail(t.db, { workspaceId: owner.workspaceId, action: 'sso.member_joined' });
    expect(joined).toHaveLength(1);
  });

  it('refuses an ID token signed by a key not in the provider’s JWKS', async () => {
    idp.accounts.set('forger', { email: `forger@${domain}`, email_verified: true });
    idp.replaceIdToken = (issued) =>
      forgeIdToken(
        issued,
        { sub: 'pat-sub', email: `pat@${domain}`, email_verified: true },
        'a key not in the JWKS',
        'workspace-client-secret',
      );
    try {
      const done = await through(
        await call('POST', '/api/v1/auth/sso/start', undefined, { email: `forger@${domain}` }),
        'forger',
      );
      expect(done.headers.location).toBe('/loginpage?ssoError=sso_failed');
      expect(done.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
    } finally {
      idp.replaceIdToken = undefined;
    }
  });

  it('asks a member with 2FA for the code after the provider, and signs in only with it', async () => {
    idp.accounts.set('kim-sub', { email: `kim@${domain}`, email_verified: true });
    const startAs = () =>
      call('POST', '/api/v1/auth/sso/start', undefined, { email: `kim@${domain}`, returnTo: '/team' });
    const first = await through(await startAs(), 'kim-sub');
    const { secret } = await turnOnTwoFactor(t.app, sessionCookie(first));

    const done = await through(await startAs(), 'kim-sub');
    expect(done.headers.location).toBe('/loginpage?twoFactor=code&next=%2Fteam');
    expect(done.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
    const challenge = cookieOf(done, 'sundial_2fa_challenge');
    const wrong = await sendSecondStep(t.app, challenge, { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
    const right = await sendSecondStep(t.app, challenge, { code: await freshCode(secret) });
    expect(right.statusCode, right.body).toBe(200);
    expect((await me(right)).user.email).toBe(`kim@${domain}`);
  });

  it('refuses an address outside the verified domains', async () => {
    idp.accounts.set('stranger', { email: 'stranger@other.test', email_verified: true });
    const start = await call('POST', '/api/v1/auth/sso/start', undefined, { workspaceId: owner.workspaceId });
    const done = await through(start, 'stranger');
    expect(done.headers.location).toBe('/loginpage?ssoError=sso_outside_domains');
    expect(done.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
  });

  it('requires SSO of members while the owner keeps the password', async () => {
    const member = await joinWorkspace(t, owner.workspaceId, 'member');
    const refused = await call('POST', '/api/v1/auth/login', undefined, {
      email: member.email,
      password: STRONG_PASSWORD,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('sso_required');
    const wrong = await call('POST', '/api/v1/auth/login', undefined, {
      email: member.email,
      password: 'Wrong-pass-1',
    });
    expect(wrong.statusCode).toBe(401);
    const ownerLogin = await call('POST', '/api/v1/auth/login', undefined, {
      email: owner.email,
      password: STRONG_PASSWORD,
    });
    expect(ownerLogin.statusCode).toBe(200);
  });
});

describe('workspace SSO through SAML 2.0', () => {
  let owner: SignedUp;
  const domain = 'saml-corp.test';
  const idpIssuer = 'https://idp.saml-corp.test';
  const { key, cert } = makeSigningKey();
  const ws = () => `/api/v1/workspaces/${owner.workspaceId}/sso`;
  const acs = () => `http://localhost:3000/api/v1/auth/sso/saml/${owner.workspaceId}/acs`;
  const audience = () => `http://localhost:3000/api/v1/auth/sso/saml/${owner.workspaceId}/metadata`;

  /** The identity provider's page posting a response in a browser: its RelayState, and that browser's cookie. */
  const post = (SAMLResponse: string, browser: { relayState: string; cookie?: string }) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/auth/sso/saml/${owner.workspaceId}/acs`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://idp.saml-corp.test',
        ...(browser.cookie ? { cookie: browser.cookie } : {}),
      },
      payload: new URLSearchParams({ SAMLResponse, RelayState: browser.relayState }).toString(),
    });

  /** Starts "Log in with SSO" for an e-mail in a browser; answers the request the identity provider receives, and the browser's state cookie. */
  async function startFor(email: string) {
    const start = await call('POST', '/api/v1/auth/sso/start', undefined, { email });
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json().url).toMatch(/^https:\/\/idp\.saml-corp\.test\/sso\?SAMLRequest=/);
    return { ...readAuthnRequest(start.json().url), cookie: stateCookieOf(start) };
  }
  const response = (
    request: { requestId: string | undefined },
    email: string,
    extra: Partial<Parameters<typeof samlResponse>[0]> = {},
  ) =>
    samlResponse({
      key,
      cert,
      issuer: idpIssuer,
      audience: audience(),
      acsUrl: acs(),
      inResponseTo: request.requestId,
      nameId: email,
      email,
      ...extra,
    });

  beforeAll(async () => {
    owner = await signUp(t.app, `owner@${domain}`);
    const saved = await call('PUT', ws(), owner.cookie, {
      protocol: 'saml',
      entryPoint: 'https://idp.saml-corp.test/sso',
      idpIssuer,
      idpCertificate: cert,
      defaultRole: 'guest',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await call('POST', `${ws()}/domains`, owner.cookie, { domain });
    const verify = await call('POST', `${ws()}/domains/${domain}/verify`, owner.cookie);
    const request = { ...readAuthnRequest(verify.json().url), cookie: stateCookieOf(verify) };
    const done = await post(response(request, owner.email), request);
    expect(done.headers.location).toBe('/homepage/sso');
  });

  it('serves its service provider metadata', async () => {
    const metadata = await call('GET', `/api/v1/auth/sso/saml/${owner.workspaceId}/metadata`);
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(metadata.body).toContain(`entityID="${audience()}"`);
    expect(metadata.body).toContain(`Location="${acs()}"`);
  });

  it('signs in with a signed response and makes a member with the default role', async () => {
    const request = await startFor(`sam@${domain}`);
    const done = await post(response(request, `sam@${domain}`), request);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/');
    const body = await me(done);
    expect(body.user.email).toBe(`sam@${domain}`);
    expect(body.workspaces.find((w: { id: string }) => w.id === owner.workspaceId)).toMatchObject({ role: 'guest' });
  });

  it('audits a refused response for the workspace its request belongs to', async () => {
    const request = await startFor(`sam@${domain}`);
    const done = await post(tamper(response(request, `sam@${domain}`)), request);
    expect(done.headers.location).toBe('/loginpage?ssoError=sso_failed');
    const audited = await auditTrail(t.db, { workspaceId: owner.workspaceId, action: 'user.sso_sign_in_failed' });
    expect(audited.at(-1)?.detail).toMatchObject({ provider: `workspace:${owner.workspaceId}`, code: 'sso_failed' });
  });

  it('refuses a replayed response under its used-up RelayState', async () => {
    const request = await startFor(`sam@${domain}`);
    const signed = response(request, `sam@${domain}`);
    expect((await post(signed, request)).headers.location).toBe('/');
    const replay = await post(signed, request);
    expect(replay.headers.location).toMatch(/^\/loginpage\?ssoError=/);
    expect(replay.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
  });

  it('refuses a replayed assertion even under a fresh, valid RelayState that expects its request id', async () => {
    const first = await startFor(`sam@${domain}`);
    const signed = response(first, `sam@${domain}`);
    expect((await post(signed, first)).headers.location).toBe('/');
    // A new sign-in whose stored request is the one the captured assertion answers: the state is
    // unused, InResponseTo, audience, signature and time window all hold, so only the table of
    // assertion ids already seen can refuse it.
    const second = await startFor(`sam@${domain}`);
    const moved = await t.db
      .updateTable('sso_states')
      .set({ request_id: first.requestId })
      .where('request_id', '=', second.requestId)
      .executeTakeFirst();
    expect(Number(moved.numUpdatedRows)).toBe(1);
    const replay = await post(signed, second);
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe('/loginpage?ssoError=sso_failed');
    expect(replay.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
    // The same fresh state with a new assertion for that request is accepted: the refusal was the replay.
    const third = await startFor(`sam@${domain}`);
    await t.db
      .updateTable('sso_states')
      .set({ request_id: first.requestId })
      .where('request_id', '=', third.requestId)
      .execute();
    expect((await post(response(first, `sam@${domain}`), third)).headers.location).toBe('/');
  });

  it.each([
    ['a tampered response', (r: { requestId: string }) => tamper(response(r, `sam@${domain}`))],
    ['an expired response', (r: { requestId: string }) => response(r, `sam@${domain}`, { validForSeconds: -600 })],
    ['a wrong audience', (r: { requestId: string }) => response(r, `sam@${domain}`, { audience: 'https://other.sp/' })],
    ['an unsigned response', (r: { requestId: string }) => response(r, `sam@${domain}`, { unsigned: true })],
    [
      'a wrong destination',
      (r: { requestId: string }) => response(r, `sam@${domain}`, { destination: 'https://x/acs' }),
    ],
    ['a response to another request', () => response({ requestId: '_not-our-request' }, `sam@${domain}`)],
    ['a response signed by another key', (r: { requestId: string }) => response(r, `sam@${domain}`, makeSigningKey())],
  ])('refuses %s', async (_what, build) => {
    const request = await startFor(`sam@${domain}`);
    const done = await post(build(request), request);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/loginpage?ssoError=sso_failed');
    expect(done.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
  });

  const refusedWith = (done: LightMyRequestResponse, code: string) => {
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/loginpage?ssoError=${code}`);
    expect(done.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
  };

  it.each([
    ['the assertion and the response', { issuer: 'https://other-tenant.idp.test' }],
    ['the assertion only', { issuer: 'https://other-tenant.idp.test', responseIssuer: idpIssuer }],
    ['the response only', { responseIssuer: 'https://other-tenant.idp.test' }],
  ])('refuses a response signed by the trusted key whose issuer is not the configured one (%s)', async (_w, extra) => {
    // One signing key may serve several tenants of an identity provider: the key alone does not say whose answer it is.
    const request = await startFor(`sam@${domain}`);
    refusedWith(await post(response(request, `sam@${domain}`, extra), request), 'sso_wrong_issuer');
    expect(ssoErrorMessage('sso_wrong_issuer')).toMatch(/identity provider/);
  });

  it('refuses an unsolicited response (one that answers no request of ours)', async () => {
    const request = await startFor(`sam@${domain}`);
    refusedWith(await post(response({ requestId: undefined }, `sam@${domain}`), request), 'sso_failed');
  });

  it("refuses an insider's valid response posted from someone else's browser (login CSRF)", async () => {
    // The insider starts a sign-in, gets the identity provider's signed answer, and has another
    // browser post it (an auto-submitting form on a page the victim opens).
    const insider = await startFor(`sam@${domain}`);
    const signed = response(insider, `sam@${domain}`);
    refusedWith(await post(signed, { relayState: insider.relayState }), 'sso_expired');
    // A victim in the middle of their own sign-in has a state cookie too, just not this one.
    const victim = await startFor(`vic@${domain}`);
    refusedWith(await post(signed, { relayState: insider.relayState, cookie: victim.cookie }), 'sso_expired');
    // Nothing was used up by the refusals: the browser that started it finishes it, once.
    const own = await post(signed, insider);
    expect(own.headers.location).toBe('/');
    expect((await me(own)).user.email).toBe(`sam@${domain}`);
    refusedWith(await post(signed, insider), 'sso_expired');
  });

  it('sets the state cookie so that the identity provider’s cross-site POST carries it', async () => {
    const start = await call('POST', '/api/v1/auth/sso/start', undefined, { email: `sam@${domain}` });
    const cookie = start.cookies.find((c) => c.name === 'sundial_sso_state');
    // Plain http (this test's public URL): no SameSite attribute, the browser's default; https: SameSite=None; Secure.
    expect(cookie).toMatchObject({ httpOnly: true, path: '/api/v1/auth' });
    expect(cookie?.sameSite).toBeUndefined();
  });

  it('admits new members only from the allowed e-mail domains, and keeps existing ones', async () => {
    const allow = (allowedEmailDomains: string[]) =>
      call('PATCH', `/api/v1/workspaces/${owner.workspaceId}`, owner.cookie, { allowedEmailDomains });
    expect((await allow(['elsewhere.test'])).statusCode).toBe(200);
    try {
      const request = await startFor(`lee@${domain}`);
      const refused = await post(response(request, `lee@${domain}`), request);
      expect(refused.headers.location).toBe('/loginpage?ssoError=email_domain_not_allowed');
      expect(refused.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
      const account = await t.db.selectFrom('users').select('id').where('email', '=', `lee@${domain}`).execute();
      expect(account).toEqual([]);
      expect(ssoErrorMessage('email_domain_not_allowed')).toMatch(/allowed e-mail domains/);
      // Someone already a member is not a just-in-time join: the list does not lock them out.
      const again = await startFor(`sam@${domain}`);
      expect((await post(response(again, `sam@${domain}`), again)).headers.location).toBe('/');

      await allow(['elsewhere.test', domain]);
      const admitted = await startFor(`lee@${domain}`);
      expect((await post(response(admitted, `lee@${domain}`), admitted)).headers.location).toBe('/');
    } finally {
      await allow([]);
    }
  });

  it('gives a new member of a workspace that requires 2FA a session that may only set it up', async () => {
    const policy = (required: boolean) =>
      call('PUT', `/api/v1/workspaces/${owner.workspaceId}/two-factor-policy`, owner.cookie, { required });
    expect((await policy(true)).statusCode).toBe(200);
    try {
      const request = await startFor(`ria@${domain}`);
      const done = await post(response(request, `ria@${domain}`), request);
      expect(done.headers.location).toBe('/loginpage?twoFactor=enrol&next=%2F');
      const limited = sessionCookie(done);
      const blocked = await call('GET', `/api/v1/workspaces/${owner.workspaceId}/projects`, limited);
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().error.code).toBe('two_factor_enrolment_required');
      await turnOnTwoFactor(t.app, limited);
      expect((await call('GET', `/api/v1/workspaces/${owner.workspaceId}/projects`, limited)).statusCode).toBe(200);
    } finally {
      await policy(false);
    }
  });
});

/** The signed assertion with its e-mail changed after signing: the signature no longer holds. */
function tamper(base64: string): string {
  const xml = Buffer.from(base64, 'base64').toString('utf8');
  const changed = xml.replaceAll('sam@saml-corp.test', 'boss@saml-corp.test');
  expect(changed).not.toBe(xml);
  return Buffer.from(changed).toString('base64');
}
