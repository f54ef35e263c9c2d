import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  createTestApp,
  openTestDb,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  uniqueEmail,
  useTestApp,
} from '../test/harness.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { membersRepository } from './modules/members/members.repository.js';
import { newId } from './platform/ids.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

/** Routes anybody may call without a session; every other API route must answer 401 to nobody. */
const PUBLIC_ROUTES = new Set([
  'POST /api/v1/auth/signup',
  'POST /api/v1/auth/login',
  // The sign-in's second step: its single-use challenge (from a right password) instead of a session.
  'POST /api/v1/auth/login/two-factor',
  'POST /api/v1/auth/logout',
  'POST /api/v1/auth/password/forgot',
  'GET /api/v1/auth/password/reset/{token}',
  'POST /api/v1/auth/password/reset',
  // The mailed confirmation link of an address: its single-use token proves it (decision 0014).
  'POST /api/v1/auth/email/verify',
  // Single sign-on (modules/sso): reached before there is a session; a provider's callback proves who it is.
  'GET /api/v1/auth/oidc/providers',
  'GET /api/v1/auth/oidc/{providerId}/start',
  'GET /api/v1/auth/oidc/{providerId}/callback',
  'GET /api/v1/auth/sso/link',
  'POST /api/v1/auth/sso/link',
  'POST /api/v1/auth/sso/start',
  'GET /api/v1/auth/sso/oidc/callback',
  'GET /api/v1/auth/sso/saml/{workspaceId}/metadata',
  'POST /api/v1/auth/sso/saml/{workspaceId}/acs',
  'POST /api/v1/demo-requests',
  // The desktop agent is downloaded before it pairs (modules/agent-downloads).
  'GET /api/v1/agent/release',
  'GET /api/v1/agent/download',
  'GET /api/v1/invites/{token}',
  'POST /api/v1/invites/{token}/accept',
  // A public report link: its secret (X-Share-Secret) instead of a session; see saved-reports.int.test.ts.
  'GET /api/v1/shared-reports/{linkId}',
  // A report's CSV for Google Sheets: the token in the path, redacted from logs; see csv-links.int.test.ts.
  'GET /api/v1/public/reports/csv/{file}',
  // A person's calendar feed for calendar apps: the token in the path, redacted from logs; see calendars.feed.int.test.ts.
  'GET /api/v1/calendar-feeds/{file}',
  // The desktop agent's pairing (issue 35): it has no session yet; its device code proves the poll; see computer-time.int.test.ts.
  'POST /api/v1/agent/device-codes',
  'POST /api/v1/agent/device-token',
  // Payments (platform/payments): the gateway's webhook, authenticated by its signature, and the
  // sandbox gateway's card tokenisation and second-step page, which stand in for a processor's.
  'POST /api/v1/payments/events',
  'POST /api/v1/payments/sandbox/tokens',
  'GET /api/v1/payments/sandbox/actions/{actionId}',
  'POST /api/v1/payments/sandbox/actions/{actionId}',
]);

