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
import { startOpenIdProvider, type TestOpenIdProvider } from '../../../test/openid-provider.js';
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

  // Issue 29: "require SSO" used to refuse the password everywhere to anyone with a membership here
  // (one a stranger's SCIM token could make), even in their own workspaces; now it holds for this
  // workspace only, and only for members who have signed in through its provider.
  it('requires SSO here only, of members who signed in through the provider, and lets them leave', async () => {
    const password = (email: string) =>
      call('POST', '/api/v1/auth/login', undefined, { email, password: STRONG_PASSWORD });
    const projects = (workspaceId: string, cookie: string) =>
      call('GET', `/api/v1/workspaces/${workspaceId}/projects`, cookie);

    // Never signed in through the provider: the requirement does not reach them yet.
    const member = await joinWorkspace(t, owner.workspaceId, 'member');
    const plain = await password(member.email);
    expect(plain.statusCode, plain.body).toBe(200);
    expect((await projects(owner.workspaceId, sessionCookie(plain))).statusCode).toBe(200);

    // Pat joined through the provider: a password session reaches Pat's own workspace, not this one.
    const hash = await import('../../platform/passwords.js').then((m) => m.hashPassword(STRONG_PASSWORD));
    await t.db.updateTable('users').set({ password_hash: hash }).where('email', '=', `pat@${domain}`).execute();
    const byPassword = await password(`pat@${domain}`);
    expect(byPassword.statusCode, byPassword.body).toBe(200);
    const cookie = sessionCookie(byPassword);
    const pat = (await call('GET', '/api/v1/me', cookie)).json();
    const own = pat.workspaces.find((w: { id: string; role: string }) => w.role === 'owner');
    expect((await projects(own.id, cookie)).statusCode).toBe(200);
    const refused = await projects(owner.workspaceId, cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('sso_required');
    const wrong = await call('POST', '/api/v1/auth/login', undefined, {
      email: `pat@${domain}`,
      password: 'Wrong-pass-1',
    });
    expect(wrong.statusCode).toBe(401);

    // Through the provider, the same person reaches it.
    const start = await call('POST', '/api/v1/auth/sso/start', undefined, { workspaceId: owner.workspaceId });
    const viaSso = await through(start, 'pat-sub');
    expect((await projects(owner.workspaceId, sessionCookie(viaSso))).statusCode).toBe(200);

    // The owner keeps the password.
    const ownerLogin = await password(owner.email);
    expect(ownerLogin.statusCode).toBe(200);
    expect((await projects(owner.workspaceId, sessionCookie(ownerLogin))).statusCode).toBe(200);

    // A member can always leave, with the session they have; the owner cannot walk away from it.
    const left = await call('POST', `/api/v1/workspaces/${owner.workspaceId}/leave`, cookie);
    expect(left.statusCode, left.body).toBe(204);
    expect((await projects(owner.workspaceId, sessionCookie(viaSso))).statusCode).toBe(404);
    expect((await projects(own.id, cookie)).statusCode).toBe(200);
    expect((await call('POST', `/api/v1/workspaces/${owner.workspaceId}/leave`, owner.cookie)).statusCode).toBe(403);
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

  const post = (SAMLResponse: string, RelayState: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/auth/sso/saml/${owner.workspaceId}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.saml-corp.test' },
      payload: new URLSearchParams({ SAMLResponse, RelayState }).toString(),
    });

  /** Starts "Log in with SSO" for an e-mail; answers the request the identity provider receives. */
  async function startFor(email: string) {
    const start = await call('POST', '/api/v1/auth/sso/start', undefined, { email });
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json().url).toMatch(/^https:\/\/idp\.saml-corp\.test\/sso\?SAMLRequest=/);
    return readAuthnRequest(start.json().url);
  }
  const response = (
    request: { requestId: string },
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
    const request = readAuthnRequest(verify.json().url);
    const done = await post(response(request, owner.email), request.relayState);
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
    const done = await post(response(request, `sam@${domain}`), request.relayState);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/');
    const body = await me(done);
    expect(body.user.email).toBe(`sam@${domain}`);
    expect(body.workspaces.find((w: { id: string }) => w.id === owner.workspaceId)).toMatchObject({ role: 'guest' });
  });

  it('audits a refused response for the workspace its request belongs to', async () => {
    const request = await startFor(`sam@${domain}`);
    const done = await post(tamper(response(request, `sam@${domain}`)), request.relayState);
    expect(done.headers.location).toBe('/loginpage?ssoError=sso_failed');
    const audited = await auditTrail(t.db, { workspaceId: owner.workspaceId, action: 'user.sso_sign_in_failed' });
    expect(audited.at(-1)?.detail).toMatchObject({ provider: `workspace:${owner.workspaceId}`, code: 'sso_failed' });
  });

  it('refuses a replayed response under its used-up RelayState', async () => {
    const request = await startFor(`sam@${domain}`);
    const signed = response(request, `sam@${domain}`);
    expect((await post(signed, request.relayState)).headers.location).toBe('/');
    const replay = await post(signed, request.relayState);
    expect(replay.headers.location).toMatch(/^\/loginpage\?ssoError=/);
    expect(replay.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
  });

  it('refuses a replayed assertion even under a fresh, valid RelayState that expects its request id', async () => {
    const first = await startFor(`sam@${domain}`);
    const signed = response(first, `sam@${domain}`);
    expect((await post(signed, first.relayState)).headers.location).toBe('/');
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
    const replay = await post(signed, second.relayState);
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
    expect((await post(response(first, `sam@${domain}`), third.relayState)).headers.location).toBe('/');
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
    const done = await post(build(request), request.relayState);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/loginpage?ssoError=sso_failed');
    expect(done.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
  });

  it('admits new members only from the allowed e-mail domains, and keeps existing ones', async () => {
    const allow = (allowedEmailDomains: string[]) =>
      call('PATCH', `/api/v1/workspaces/${owner.workspaceId}`, owner.cookie, { allowedEmailDomains });
    expect((await allow(['elsewhere.test'])).statusCode).toBe(200);
    try {
      const request = await startFor(`lee@${domain}`);
      const refused = await post(response(request, `lee@${domain}`), request.relayState);
      expect(refused.headers.location).toBe('/loginpage?ssoError=email_domain_not_allowed');
      expect(refused.cookies.find((c) => c.name === 'sundial_sid')).toBeUndefined();
      const account = await t.db.selectFrom('users').select('id').where('email', '=', `lee@${domain}`).execute();
      expect(account).toEqual([]);
      expect(ssoErrorMessage('email_domain_not_allowed')).toMatch(/allowed e-mail domains/);
      // Someone already a member is not a just-in-time join: the list does not lock them out.
      const again = await startFor(`sam@${domain}`);
      expect((await post(response(again, `sam@${domain}`), again.relayState)).headers.location).toBe('/');

      await allow(['elsewhere.test', domain]);
      const admitted = await startFor(`lee@${domain}`);
      expect((await post(response(admitted, `lee@${domain}`), admitted.relayState)).headers.location).toBe('/');
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
      const done = await post(response(request, `ria@${domain}`), request.relayState);
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
