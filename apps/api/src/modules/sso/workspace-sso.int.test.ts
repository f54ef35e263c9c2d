import { ssoErrorMessage } from '@sundial/core';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../../../test/dns-server.js';
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
 * provider built here (xml-crypto signs its assertions), domains proved by TXT records on a real
 * DNS server on this machine (dns-packet speaks the wire format). The browser's round trips are HTTP.
 */
let idp: TestOpenIdProvider;
let dns: TestDnsServer;
let t: TestApp;
const OIDC_CALLBACK = 'http://localhost:3000/api/v1/auth/sso/oidc/callback';
/** How long the app waits for the DNS server (short: the tests of a silent server wait this long). */
const DNS_TIMEOUT_MS = 600;

beforeAll(async () => {
  idp = await startOpenIdProvider([
    { clientId: 'workspace-client', clientSecret: 'workspace-client-secret', redirectUris: [OIDC_CALLBACK] },
  ]);
  dns = await startTestDnsServer();
  t = await createTestApp({ DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS) });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
  await dns?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });
const stateCookieOf = (response: LightMyRequestResponse) => {
  const cookie = response.cookies.find((c) => c.name === 'sundial_sso_state');
  return cookie ? `sundial_sso_state=${cookie.value}` : '';
};
const me = async (response: LightMyRequestResponse) =>
  (await call('GET', '/api/v1/me', sessionCookie(response))).json();
const ssoOf = (owner: SignedUp) => `/api/v1/workspaces/${owner.workspaceId}/sso`;

/** The browser's way through the OpenID provider, from a start answer ({url} and its state cookie). */
async function through(start: LightMyRequestResponse, subject: string) {
  expect(start.statusCode, start.body).toBe(200);
  const back = await idp.signIn(start.json().url, subject);
  expect(`${back.origin}${back.pathname}`).toBe(OIDC_CALLBACK);
  return call('GET', `${back.pathname}${back.search}`, stateCookieOf(start));
}