describe('authentication of every route', () => {
  it('answers 401 to a caller without a session on every route that is not explicitly public', async () => {
    const spec = (await ctx.t.app.inject('/api/docs/json')).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const checked: string[] = [];
    for (const [path, operations] of Object.entries(spec.paths)) {
      // SCIM (/scim/v2) answers 401 to a request without its workspace's bearer token.
      if (!path.startsWith('/api/v1/') && !path.startsWith('/scim/v2/')) continue;
      for (const method of Object.keys(operations)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (PUBLIC_ROUTES.has(key)) continue;
        const url = path.replace(/\{[^}]+\}/g, () => newId());
        const response = await ctx.t.app.inject({ method: method.toUpperCase() as 'GET', url });
        expect({ key, status: response.statusCode }).toEqual({ key, status: 401 });
        checked.push(key);
      }
    }
    // The sweep really ran over the workspace routes, not over nothing.
    expect(checked.length).toBeGreaterThan(20);
    expect(checked).toContain('GET /api/v1/workspaces/{workspaceId}/members');
    expect(checked).toContain('PATCH /scim/v2/Users/{id}');
  });

  it('answers 404 to a signed-in user for a workspace they are not a member of, whatever the object id', async () => {
    const alice = await signUp(ctx.t.app);
    const bob = await signUp(ctx.t.app);
    for (const url of [
      `/api/v1/workspaces/${bob.workspaceId}`,
      `/api/v1/workspaces/${bob.workspaceId}/members`,
      `/api/v1/workspaces/${bob.workspaceId}/members/${bob.userId}`,
      `/api/v1/workspaces/${bob.workspaceId}/invites`,
      `/api/v1/workspaces/${bob.workspaceId}/groups`,
    ]) {
      expect({ url, status: (await call('GET', url, alice.cookie)).statusCode }).toEqual({ url, status: 404 });
    }
  });

  it('does not reach an object of another workspace through the path of its own workspace (IDOR)', async () => {
    const alice = await signUp(ctx.t.app);
    const bob = await signUp(ctx.t.app);
    const bobsGroup = (
      await call('POST', `/api/v1/workspaces/${bob.workspaceId}/groups`, bob.cookie, { name: 'Bob team' })
    ).json();
    const bobsInvite = (
      await call('POST', `/api/v1/workspaces/${bob.workspaceId}/invites`, bob.cookie, { emails: [uniqueEmail()] })
    ).json().items[0];
    const own = `/api/v1/workspaces/${alice.workspaceId}`;
    expect((await call('GET', `${own}/members/${bob.userId}`, alice.cookie)).statusCode).toBe(404);
    expect((await call('PATCH', `${own}/members/${bob.userId}`, alice.cookie, { role: 'guest' })).statusCode).toBe(404);
    expect((await call('DELETE', `${own}/members/${bob.userId}`, alice.cookie)).statusCode).toBe(404);
    expect((await call('POST', `${own}/owner`, alice.cookie, { userId: bob.userId })).statusCode).toBe(404);
    expect((await call('PATCH', `${own}/groups/${bobsGroup.id}`, alice.cookie, { name: 'Mine' })).statusCode).toBe(404);
    expect((await call('DELETE', `${own}/groups/${bobsGroup.id}`, alice.cookie)).statusCode).toBe(404);
    expect((await call('POST', `${own}/invites/${bobsInvite.id}/resend`, alice.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `${own}/invites/${bobsInvite.id}`, alice.cookie)).statusCode).toBe(404);
    expect(
      (await call('POST', `${own}/invites`, alice.cookie, { emails: [uniqueEmail()], groupId: bobsGroup.id }))
        .statusCode,
    ).toBe(404);
    // Bob's things are untouched.
    const bobs = (await call('GET', `/api/v1/workspaces/${bob.workspaceId}/groups`, bob.cookie)).json();
    expect(bobs.items.map((g: { name: string }) => g.name)).toEqual(['Bob team']);
    const invites = (await call('GET', `/api/v1/workspaces/${bob.workspaceId}/invites`, bob.cookie)).json();
    expect(invites.items.map((i: { id: string }) => i.id)).toEqual([bobsInvite.id]);
  });
});

describe('ownership', () => {
  it('leaves exactly one owner when the owner sends two transfers at the same moment', async () => {
    const owner = await signUp(ctx.t.app);
    const a = await signUp(ctx.t.app);
    const b = await signUp(ctx.t.app);
    for (const m of [a, b]) {
      await membersRepository.add(ctx.t.db, {
        workspaceId: owner.workspaceId,
        userId: m.userId,
        role: 'member',
      });
    }
    const url = `/api/v1/workspaces/${owner.workspaceId}/owner`;
    const answers = await Promise.all([
      call('POST', url, owner.cookie, { userId: a.userId }),
      call('POST', url, owner.cookie, { userId: b.userId }),
    ]);
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 403]);
    const owners = await ctx.t.db
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', owner.workspaceId)
      .where('role', '=', 'owner')
      .execute();
    expect(owners).toHaveLength(1);
  });
});

describe("a manager's reach", () => {
  it('covers the regular users and guests of their groups, not an admin an admin put in the same group', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const join = async (role: 'admin' | 'manager' | 'member') => {
      const user = await signUp(ctx.t.app);
      await membersRepository.add(ctx.t.db, { workspaceId: owner.workspaceId, userId: user.userId, role });
      return user;
    };
    const manager = await join('manager');
    const admin = await join('admin');
    const member = await join('member');
    const group = (await call('POST', `${ws}/groups`, owner.cookie, { name: 'Ops' })).json();
    for (const user of [manager, admin, member, owner]) {
      expect((await call('PUT', `${ws}/groups/${group.id}/members/${user.userId}`, owner.cookie)).statusCode).toBe(200);
    }
    expect((await call('GET', `${ws}/time-entries?userId=${member.userId}`, manager.cookie)).statusCode).toBe(200);
    for (const peer of [admin, owner]) {
      expect((await call('GET', `${ws}/time-entries?userId=${peer.userId}`, manager.cookie)).statusCode).toBe(403);
    }
  });
});

