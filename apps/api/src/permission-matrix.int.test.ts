import type { Role } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, STRONG_PASSWORD, signUp, uniqueEmail, useTestApp } from '../test/harness.js';
import { workspacesRepository } from './modules/workspaces/workspaces.repository.js';

/**
 * Every route so far, called by each role of a workspace and by an outsider (a signed-in user
 * of another workspace): allowed, 403 (a member without the permission) or 404 (not a member,
 * so the workspace's ids reveal nothing), and 401 without a session. Each later feature adds
 * its routes here.
 */
const ctx = useTestApp();
type Who = Role | 'outsider';
const WHO: Who[] = ['owner', 'admin', 'manager', 'member', 'guest', 'outsider'];
const ALL_ROLES: Role[] = ['owner', 'admin', 'manager', 'member', 'guest'];
const NOT_GUEST: Role[] = ['owner', 'admin', 'manager', 'member'];
const ADMINS: Role[] = ['owner', 'admin'];

let ws: string;
const people = {} as Record<Who, SignedUp>;

async function ownerCall(method: 'POST' | 'GET', url: string, body?: object) {
  const response = await ctx.call(method, url, people.owner.cookie, body);
  if (response.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${response.body}`);
  return response.json();
}

/** Fixtures made fresh for each call, so a delete by one role leaves something for the next. */
const fresh = {
  async member() {
    const user = await signUp(ctx.t.app);
    await workspacesRepository.addMember(ctx.t.db, { workspaceId: ws, userId: user.userId, role: 'member' });
    return user.userId;
  },
  async group() {
    return (await ownerCall('POST', `/api/v1/workspaces/${ws}/groups`, { name: `Group ${uniqueEmail('g')}` })).id;
  },
  async invite() {
    return (await ownerCall('POST', `/api/v1/workspaces/${ws}/invites`, { emails: [uniqueEmail('inv')] })).items[0].id;
  },
};

interface Route {
  path: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Builds the URL (and body) for one call, creating what the call needs. */
  prepare: (who: Who) => Promise<{ url: string; body?: object }>;
  /** Roles that may; other members get 403. */
  allowed: Role[];
  /** Not under a workspace: an outsider is just another signed-in user there. */
  personal?: boolean;
}

const w = (path = '') => `/api/v1/workspaces/${ws}${path}`;
const routes: Route[] = [
  // workspaces and me
  {
    path: '/workspaces',
    method: 'GET',
    prepare: async () => ({ url: '/api/v1/workspaces' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/workspaces',
    method: 'POST',
    prepare: async () => ({ url: '/api/v1/workspaces', body: { name: 'Side project' } }),
    allowed: ALL_ROLES,
    personal: true,
  },
  { path: '/workspaces/:id', method: 'GET', prepare: async () => ({ url: w() }), allowed: ALL_ROLES },
  {
    path: '/workspaces/:id',
    method: 'PATCH',
    prepare: async () => ({ url: w(), body: { name: 'Renamed' } }),
    allowed: ADMINS,
  },
  { path: '/me', method: 'GET', prepare: async () => ({ url: '/api/v1/me' }), allowed: ALL_ROLES, personal: true },
  {
    path: '/me',
    method: 'PATCH',
    prepare: async () => ({ url: '/api/v1/me', body: { currentWorkspaceId: ws } }),
    allowed: ALL_ROLES,
  },
  {
    path: '/me/password',
    method: 'POST',
    prepare: async () => ({
      url: '/api/v1/me/password',
      body: { currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD },
    }),
    allowed: ALL_ROLES,
    personal: true,
  },
  // members
  { path: '/workspaces/:id/members', method: 'GET', prepare: async () => ({ url: w('/members') }), allowed: NOT_GUEST },
  {
    path: '/workspaces/:id/members/:userId',
    method: 'GET',
    prepare: async () => ({ url: w(`/members/${people.member.userId}`) }),
    allowed: NOT_GUEST,
  },
  {
    path: '/workspaces/:id/members/:userId',
    method: 'PATCH',
    prepare: async () => ({ url: w(`/members/${await fresh.member()}`), body: { externalId: null, role: 'manager' } }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/members/:userId',
    method: 'DELETE',
    prepare: async () => ({ url: w(`/members/${await fresh.member()}`) }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/members/bulk',
    method: 'POST',
    prepare: async () => ({ url: w('/members/bulk'), body: { userIds: [await fresh.member()], role: 'member' } }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/owner',
    method: 'POST',
    // The owner "transfers" to themselves, which changes nothing; everyone else is refused.
    prepare: async (who) => ({ url: w('/owner'), body: { userId: people[who].userId } }),
    allowed: ['owner'],
  },
  {
    path: '/workspaces/:id/team-settings',
    method: 'GET',
    prepare: async () => ({ url: w('/team-settings') }),
    allowed: NOT_GUEST,
  },
  {
    path: '/workspaces/:id/team-settings',
    method: 'PATCH',
    prepare: async () => ({ url: w('/team-settings'), body: { hideDisabledUsers: false } }),
    allowed: ADMINS,
  },
  // invites
  { path: '/workspaces/:id/invites', method: 'GET', prepare: async () => ({ url: w('/invites') }), allowed: ADMINS },
  {
    path: '/workspaces/:id/invites',
    method: 'POST',
    prepare: async () => ({ url: w('/invites'), body: { emails: [uniqueEmail('new')], role: 'member' } }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/invites/:inviteId/resend',
    method: 'POST',
    prepare: async () => ({ url: w(`/invites/${await fresh.invite()}/resend`) }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/invites/:inviteId',
    method: 'DELETE',
    prepare: async () => ({ url: w(`/invites/${await fresh.invite()}`) }),
    allowed: ADMINS,
  },
  // groups
  { path: '/workspaces/:id/groups', method: 'GET', prepare: async () => ({ url: w('/groups') }), allowed: NOT_GUEST },
  {
    path: '/workspaces/:id/groups',
    method: 'POST',
    prepare: async () => ({ url: w('/groups'), body: { name: `New ${uniqueEmail('g')}` } }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/groups/:groupId',
    method: 'PATCH',
    prepare: async () => ({ url: w(`/groups/${await fresh.group()}`), body: { name: `Renamed ${uniqueEmail('g')}` } }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/groups/:groupId',
    method: 'DELETE',
    prepare: async () => ({ url: w(`/groups/${await fresh.group()}`) }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/groups/:groupId/members/:userId',
    method: 'PUT',
    prepare: async () => ({ url: w(`/groups/${await fresh.group()}/members/${people.member.userId}`) }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/groups/:groupId/members/:userId',
    method: 'DELETE',
    prepare: async () => ({ url: w(`/groups/${await fresh.group()}/members/${people.member.userId}`) }),
    allowed: ADMINS,
  },
];

beforeAll(async () => {
  people.owner = await signUp(ctx.t.app);
  ws = people.owner.workspaceId;
  for (const role of ['admin', 'manager', 'member', 'guest'] as const) {
    people[role] = await signUp(ctx.t.app);
    await workspacesRepository.addMember(ctx.t.db, { workspaceId: ws, userId: people[role].userId, role });
  }
  people.outsider = await signUp(ctx.t.app);
});

/** Routes whose families this matrix owns: a new route there must get a row above. */
const COVERED_FAMILIES =
  /^\/api\/v1\/(me(\/.*)?|workspaces(\/\{workspaceId\}(\/(members|invites|groups|owner|team-settings).*)?)?)$/;

describe('permission matrix', () => {
  it('has a row for every route of the workspace, me, members, invites and groups families', async () => {
    const spec = ctx.t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(spec.paths)
      .filter(([path]) => COVERED_FAMILIES.test(path))
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const inMatrix = new Set(
      routes.map((r) => `${r.method} /api/v1${r.path.replace(':id', '{workspaceId}').replace(/:(\w+)/g, '{$1}')}`),
    );
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((route) => !inMatrix.has(route))).toEqual([]);
  });

  for (const route of routes) {
    describe(`${route.method} ${route.path}`, () => {
      for (const who of WHO) {
        const expected =
          who === 'outsider' ? (route.personal ? 'allowed' : 404) : route.allowed.includes(who) ? 'allowed' : 403;
        it(`${who}: ${expected}`, async () => {
          const { url, body } = await route.prepare(who);
          const response = await ctx.call(route.method, url, people[who].cookie, body);
          if (expected === 'allowed') {
            expect(response.statusCode, response.body).toBeGreaterThanOrEqual(200);
            expect(response.statusCode, response.body).toBeLessThan(300);
          } else {
            expect(response.statusCode, response.body).toBe(expected);
            expect(response.json().error.code).toBe(expected === 403 ? 'forbidden' : 'not_found');
          }
        });
      }
      it('nobody signed in: 401', async () => {
        const { url, body } = await route.prepare('owner');
        expect((await ctx.call(route.method, url, undefined, body)).statusCode).toBe(401);
      });
    });
  }
});
