import type { ApiKeyScopes, CreatedApiKeyView } from '@sundial/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  createTestApp,
  joinWorkspace,
  type SignedUp,
  signUp,
  type TestApp,
} from '../../../test/harness.js';
import { type Inbox, startInbox } from '../../../test/smtp.js';
import { API_KEY_EXAMPLES } from '../../platform/api-docs.js';

/**
 * Personal API keys (issue 34) against the real app and database: made in a signed-in browser,
 * used with `Authorization: Bearer`, held to their areas and to their owner's own access, refused
 * once revoked or expired, and their owners reminded by e-mail (real SMTP) before the expiry.
 */
let t: TestApp;
let inbox: Inbox;
let clock = new Date();
let ann: SignedUp;
let outsider: SignedUp;

beforeAll(async () => {
  inbox = await startInbox();
  t = await createTestApp({ SMTP_URL: inbox.url }, { now: () => clock });
  ann = await signUp(t.app);
  outsider = await signUp(t.app);
});
afterAll(async () => {
  await t?.close();
  await inbox?.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const asCookie = (cookie: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { cookie } });
const asKey = (token: string, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { authorization: `Bearer ${token}`, ...headers } });

async function makeKey(who: SignedUp, scopes: Partial<ApiKeyScopes>, extra: object = {}): Promise<CreatedApiKeyView> {
  const response = await asCookie(who.cookie, 'POST', '/me/api-keys', { name: 'Script', scopes, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('making and listing keys', () => {
  it('shows the token once, keeps its hash only, and lists the key by its first characters', async () => {
    const created = await makeKey(ann, { time: 'write', projects: 'read' });
    expect(created.token).toMatch(/^sdl_[\w-]{43}$/);
    expect(created.prefix).toBe(created.token.slice(0, 10));
    expect(created.scopes).toEqual({ time: 'write', projects: 'read', reports: 'none', team: 'none', billing: 'none' });
    // Twelve months unless chosen.
    const days = (Date.parse(created.expiresAt ?? '') - clock.getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(365);

    const listed = (await asCookie(ann.cookie, 'GET', '/me/api-keys')).json().items;
    const mine = listed.find((k: { id: string }) => k.id === created.id);
    expect(mine).toMatchObject({ name: 'Script', prefix: created.prefix, lastUsedAt: null, expired: false });
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const stored = await t.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(created.token.slice(4));
    expect((await auditTrail(t.db, { subjectId: created.id })).map((r) => r.action)).toEqual(['api_key.created']);

    // Nobody else sees it.
    const theirs = (await asCookie(outsider.cookie, 'GET', '/me/api-keys')).json().items;
    expect(theirs.map((k: { id: string }) => k.id)).not.toContain(created.id);
  });

  it('refuses a key without a name, without any area, or with an expiry past or beyond three years', async () => {
    const cases: [object, string, RegExp][] = [
      [{ name: '', scopes: { time: 'read' } }, 'name', /Name the key/],
      [{ name: 'Nothing', scopes: {} }, 'scopes', /at least one area/],
      [{ name: 'Odd', scopes: { time: 'admin' } }, 'scopes.time', /none, read or write/],
      [{ name: 'Past', scopes: { time: 'read' }, expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt', /future/],
      [
        {
          name: 'Far',
          scopes: { time: 'read' },
          expiresAt: new Date(clock.getTime() + 4 * 365 * 86_400_000).toISOString(),
        },
        'expiresAt',
        /three years/,
      ],
    ];
    for (const [body, field, message] of cases) {
      const response = await asCookie(ann.cookie, 'POST', '/me/api-keys', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().error.fields[field], response.body).toMatch(message);
    }
  });

  it('makes a key that never expires when asked for none', async () => {
    const created = await makeKey(ann, { reports: 'read' }, { expiresAt: null });
    expect(created.expiresAt).toBeNull();
  });
});

describe('calling the API with a key', () => {
  it('acts as its owner in their workspaces, across the API, with no CSRF check', async () => {
    const key = await makeKey(ann, { time: 'write', projects: 'write' });
    const me = await asKey(key.token, 'GET', '/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().user.id).toBe(ann.userId);

    const ws = `/workspaces/${ann.workspaceId}`;
    // Another site's Origin does not matter to a bearer call: no cookie rides along with it.
    const project = await asKey(
      key.token,
      'POST',
      `${ws}/projects`,
      { name: 'From a script' },
      {
        origin: 'https://elsewhere.example',
      },
    );
    expect(project.statusCode, project.body).toBe(201);
    const entry = await asKey(key.token, 'POST', `${ws}/time-entries`, {
      start: '2026-11-02T09:00:00Z',
      end: '2026-11-02T10:30:00Z',
      projectId: project.json().id,
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const listed = await asKey(
      key.token,
      'GET',
      `${ws}/time-entries?from=2026-11-02T00:00:00Z&to=2026-11-03T00:00:00Z`,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    // The entry the key made is the owner's, as the owner's session sees it.
    const seen = await asCookie(
      ann.cookie,
      'GET',
      `${ws}/time-entries?from=2026-11-02T00:00:00Z&to=2026-11-03T00:00:00Z`,
    );
    expect(JSON.stringify(seen.json())).toContain(entry.json().id);
    // Audited as the person (the key acts as them).
    const audited = await auditTrail(t.db, { subjectId: project.json().id, action: 'project.created' });
    expect(audited[0]?.actor_user_id).toBe(ann.userId);
  });

  it('reaches only the areas it was given: read is not write, and a missing area is a 403 saying so', async () => {
    const key = await makeKey(ann, { time: 'read' });
    const ws = `/workspaces/${ann.workspaceId}`;
    expect(
      (await asKey(key.token, 'GET', `${ws}/time-entries?from=2026-11-02T00:00:00Z&to=2026-11-03T00:00:00Z`))
        .statusCode,
    ).toBe(200);
    const write = await asKey(key.token, 'POST', `${ws}/time-entries`, {
      start: '2026-11-03T09:00:00Z',
      end: '2026-11-03T10:00:00Z',
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error).toEqual({
      code: 'key_scope',
      message: 'This API key has no write access to time: give a key that access in your profile.',
    });
    const projects = await asKey(key.token, 'GET', `${ws}/projects`);
    expect([projects.statusCode, projects.json().error.code]).toEqual([403, 'key_scope']);
    expect(projects.json().error.message).toMatch(/no read access to projects/);
    // Who am I, and which workspaces: any key.
    expect((await asKey(key.token, 'GET', '/workspaces')).statusCode).toBe(200);
  });

  it('never manages keys, passwords, sessions or two-factor authentication', async () => {
    const key = await makeKey(ann, {
      time: 'write',
      projects: 'write',
      reports: 'write',
      team: 'write',
      billing: 'write',
    });
    const refused: [Method, string, object?][] = [
      ['GET', '/me/api-keys'],
      ['POST', '/me/api-keys', { name: 'Another', scopes: { time: 'write' } }],
      ['POST', '/me/password', { currentPassword: 'x', newPassword: 'y' }],
      ['GET', '/me/sessions'],
      ['POST', '/me/two-factor/setup'],
      ['PATCH', '/me', { name: 'Renamed by a script' }],
      ['PUT', `/workspaces/${ann.workspaceId}/two-factor-policy`, { required: true }],
    ];
    for (const [method, url, body] of refused) {
      const response = await asKey(key.token, method, url, body);
      expect([response.statusCode, response.json().error.code], `${method} ${url}`).toEqual([403, 'key_scope']);
    }
  });

  it('never goes beyond its owner: a member’s team key cannot rename the workspace, and another workspace is a 404', async () => {
    const member = await joinWorkspace(t, ann.workspaceId, 'member');
    const key = await makeKey(member, { team: 'write', projects: 'write' });
    const rename = await asKey(key.token, 'PATCH', `/workspaces/${ann.workspaceId}`, { name: 'Taken over' });
    expect([rename.statusCode, rename.json().error.code]).toEqual([403, 'forbidden']);
    const other = await asKey(key.token, 'GET', `/workspaces/${outsider.workspaceId}/projects`);
    expect(other.statusCode).toBe(404);
  });

  it('stops at once when revoked, and at its expiry', async () => {
    const key = await makeKey(ann, { time: 'read' });
    expect((await asKey(key.token, 'GET', '/me')).statusCode).toBe(200);
    const revoked = await asCookie(ann.cookie, 'DELETE', `/me/api-keys/${key.id}`);
    expect(revoked.statusCode).toBe(204);
    const after = await asKey(key.token, 'GET', '/me');
    expect(after.statusCode).toBe(401);
    expect(after.headers['www-authenticate']).toBe('Bearer');
    expect(after.json().error.message).toBe('The bearer token is not valid: it is unknown, expired or revoked.');
    expect((await asCookie(ann.cookie, 'DELETE', `/me/api-keys/${key.id}`)).statusCode).toBe(404);
    // Someone else's key is not theirs to revoke.
    const annsKey = await makeKey(ann, { time: 'read' });
    expect((await asCookie(outsider.cookie, 'DELETE', `/me/api-keys/${annsKey.id}`)).statusCode).toBe(404);
    expect((await asKey(annsKey.token, 'GET', '/me')).statusCode).toBe(200);

    const soon = await makeKey(ann, { time: 'read' }, { expiresAt: new Date(clock.getTime() + 60_000).toISOString() });
    expect((await asKey(soon.token, 'GET', '/me')).statusCode).toBe(200);
    const before = clock;
    clock = new Date(clock.getTime() + 61_000);
    try {
      expect((await asKey(soon.token, 'GET', '/me')).statusCode).toBe(401);
      const listed = (await asCookie(ann.cookie, 'GET', '/me/api-keys')).json().items;
      expect(listed.find((k: { id: string }) => k.id === soon.id)?.expired).toBe(true);
    } finally {
      clock = before;
    }
    // A made-up token of the right shape is no key.
    expect((await asKey(`sdl_${'x'.repeat(43)}`, 'GET', '/me')).statusCode).toBe(401);
  });

  it('writes its last use at most once a minute', async () => {
    const key = await makeKey(ann, { time: 'read' });
    const lastUse = async () =>
      (await t.db.selectFrom('api_keys').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow())
        .last_used_at;
    await asKey(key.token, 'GET', '/me');
    const first = await lastUse();
    expect(first?.getTime()).toBe(clock.getTime());
    const before = clock;
    clock = new Date(clock.getTime() + 30_000);
    await asKey(key.token, 'GET', '/me');
    expect((await lastUse())?.getTime()).toBe(first?.getTime());
    clock = new Date(clock.getTime() + 31_000);
    await asKey(key.token, 'GET', '/me');
    expect((await lastUse())?.getTime()).toBe(clock.getTime());
    const listed = (await asCookie(ann.cookie, 'GET', '/me/api-keys')).json().items;
    expect(listed.find((k: { id: string }) => k.id === key.id)).toMatchObject({
      lastUsedAt: clock.toISOString(),
      lastUsedIp: '127.0.0.1',
    });
    clock = before;
  });
});

describe('the expiry reminder', () => {
  it('e-mails the owner once, 7 days before the key stops working', async () => {
    const bea = await signUp(t.app);
    const in5Days = new Date(clock.getTime() + 5 * 86_400_000);
    const key = await makeKey(bea, { time: 'read' }, { expiresAt: in5Days.toISOString() });
    await makeKey(bea, { time: 'read' }, { expiresAt: new Date(clock.getTime() + 30 * 86_400_000).toISOString() });
    expect(await t.app.services.apiKeys.remind(clock)).toBeGreaterThanOrEqual(1);
    const mail = await inbox.waitFor(bea.email, 10_000, /"Script" expires in 7 days/);
    expect(mail.text).toContain(`(${key.prefix}…)`);
    expect(mail.text).toContain('/homepage/profile#api-keys');
    const sent = await t.db.selectFrom('outbox').select('subject').where('to_address', '=', bea.email).execute();
    expect(sent.filter((m) => m.subject.includes('expires in 7 days'))).toHaveLength(1);
    // Once: the next run sends nothing more to them.
    await t.app.services.apiKeys.remind(clock);
    const again = await t.db.selectFrom('outbox').select('subject').where('to_address', '=', bea.email).execute();
    expect(again.filter((m) => m.subject.includes('expires in 7 days'))).toHaveLength(1);
  });
});

describe('limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({
      API_KEY_REQUESTS_PER_MINUTE: '6',
      API_KEY_REPORTS_PER_MINUTE: '2',
      API_WORKSPACE_KEY_REQUESTS_PER_MINUTE: '8',
    });
  });
  afterAll(() => limited?.close());

  const keyOf = async (who: SignedUp, scopes: Partial<ApiKeyScopes>) => {
    const response = await limited.app.inject({
      method: 'POST',
      url: '/api/v1/me/api-keys',
      payload: { name: 'Limited', scopes },
      headers: { cookie: who.cookie },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().token as string;
  };
  const get = (token: string, url: string) =>
    limited.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });

  /** Limits count in fixed minutes: a run that would straddle one waits for the next to start. */
  async function atMinuteStart(token: string) {
    const reset = Number((await get(token, '/me')).headers['ratelimit-reset']);
    if (reset < 15) await new Promise((resolve) => setTimeout(resolve, (reset + 1) * 1000));
  }

  it('tells every answer its limit, what is left and when it resets, and answers 429 with Retry-After past it', async () => {
    const owner = await signUp(limited.app);
    const token = await keyOf(owner, { time: 'read', reports: 'read' });
    await atMinuteStart(token);
    const first = await get(token, '/me');
    const used = 6 - Number(first.headers['ratelimit-remaining']);
    expect(first.headers['ratelimit-limit']).toBe('6');
    expect(first.headers['ratelimit-policy']).toBe('6;w=60');
    const reset = Number(first.headers['ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    for (let i = used; i < 6; i++) expect((await get(token, '/me')).statusCode).toBe(200);
    const refused = await get(token, '/me');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(refused.json().error.message).toMatch(/^Too many requests with this API key: try again in \d+ seconds?\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    // Another key of the same person has its own count.
    expect((await get(await keyOf(owner, { time: 'read' }), '/me')).statusCode).toBe(200);
  });

  it('slows reports and exports further, and shares a workspace’s budget among every key calling it', async () => {
    const owner = await signUp(limited.app);
    const ws = `/workspaces/${owner.workspaceId}`;
    const reporter = await keyOf(owner, { reports: 'read', time: 'read' });
    await atMinuteStart(reporter);
    const summary = `${ws}/reports/summary?preset=custom&from=2026-11-02&to=2026-11-08&timeZone=UTC&groupBy=project`;
    const firstReport = await get(reporter, summary);
    expect(firstReport.statusCode, firstReport.body).toBe(200);
    expect(firstReport.headers['ratelimit-limit']).toBe('2');
    expect((await get(reporter, summary)).statusCode).toBe(200);
    expect((await get(reporter, summary)).statusCode).toBe(429);
    // Time entries are not reports: the key's general budget still has room.
    expect((await get(reporter, `${ws}/time-entries`)).statusCode).toBe(200);

    // The workspace has had 4 key calls; 8 a minute across keys.
    const member = await joinWorkspace(limited, owner.workspaceId, 'member');
    const memberKey = await keyOf(member, { time: 'read' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get(memberKey, `${ws}/time-entries`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    // Their calls outside the workspace count only against the key (the 6th of its minute).
    expect((await get(memberKey, '/me')).statusCode).toBe(200);
  });

  it('counts nothing against a workspace its key’s person does not belong to', async () => {
    const owner = await signUp(limited.app);
    const stranger = await keyOf(await signUp(limited.app), { time: 'read' });
    await atMinuteStart(stranger);
    for (let i = 0; i < 5; i++) {
      expect((await get(stranger, `/workspaces/${owner.workspaceId}/time-entries`)).statusCode).toBe(404);
    }
    const ownerKey = await keyOf(owner, { time: 'read' });
    const answer = await get(ownerKey, `/workspaces/${owner.workspaceId}/time-entries`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['ratelimit-remaining']).toBe('5');
  });
});

describe('the API documentation', () => {
  it('names the ways in, publishes the limits, and its curl example of each area works as written', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    // The desktop agent's device token (issue 35) opens its own routes only (computer-time.int.test.ts).
    expect(Object.keys(document.components.securitySchemes)).toEqual(['apiKey', 'deviceToken', 'session']);
    expect(document.info.description).toContain('| Each key | 600 |');
    expect(document.info.description).toContain('RateLimit-Remaining');

    const owner = await signUp(t.app);
    const all = { time: 'write', projects: 'write', reports: 'write', team: 'write', billing: 'write' } as const;
    const key = await makeKey(owner, all);
    for (const [area, example] of Object.entries(API_KEY_EXAMPLES)) {
      const line = example.replace(/\\\n\s*/g, ' ');
      const method = /-X (\w+)/.exec(line)?.[1] ?? 'GET';
      const body = /-d '([^']+)'/.exec(line)?.[1];
      const url = /"?\$SUNDIAL(\/api\/v1\/[^\s"]+)"?/.exec(line)?.[1]?.replace('$WORKSPACE', owner.workspaceId) ?? '';
      const response = await t.app.inject({
        method: method as Method,
        url,
        headers: { authorization: `Bearer ${key.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { payload: body } : {}),
      });
      expect(response.statusCode, `${area}: ${method} ${url} ${response.body}`).toBeLessThan(300);
    }
  });
});

describe('workspace keys', () => {
  const base = (who: SignedUp) => `/workspaces/${who.workspaceId}`;
  async function makeWorkspaceKey(who: SignedUp, maker: SignedUp, body: object) {
    const response = await asCookie(maker.cookie, 'POST', `${base(who)}/api-keys`, { name: 'Payroll sync', ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  it('reach their workspace only, with their role at most, and every owner and admin sees and revokes them', async () => {
    const owner = await signUp(t.app);
    const admin = await joinWorkspace(t, owner.workspaceId, 'admin');
    const otherAdmin = await joinWorkspace(t, owner.workspaceId, 'admin');
    const created = await makeWorkspaceKey(owner, admin, {
      actsAs: 'member',
      scopes: { projects: 'write', team: 'read' },
    });
    expect(created).toMatchObject({ actsAs: 'member', createdBy: { id: admin.userId, email: admin.email } });

    // It acts as a member: reads projects, but may not make one nor read the audit log, as the admin could.
    expect((await asKey(created.token, 'GET', `${base(owner)}/projects`)).statusCode).toBe(200);
    const make = await asKey(created.token, 'POST', `${base(owner)}/projects`, { name: 'Not for members' });
    expect(make.statusCode, make.body).toBe(403);
    expect((await asCookie(admin.cookie, 'GET', `${base(owner)}/audit-log`)).statusCode).toBe(200);
    expect((await asKey(created.token, 'GET', `${base(owner)}/audit-log`)).statusCode).toBe(403);
    // Its maker's other workspace and personal routes are out of its reach.
    const elsewhere = await asKey(created.token, 'GET', `${base(admin)}/projects`);
    expect([elsewhere.statusCode, elsewhere.json().error.code]).toEqual([403, 'key_scope']);
    expect((await asKey(created.token, 'GET', '/me/api-keys')).statusCode).toBe(403);

    // Listed for the workspace, not among its maker's own keys; a manager may not see them.
    const listed = (await asCookie(otherAdmin.cookie, 'GET', `${base(owner)}/api-keys`)).json().items;
    expect(listed.map((k: { id: string }) => k.id)).toEqual([created.id]);
    expect((await asCookie(admin.cookie, 'GET', '/me/api-keys')).json().items).toEqual([]);
    const manager = await joinWorkspace(t, owner.workspaceId, 'manager');
    expect((await asCookie(manager.cookie, 'GET', `${base(owner)}/api-keys`)).statusCode).toBe(403);
    const tooHigh = await asCookie(owner.cookie, 'POST', `${base(owner)}/api-keys`, {
      name: 'Root',
      actsAs: 'owner',
      scopes: { team: 'write' },
    });
    expect(tooHigh.statusCode).toBe(422);

    // Another admin revokes it: it stops at once.
    const revoked = await asCookie(otherAdmin.cookie, 'DELETE', `${base(owner)}/api-keys/${created.id}`);
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await asKey(created.token, 'GET', `${base(owner)}/projects`)).statusCode).toBe(401);
    const trail = await auditTrail(t.db, { subjectId: created.id });
    expect(trail.map((r) => r.action)).toEqual(['api_key.created', 'api_key.revoked']);
  });

  it('act as an admin for an integration, and stop when their maker leaves the workspace', async () => {
    const owner = await signUp(t.app);
    const admin = await joinWorkspace(t, owner.workspaceId, 'admin');
    const created = await makeWorkspaceKey(owner, admin, { actsAs: 'admin', scopes: { projects: 'write' } });
    const made = await asKey(created.token, 'POST', `${base(owner)}/projects`, { name: 'From the sync' });
    expect(made.statusCode, made.body).toBe(201);
    // The audit log names the key beside its maker.
    const log = (await asCookie(owner.cookie, 'GET', `${base(owner)}/audit-log?action=project.created`)).json().items;
    expect(log[0]).toMatchObject({ actor: { id: admin.userId }, apiKey: { id: created.id, name: 'Payroll sync' } });

    const removed = await asCookie(owner.cookie, 'DELETE', `${base(owner)}/members/${admin.userId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await asKey(created.token, 'GET', `${base(owner)}/projects`)).statusCode).toBe(404);
  });
});