describe('seats', () => {
  it('gives the last license to one of two invitations sent at the same moment', async () => {
    const owner = await signUp(ctx.t.app);
    await ctx.t.db
      .updateTable('workspaces')
      .set({ plan: 'basic', licenses: 2 })
      .where('id', '=', owner.workspaceId)
      .execute();
    const url = `/api/v1/workspaces/${owner.workspaceId}/invites`;
    const answers = await Promise.all([
      call('POST', url, owner.cookie, { emails: [uniqueEmail('race-a')] }),
      call('POST', url, owner.cookie, { emails: [uniqueEmail('race-b')] }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 402]);
    const pending = (await call('GET', url, owner.cookie)).json().items;
    expect(pending).toHaveLength(1);
  });
});

describe('log-in', () => {
  it('does not let parallel guesses slip past the failure limit', async () => {
    const victim = await signUp(ctx.t.app);
    const guesses = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        ctx.t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          payload: { email: victim.email, password: `Wrong-guess-${i}!` },
        }),
      ),
    );
    let tried = guesses.filter((r) => r.statusCode === 401).length;
    const refused = guesses.filter((r) => r.statusCode === 429).length;
    expect(tried + refused).toBe(16);
    expect(refused).toBeGreaterThan(0);
    // Guessing on one at a time until refused: the passwords checked in all stay within the limit.
    for (let i = 0; i < 12; i++) {
      const next = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: victim.email, password: `Wrong-again-${i}!` },
      });
      if (next.statusCode === 429) break;
      expect(next.statusCode).toBe(401);
      tried++;
    }
    expect(tried).toBeLessThanOrEqual(10);
    // And the right password is refused too while the account is locked.
    const right = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: victim.email, password: STRONG_PASSWORD },
    });
    expect(right.statusCode).toBe(429);
  });

  it('still counts a successful log-in as a success, not as a failure', async () => {
    const user = await signUp(ctx.t.app);
    for (let i = 0; i < 12; i++) {
      const ok = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: user.email, password: STRONG_PASSWORD },
      });
      expect(ok.statusCode).toBe(200);
    }
  });

  it('ends the session the browser already had when someone signs in on it', async () => {
    const first = await signUp(ctx.t.app);
    const second = await signUp(ctx.t.app);
    const login = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { cookie: first.cookie },
      payload: { email: second.email, password: STRONG_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect(sessionCookie(login)).not.toBe(first.cookie);
    // The cookie the browser held before is no longer a way in.
    expect((await call('GET', '/api/v1/me', first.cookie)).statusCode).toBe(401);
  });
});

