import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  joinWorkspace,
  type SignedUp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  uniqueEmail,
  useTestApp,
} from '../../../test/harness.js';

/**
 * SCIM 2.0 as Okta and Microsoft Entra call it: the request sequences each sends (written down
 * from their provisioning guides), against the real app and database, with the workspace's token.
 */
const ctx = useTestApp();
let owner: SignedUp;
let token: string;
const SCIM = 'application/scim+json';

async function scim(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: object, bearer = token) {
  return ctx.t.app.inject({
    method,
    url: `/scim/v2${url}`,
    headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': SCIM } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  });
}
const expectStatus = (response: LightMyRequestResponse, status: number) => {
  expect(response.statusCode, response.body).toBe(status);
  if (status !== 204) expect(response.headers['content-type']).toContain(SCIM);
  return status === 204 ? undefined : response.json();
};
const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const login = (email: string) =>
  ctx.t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password: STRONG_PASSWORD } });

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  const made = await ctx.call('POST', `/api/v1/workspaces/${owner.workspaceId}/scim-token`, owner.cookie);
  expect(made.statusCode, made.body).toBe(201);
  token = made.json().token;
});

describe('SCIM token', () => {
  it('is shown once, stored only as its sha-256, and replaced or revoked by owners and admins', async () => {
    const ws = `/api/v1/workspaces/${owner.workspaceId}/scim-token`;
    const status = await ctx.call('GET', ws, owner.cookie);
    expect(status.json()).toMatchObject({ active: true, lastUsedAt: null });
    expect(status.json().baseUrl).toMatch(/\/scim\/v2$/);
    expect(status.body).not.toContain(token);
    const stored = await ctx.t.db
      .selectFrom('scim_tokens')
      .selectAll()
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
    expect(JSON.stringify(stored)).not.toContain(token);
    const { createHash } = await import('node:crypto');
    expect(stored[0]?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const member = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
    expect((await ctx.call('POST', ws, member.cookie)).statusCode).toBe(403);
    expect((await ctx.call('GET', ws, member.cookie)).statusCode).toBe(403);
  });

  it('refuses no token, an unknown one, a revoked one, and a workspace without SSO on its plan', async () => {
    expect((await ctx.t.app.inject({ method: 'GET', url: '/scim/v2/Users' })).statusCode).toBe(401);
    const unknown = await scim('GET', '/Users', undefined, 'sdscim_nope');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
    // A session cookie is no way in.
    expect(
      (await ctx.t.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: { cookie: owner.cookie } })).statusCode,
    ).toBe(401);

    const other = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${other.workspaceId}/scim-token`;
    const first = (await ctx.call('POST', ws, other.cookie)).json().token;
    const second = (await ctx.call('POST', ws, other.cookie)).json().token;
    expect((await scim('GET', '/Users', undefined, first)).statusCode).toBe(401);
    expect((await scim('GET', '/Users', undefined, second)).statusCode).toBe(200);
    await ctx.t.db
      .updateTable('workspaces')
      .set({ plan: 'basic', trial_ends_at: new Date(Date.now() - 86_400_000) })
      .where('id', '=', other.workspaceId)
      .execute();
    expect((await scim('GET', '/Users', undefined, second)).statusCode).toBe(403);
    expect((await ctx.call('POST', ws, other.cookie)).statusCode).toBe(403);
    expect((await ctx.call('DELETE', ws, other.cookie)).statusCode).toBe(204);
    expect((await scim('GET', '/Users', undefined, second)).statusCode).toBe(401);
  });
});

describe('discovery', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    expect(expectStatus(await scim('GET', '/ServiceProviderConfig'), 200).patch).toEqual({ supported: true });
    expect(expectStatus(await scim('GET', '/ResourceTypes'), 200).Resources.map((r: { id: string }) => r.id)).toEqual([
      'User',
      'Group',
    ]);
    expect(expectStatus(await scim('GET', '/Schemas'), 200).totalResults).toBe(2);
  });
});

describe('Okta', () => {
  it('creates a user (look up, create, deactivate), and the deactivated member loses this workspace, not their session', async () => {
    const email = uniqueEmail('okta');
    const lookup = expectStatus(await scim('GET', `/Users?${q(`userName eq "${email}"`)}&startIndex=1&count=100`), 200);
    expect(lookup).toMatchObject({ totalResults: 0, startIndex: 1, Resources: [] });
    const created = expectStatus(
      await scim('POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: email,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ primary: true, value: email, type: 'work' }],
        displayName: 'Ada Lovelace',
        locale: 'en-US',
        externalId: '00u1okta',
        groups: [],
        password: 'ignored-by-sundial',
        active: true,
      }),
      201,
    );
    expect(created).toMatchObject({
      userName: email,
      externalId: '00u1okta',
      active: true,
      name: { givenName: 'Ada' },
    });
    expect(
      expectStatus(await scim('GET', `/Users?${q(`userName eq "${email}"`)}&startIndex=1&count=100`), 200).totalResults,
    ).toBe(1);
    // Okta's retry of the same create is a uniqueness error.
    const again = await scim('POST', '/Users', { userName: email, active: true });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: '409', scimType: 'uniqueness' });

    // The member signs in (they set a password) and then is deactivated.
    const hash = await import('../../platform/passwords.js').then((m) => m.hashPassword(STRONG_PASSWORD));
    await ctx.t.db.updateTable('users').set({ password_hash: hash }).where('id', '=', created.id).execute();
    const signedIn = await login(email);
    expect(signedIn.statusCode).toBe(200);
    const cookie = sessionCookie(signedIn);
    const projects = () => ctx.call('GET', `/api/v1/workspaces/${owner.workspaceId}/projects`, cookie);
    expect((await projects()).statusCode).toBe(200);
    const off = expectStatus(
      await scim('PATCH', `/Users/${created.id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
      200,
    );
    expect(off.active).toBe(false);
    // The workspace is closed to the person at once; their session (and any other workspace) is theirs.
    expect((await projects()).statusCode).toBe(404);
    expect((await ctx.call('GET', '/api/v1/me', cookie)).statusCode).toBe(200);
    const membership = await ctx.t.db
      .selectFrom('memberships')
      .select('status')
      .where('user_id', '=', created.id)
      .where('workspace_id', '=', owner.workspaceId)
      .executeTakeFirstOrThrow();
    expect(membership.status).toBe('disabled');
    // Reactivation and deletion.
    expect(expectStatus(await scim('PUT', `/Users/${created.id}`, { ...created, active: true }), 200).active).toBe(
      true,
    );
    expectStatus(await scim('DELETE', `/Users/${created.id}`), 204);
    expect((await scim('GET', `/Users/${created.id}`)).statusCode).toBe(404);
    const actions = await auditTrail(ctx.t.db, { subjectId: created.id, action: 'scim.%' });
    expect(actions.map((a) => a.action)).toEqual([
      'scim.user_created',
      'scim.user_deactivated',
      'scim.user_updated',
      'scim.user_deleted',
    ]);
  });

  it('pushes a group: creates it, replaces its members, then finds it by displayName', async () => {
    const [ada, bob, cy] = await Promise.all(
      ['ada', 'bob', 'cy'].map(async (who) => {
        const email = uniqueEmail(`okta-push-${who}`);
        return expectStatus(await scim('POST', '/Users', { userName: email, active: true }), 201);
      }),
    );
    const displayName = `Okta push ${Date.now()}`;
    // Okta looks the group up by name before it pushes it.
    expect(
      expectStatus(await scim('GET', `/Groups?${q(`displayName eq "${displayName}"`)}&startIndex=1&count=100`), 200),
    ).toMatchObject({ totalResults: 0, Resources: [] });
    const group = expectStatus(
      await scim('POST', '/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName,
        members: [{ value: ada.id, display: ada.userName }],
      }),
      201,
    );
    expect(group).toMatchObject({ displayName, members: [{ value: ada.id }] });
    // Okta's "push now": the whole member list as one replace.
    const replaced = expectStatus(
      await scim('PATCH', `/Groups/${group.id}`, {
        schemas: [PATCH],
        Operations: [
          {
            op: 'replace',
            path: 'members',
            value: [
              { value: bob.id, display: bob.userName },
              { value: cy.id, display: cy.userName },
            ],
          },
        ],
      }),
      200,
    );
    const ids = (members: { value: string }[]) => new Set(members.map((m) => m.value));
    expect(ids(replaced.members)).toEqual(new Set([bob.id, cy.id]));
    const found = expectStatus(
      await scim('GET', `/Groups?${q(`displayName eq "${displayName}"`)}&startIndex=1&count=100`),
      200,
    );
    expect(found).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(found.Resources[0]).toMatchObject({ id: group.id, displayName });
    expect(ids(found.Resources[0].members)).toEqual(new Set([bob.id, cy.id]));
    const sundial = await ctx.call('GET', `/api/v1/workspaces/${owner.workspaceId}/groups`, owner.cookie);
    const pushed = sundial.json().items.find((g: { id: string }) => g.id === group.id);
    expect(new Set(pushed.memberIds)).toEqual(new Set([bob.id, cy.id]));
  });
});