/** Sets the workspace's identity provider to the test OpenID provider. */
async function useOpenIdProvider(owner: SignedUp) {
  const saved = await call('PUT', ssoOf(owner), owner.cookie, {
    protocol: 'oidc',
    issuer: idp.issuer,
    clientId: 'workspace-client',
    clientSecret: 'workspace-client-secret',
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

/** Lists the domain for the workspace; answers the TXT record the page tells its owner to publish. */
async function claim(owner: SignedUp, domain: string): Promise<{ name: string; value: string }> {
  const added = await call('POST', `${ssoOf(owner)}/domains`, owner.cookie, { domain });
  expect(added.statusCode, added.body).toBe(200);
  const listed = added.json().domains.find((d: { domain: string }) => d.domain === domain.toLowerCase());
  expect(listed, added.body).toBeDefined();
  return listed.record;
}

/** Publishes a TXT record on the test DNS server, beside any already at that name. */
const publish = (record: { name: string; value: string }) =>
  dns.txt.set(record.name, [...(dns.txt.get(record.name) ?? []), record.value]);

const verify = (owner: SignedUp, domain: string) =>
  call('POST', `${ssoOf(owner)}/domains/${domain}/verify`, owner.cookie);

/** Lists, publishes and verifies the domain: what its real owner does. */
async function prove(owner: SignedUp, domain: string) {
  publish(await claim(owner, domain));
  const verified = await verify(owner, domain);
  expect(verified.statusCode, verified.body).toBe(200);
  return verified;
}

describe('workspace SSO through OpenID Connect', () => {
  let owner: SignedUp;
  const domain = 'oidc-corp.test';
  const ws = () => ssoOf(owner);

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

  // Was: the owner verified the domain by signing in through the provider with their own address
  // there. That proved nothing (issue 29: the provider is the workspace's own); a TXT record does.
  it('routes sign-ins of a domain only once its TXT record proves it', async () => {
    const record = await claim(owner, domain.toUpperCase());
    expect((await call('GET', ws(), owner.cookie)).json().domains).toEqual([
      { domain, verified: false, verifiedAt: null, record },
    ]);
    // Nobody can sign in through an unverified domain.
    idp.accounts.set('early', { email: `early@${domain}`, email_verified: true });
    expect((await call('POST', '/api/v1/auth/sso/start', undefined, { email: `early@${domain}` })).statusCode).toBe(
      404,
    );

    publish(record);
    const verified = await verify(owner, domain);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().domains[0]).toMatchObject({ domain, verified: true });
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
    await prove(owner, domain);
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

describe('SSO domains proved by a TXT record (issue 29)', () => {
  const errorOf = (response: LightMyRequestResponse) => [response.statusCode, response.json().error?.code];
  const verifiedRows = (domain: string) =>
    t.db
      .selectFrom('workspace_sso_domains')
      .select('workspace_id')
      .where('domain', '=', domain)
      .where('verified_at', 'is not', null)
      .execute();

  it("stops an attacker signed up at the victim's domain, and lets the real company prove it by DNS", async () => {
    const domain = 'victimcorp.test';
    // The attacker signs up with an address at the victim's domain and vouches for it through its own provider.
    const attacker = await signUp(t.app, `it-admin@${domain}`);
    await useOpenIdProvider(attacker);
    idp.accounts.set('attacker-it-admin', { email: `it-admin@${domain}`, email_verified: true });
    await claim(attacker, domain);
    const attempt = await verify(attacker, domain);
    if (attempt.statusCode === 200 && attempt.json().url) await through(attempt, 'attacker-it-admin');
    else expect(errorOf(attempt)).toEqual([422, 'sso_domain_not_proved']);
    expect(await verifiedRows(domain)).toEqual([]);
    // So "Log in with SSO" for the domain goes nowhere, and the attacker's provider admits nobody there.
    expect(errorOf(await call('POST', '/api/v1/auth/sso/start', undefined, { email: `ceo@${domain}` }))).toEqual([
      404,
      'sso_not_configured',
    ]);
    idp.accounts.set('attacker-ceo', { email: `ceo@${domain}`, email_verified: true });
    const planted = await through(
      await call('POST', '/api/v1/auth/sso/start', undefined, { workspaceId: attacker.workspaceId }),
      'attacker-ceo',
    );
    expect(planted.headers.location).toBe('/loginpage?ssoError=sso_outside_domains');
    expect(await t.db.selectFrom('users').select('id').where('email', '=', `ceo@${domain}`).execute()).toEqual([]);

    // The real company: the attacker's pending claim does not block it, and its TXT record proves the domain.
    const company = await signUp(t.app, `owner@${domain}`);
    await useOpenIdProvider(company);
    const proved = await prove(company, domain);
    expect(proved.json().domains).toEqual([
      expect.objectContaining({ domain, verified: true, verifiedAt: expect.any(String) }),
    ]);
    expect(await verifiedRows(domain)).toEqual([{ workspace_id: company.workspaceId }]);
    // Its people now reach its provider by their e-mail and join it.
    idp.accounts.set('company-ceo', { email: `ceo@${domain}`, email_verified: true });
    const joined = await through(
      await call('POST', '/api/v1/auth/sso/start', undefined, { email: `ceo@${domain}` }),
      'company-ceo',
    );
    expect((await me(joined)).currentWorkspaceId).toBe(company.workspaceId);
    // The attacker cannot take it over, even with the company's record in DNS.
    expect(errorOf(await verify(attacker, domain))).toEqual([409, 'sso_domain_taken']);
  });

  it('refuses public e-mail domains, where anyone may have an address', async () => {
    const owner = await signUp(t.app);
    for (const domain of ['gmail.com', 'Outlook.com', 'yahoo.com', 'hotmail.com', 'proton.me']) {
      const refused = await call('POST', `${ssoOf(owner)}/domains`, owner.cookie, { domain });
      expect(errorOf(refused), domain).toEqual([422, 'sso_domain_public']);
      expect(refused.json().error.message).toContain(domain.toLowerCase());
      expect(refused.json().error.fields).toHaveProperty('domain');
    }
    expect((await call('GET', ssoOf(owner), owner.cookie)).json().domains).toEqual([]);
  });

  it('refuses what is not a domain', async () => {
    const owner = await signUp(t.app);
    for (const domain of ['not a domain', 'localhost', '-dash.test', 'a..b.test', 'under_score.test', 'x.123']) {
      const refused = await call('POST', `${ssoOf(owner)}/domains`, owner.cookie, { domain });
      expect(errorOf(refused), domain).toEqual([422, 'validation_failed']);
    }
  });

  it('verifies only when the record holds exactly this workspace’s value, and says what is missing', async () => {
    const owner = await signUp(t.app);
    const domain = 'txt-check.test';
    const record = await claim(owner, domain);
    expect(record.name).toBe(`_sundial-challenge.${domain}`);
    expect(record.value).toMatch(/^sundial-domain-verification=[A-Za-z0-9_-]{32,}$/);

    const missing = await verify(owner, domain);
    expect(errorOf(missing)).toEqual([422, 'sso_domain_not_proved']);
    expect(missing.json().error.message).toContain(record.name);
    expect(missing.json().error.message).toMatch(/DNS changes can take/);
    expect(dns.asked).toContain(record.name);

    const other = await signUp(t.app);
    const othersRecord = await claim(other, domain);
    expect(othersRecord.value).not.toBe(record.value);
    for (const wrong of [
      [{ name: record.name, value: othersRecord.value }], // another workspace's token
      [{ name: record.name, value: `${record.value}x` }],
      [{ name: record.name, value: `v=spf1 ${record.value}` }],
      [{ name: domain, value: record.value }], // at the domain itself, not the challenge name
      [{ name: `_sundial-challenge.other-${domain}`, value: record.value }],
    ]) {
      dns.txt.clear();
      for (const r of wrong) publish(r);
      expect(errorOf(await verify(owner, domain)), JSON.stringify(wrong)).toEqual([422, 'sso_domain_not_proved']);
    }
    expect(await verifiedRows(domain)).toEqual([]);

    // Right, beside other records at that name (a value split in 255-byte pieces is one value).
    dns.txt.clear();
    publish({ name: record.name, value: 'something-else' });
    publish(record);
    const verified = await verify(owner, domain);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().domains[0]).toMatchObject({ domain, verified: true });
    // Again: nothing changes, and one audit row says who proved it.
    expect((await verify(owner, domain)).statusCode).toBe(200);
    const audited = await auditTrail(t.db, { workspaceId: owner.workspaceId, action: 'sso.domain_verified' });
    expect(audited).toEqual([expect.objectContaining({ actor_user_id: owner.userId, detail: { domain } })]);
  });

  it('says the DNS lookup failed, not that the record is missing, when the server fails or is silent', async () => {
    const owner = await signUp(t.app);
    const domain = 'dns-trouble.test';
    const record = await claim(owner, domain);
    publish(record);
    dns.failing.add(record.name);
    try {
      const failed = await verify(owner, domain);
      expect(errorOf(failed)).toEqual([422, 'sso_domain_lookup_failed']);
      expect(failed.json().error.message).toContain(record.name);
    } finally {
      dns.failing.delete(record.name);
    }
    dns.silent.add(record.name);
    try {
      const started = Date.now();
      const silent = await verify(owner, domain);
      expect(errorOf(silent)).toEqual([422, 'sso_domain_lookup_failed']);
      // Bounded by DNS_TIMEOUT_MS, with some room for a slow machine.
      expect(Date.now() - started).toBeLessThan(DNS_TIMEOUT_MS + 1500);
    } finally {
      dns.silent.delete(record.name);
    }
    expect(await verifiedRows(domain)).toEqual([]);
    expect((await verify(owner, domain)).statusCode).toBe(200);
  });

  it('lets several workspaces claim a domain, and the first proof wins', async () => {
    const domain = 'contested.test';
    const [first, second, third] = [await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    publish(await claim(first, domain));
    publish(await claim(second, domain));
    expect((await verify(first, domain)).statusCode).toBe(200);
    expect(errorOf(await verify(second, domain))).toEqual([409, 'sso_domain_taken']);
    // A domain verified elsewhere cannot be listed again; the second's pending claim stays, unverified.
    expect(errorOf(await call('POST', `${ssoOf(third)}/domains`, third.cookie, { domain }))).toEqual([
      409,
      'sso_domain_taken',
    ]);
    expect((await call('GET', ssoOf(second), second.cookie)).json().domains).toEqual([
      expect.objectContaining({ domain, verified: false }),
    ]);
    // Once the first lets go, the second's proof counts.
    expect((await call('DELETE', `${ssoOf(first)}/domains/${domain}`, first.cookie)).statusCode).toBe(204);
    expect((await verify(second, domain)).statusCode).toBe(200);
    expect(await verifiedRows(domain)).toEqual([{ workspace_id: second.workspaceId }]);
  });

  it('lets one of two proofs at the same moment win, the database deciding', async () => {
    const domain = 'race.test';
    const owners = [await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    for (const owner of owners) publish(await claim(owner, domain));
    const answers = await Promise.all(owners.map((owner) => verify(owner, domain)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await verifiedRows(domain)).toHaveLength(1);
  });
});

/** The signed assertion with its e-mail changed after signing: the signature no longer holds. */
function tamper(base64: string): string {
  const xml = Buffer.from(base64, 'base64').toString('utf8');
  const changed = xml.replaceAll('sam@saml-corp.test', 'boss@saml-corp.test');
  expect(changed).not.toBe(xml);
  return Buffer.from(changed).toString('base64');
}