describe('browser protections', () => {
  it('sends headers against sniffing, framing and leaking reset links through the Referer', async () => {
    for (const url of ['/api/v1/me', '/healthz']) {
      const response = await ctx.t.app.inject(url);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('same-origin');
    }
  });

  it('refuses a PATCH or DELETE sent from another site too', async () => {
    const user = await signUp(ctx.t.app);
    const response = await ctx.t.app.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${user.workspaceId}`,
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
      payload: { name: 'Pwned' },
    });
    expect(response.statusCode).toBe(403);
    const ws = (await call('GET', `/api/v1/workspaces/${user.workspaceId}`, user.cookie)).json();
    expect(ws.name).not.toBe('Pwned');
  });
});

describe('/dev/mail', () => {
  it('answers only a client on this machine, never one from the network or through a proxy', async () => {
    await call('POST', '/api/v1/auth/password/forgot', undefined, { email: (await signUp(ctx.t.app)).email });
    const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
      ctx.t.app.inject({ url: '/dev/mail', remoteAddress, headers });
    expect((await from('127.0.0.1')).statusCode).toBe(200);
    expect((await from('::1')).statusCode).toBe(200);
    for (const outsider of ['192.168.1.20', '10.0.0.7', '::ffff:192.168.1.20', 'fe80::1']) {
      const response = await from(outsider);
      expect(response.statusCode, outsider).toBe(404);
      expect(response.body).not.toContain('password?token=');
    }
    // A reverse proxy on this machine connects over loopback for anyone.
    expect((await from('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(404);
    expect((await from('127.0.0.1', { forwarded: 'for=203.0.113.9' })).statusCode).toBe(404);
  });

  it('answers only the local host names, so a DNS-rebound page in the developer’s browser cannot read it', async () => {
    await call('POST', '/api/v1/auth/password/forgot', undefined, { email: (await signUp(ctx.t.app)).email });
    const as = (host: string) => ctx.t.app.inject({ url: '/dev/mail', remoteAddress: '127.0.0.1', headers: { host } });
    for (const host of ['localhost:3000', 'localhost', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:3000'])
      expect((await as(host)).statusCode, host).toBe(200);
    // A rebinding attacker's name points at 127.0.0.1, but the browser still sends it as Host.
    for (const host of [
      'rebind.attacker.example',
      'rebind.attacker.example:3000',
      'localhost.attacker.example',
      '127.0.0.2:3000',
    ]) {
      const response = await as(host);
      expect(response.statusCode, host).toBe(404);
      expect(response.body).not.toContain('password?token=');
    }
  });

  it("refuses a real connection to the machine's network address while a loopback one is served", async () => {
    const address = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    const app = await createTestApp({ NODE_ENV: 'development' });
    try {
      await app.app.listen({ host: '0.0.0.0', port: 0 });
      const { port } = app.app.server.address() as AddressInfo;
      expect((await fetch(`http://127.0.0.1:${port}/dev/mail`)).status).toBe(200);
      // Every machine we run on has a network interface; without one there is nothing to reach from outside.
      if (address) expect((await fetch(`http://${address}:${port}/dev/mail`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('is not served by a server with a public address, even when NODE_ENV was left at development', async () => {
    const app = await createTestApp({ NODE_ENV: 'development', PUBLIC_URL: 'https://sundial.example.com' });
    try {
      await app.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password/forgot',
        payload: { email: uniqueEmail() },
      });
      expect((await app.app.inject('/dev/mail')).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('the request log', () => {
  it('never holds a reset, invitation, report CSV link or calendar feed token, nor an identity provider’s code and state, from a URL', async () => {
    const { db, close } = await openTestDb({ migrated: true });
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (chunk) => {
      log += String(chunk);
    });
    // Requests are logged at debug (info keeps to what an owner reads).
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'debug',
      PUBLIC_URL: 'http://localhost:3000',
      WEB_DIST: '/nonexistent',
    });
    const app = await buildApp({ config, db, logStream: stream });
    try {
      await app.ready();
      const secrets = [
        'ResetSecretToken111',
        'InviteSecretToken222',
        'PageSecretToken333',
        'AcceptSecretToken444',
        'CsvLinkSecretToken555',
        'OidcCodeSecret666',
        'OidcStateSecret777',
        'CalendarFeedSecret888',
      ];
      await app.inject(`/api/v1/auth/password/reset/${secrets[0]}`);
      await app.inject(`/api/v1/invites/${secrets[1]}`);
      await app.inject(`/password?token=${secrets[2]}`);
      await app.inject({ method: 'POST', url: `/api/v1/invites/${secrets[3]}/accept`, payload: {} });
      await app.inject(`/api/v1/public/reports/csv/${secrets[4]}.csv`);
      await app.inject(`/api/v1/auth/sso/oidc/callback?iss=x&code=${secrets[5]}&state=${secrets[6]}`);
      await app.inject(`/api/v1/calendar-feeds/sdc_${secrets[7]}.ics`);
      expect(log).toContain('incoming request');
      expect(log).toContain('/api/v1/invites/[redacted]');
      expect(log).toContain('/password?token=[redacted]');
      expect(log).toContain('/api/v1/public/reports/csv/[redacted]');
      expect(log).toContain('/api/v1/calendar-feeds/[redacted]');
      expect(log).toContain('/api/v1/auth/sso/oidc/callback?iss=x&code=[redacted]&state=[redacted]');
      for (const secret of secrets) expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await close();
    }
  });
});