describe('Microsoft Entra', () => {
  it('looks up by userName or externalId, creates, patches with "Replace" and email paths, and keeps groups', async () => {
    const email = uniqueEmail('entra');
    const externalId = `entra-${Date.now()}`;
    expect(expectStatus(await scim('GET', `/Users?${q(`userName eq "${email}"`)}`), 200).totalResults).toBe(0);
    expect(expectStatus(await scim('GET', `/Users?${q(`externalId eq "${externalId}"`)}`), 200).totalResults).toBe(0);
    const created = expectStatus(
      await scim('POST', '/Users', {
        schemas: [
          'urn:ietf:params:scim:schemas:core:2.0:User',
          'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
        ],
        externalId,
        userName: email,
        active: true,
        displayName: 'Grace Hopper',
        emails: [{ primary: true, type: 'work', value: email }],
        name: { formatted: 'Grace Hopper', familyName: 'Hopper', givenName: 'Grace' },
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Navy' },
      }),
      201,
    );
    expect(expectStatus(await scim('GET', `/Users?${q(`externalId eq "${externalId}"`)}`), 200).Resources[0].id).toBe(
      created.id,
    );
    expect(
      expectStatus(
        await scim('GET', `/Users?${q(`userName eq "nobody@example.com" or externalId eq "${externalId}"`)}`),
        200,
      ).totalResults,
    ).toBe(1);
    const renamed = uniqueEmail('grace');
    const patched = expectStatus(
      await scim('PATCH', `/Users/${created.id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'emails[type eq "work"].value', value: renamed },
          { op: 'Replace', path: 'name.familyName', value: 'Murray Hopper' },
          { op: 'Add', path: 'title', value: 'Rear admiral' },
        ],
      }),
      200,
    );
    expect(patched).toMatchObject({ userName: renamed, name: { familyName: 'Murray Hopper' } });
    expect(
      expectStatus(
        await scim('PATCH', `/Users/${created.id}`, {
          schemas: [PATCH],
          Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
        }),
        200,
      ).active,
    ).toBe(false);
    expect((await scim('GET', `/Users?${q('title eq "x"')}`)).json()).toMatchObject({ scimType: 'invalidFilter' });

    // Groups: created, members added and removed as Entra sends them; they are Sundial groups.
    const member = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
    const group = expectStatus(
      await scim('POST', '/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Engineering',
        members: [],
      }),
      201,
    );
    expect((await scim('POST', '/Groups', { displayName: 'engineering' })).statusCode).toBe(409);
    expectStatus(
      await scim('PATCH', `/Groups/${group.id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'Add', path: 'members', value: [{ value: created.id }, { value: member.userId }] }],
      }),
      200,
    );
    const sundial = await ctx.call('GET', `/api/v1/workspaces/${owner.workspaceId}/groups`, owner.cookie);
    const engineering = sundial.json().items.find((g: { id: string }) => g.id === group.id);
    expect(new Set(engineering.memberIds)).toEqual(new Set([created.id, member.userId]));
    const after = expectStatus(
      await scim('PATCH', `/Groups/${group.id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Remove', path: 'members', value: [{ value: member.userId }] },
          { op: 'Replace', path: 'displayName', value: 'Platform' },
        ],
      }),
      200,
    );
    expect(after).toMatchObject({ displayName: 'Platform', members: [{ value: created.id }] });
    expect(expectStatus(await scim('GET', `/Groups?${q('displayName eq "Platform"')}`), 200).totalResults).toBe(1);
    expectStatus(await scim('DELETE', `/Groups/${group.id}`), 204);
  });

  it('finds a user by the work e-mail filter Entra sends', async () => {
    const email = uniqueEmail('entra-mail');
    const created = expectStatus(
      await scim('POST', '/Users', {
        userName: email,
        active: true,
        emails: [{ primary: true, type: 'work', value: email }],
      }),
      201,
    );
    const found = expectStatus(await scim('GET', `/Users?${q(`emails[type eq "work"].value eq "${email}"`)}`), 200);
    expect(found).toMatchObject({ totalResults: 1, Resources: [{ id: created.id, userName: email }] });
    expect(
      expectStatus(await scim('GET', `/Users?${q(`emails[type eq "work"].value eq "nobody.${email}"`)}`), 200)
        .totalResults,
    ).toBe(0);
  });

  it('pages users with startIndex and count', async () => {
    // A workspace of its own, so the three users are all there is.
    const other = await signUp(ctx.t.app);
    const own = (await ctx.call('POST', `/api/v1/workspaces/${other.workspaceId}/scim-token`, other.cookie)).json()
      .token as string;
    const made: string[] = [];
    for (const who of ['one', 'two', 'three']) {
      const user = expectStatus(await scim('POST', '/Users', { userName: uniqueEmail(who), active: true }, own), 201);
      made.push(user.id);
    }
    const page = async (query: string) => expectStatus(await scim('GET', `/Users?${query}`, undefined, own), 200);
    const second = await page('startIndex=2&count=1');
    expect(second).toMatchObject({ totalResults: 3, itemsPerPage: 1, startIndex: 2 });
    expect(second.Resources).toHaveLength(1);
    const all = await page('startIndex=1&count=10');
    expect(all).toMatchObject({ totalResults: 3, itemsPerPage: 3, startIndex: 1 });
    expect(new Set(all.Resources.map((r: { id: string }) => r.id))).toEqual(new Set(made));
    expect(second.Resources[0].id).toBe(all.Resources[1].id);
    expect(await page('startIndex=3&count=5')).toMatchObject({ totalResults: 3, itemsPerPage: 1, startIndex: 3 });
    expect(await page('startIndex=4&count=5')).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] });
  });

  it('keeps to its workspace: another workspace’s users and groups are not found, and the owner is not a SCIM user', async () => {
    const stranger = await signUp(ctx.t.app);
    expect((await scim('GET', `/Users/${stranger.userId}`)).statusCode).toBe(404);
    expect(
      (
        await scim('PATCH', `/Users/${stranger.userId}`, {
          Operations: [{ op: 'replace', path: 'active', value: false }],
        })
      ).statusCode,
    ).toBe(404);
    expect((await scim('DELETE', `/Users/${owner.userId}`)).statusCode).toBe(404);
    const theirGroup = (
      await ctx.call('POST', `/api/v1/workspaces/${stranger.workspaceId}/groups`, stranger.cookie, { name: 'Theirs' })
    ).json();
    expect((await scim('GET', `/Groups/${theirGroup.id}`)).statusCode).toBe(404);
    expect((await scim('DELETE', `/Groups/${theirGroup.id}`)).statusCode).toBe(404);
  });
});
