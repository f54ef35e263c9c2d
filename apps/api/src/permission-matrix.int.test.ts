import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Role, shiftDay } from '@sundial/core';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../test/dns-server.js';
import { type SignedUp, STRONG_PASSWORD, sendCsv, signUp, uniqueEmail, useTestApp } from '../test/harness.js';
import { greyPng } from '../test/png.js';
import { up as createFocusSpans } from '../test/sources/focus.migration.js';
import { focusSource } from '../test/sources/focus.source.js';
import { membersRepository } from './modules/members/members.repository.js';
import { newId } from './platform/ids.js';

/**
 * Every route so far, called by each role of a workspace and by an outsider (a signed-in user
 * of another workspace): allowed, 403 (a member without the permission) or 404 (not a member,
 * so the workspace's ids reveal nothing), and 401 without a session. Each later feature adds
 * its routes here.
 */
// A DNS server of the file's own (the SSO domain proofs), started before the app that is told of it.
let dns: TestDnsServer;
// Webhooks' fixtures target 127.0.0.1 (a closed port: they stay pending), which only this allows.
const dnsEnv: Record<string, string> = { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' };
beforeAll(async () => {
  dns = await startTestDnsServer();
  dnsEnv.DNS_SERVERS = dns.address;
  return () => dns.close();
});
// The made-up focus source of reports.sources.int.test.ts, so the sources' report route has its row.
const ctx = useTestApp(dnsEnv, { reportSources: [{ source: focusSource, seeOthers: 'time:view_others' }] });
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
    await membersRepository.add(ctx.t.db, { workspaceId: ws, userId: user.userId, role: 'member' });
    return user.userId;
  },
  async group() {
    return (await ownerCall('POST', `/api/v1/workspaces/${ws}/groups`, { name: `Group ${uniqueEmail('g')}` })).id;
  },
  /** A new group with the member in it. */
  async groupWithMember() {
    const id = await fresh.group();
    const response = await ctx.call('PUT', w(`/groups/${id}/members/${people.member.userId}`), people.owner.cookie);
    if (response.statusCode !== 200) throw new Error(`fixture group member: ${response.body}`);
    return id;
  },
  /** The workspace's logo, set by the owner; its URL. */
  async logo() {
    const url = w('/logo');
    const response = await ctx.call('PUT', url, people.owner.cookie, { data: greyPng(32, 32).toString('base64') });
    if (response.statusCode !== 200) throw new Error(`fixture logo: ${response.body}`);
    return url;
  },
  async invite() {
    return (await ownerCall('POST', `/api/v1/workspaces/${ws}/invites`, { emails: [uniqueEmail('inv')] })).items[0].id;
  },
};

/** A new API key of the person's own, for them to revoke. */
async function apiKeyOf(who: Who): Promise<string> {
  const response = await ctx.call('POST', '/api/v1/me/api-keys', people[who].cookie, {
    name: 'To revoke',
    scopes: { time: 'read' },
  });
  if (response.statusCode !== 201) throw new Error(`fixture api key: ${response.body}`);
  return response.json().id;
}

/** A workspace API key the owner made, for a revoke. */
async function workspaceKey(): Promise<string> {
  const response = await ctx.call('POST', w('/api-keys'), people.owner.cookie, {
    name: 'To revoke',
    actsAs: 'member',
    scopes: { projects: 'read' },
  });
  if (response.statusCode !== 201) throw new Error(`fixture workspace key: ${response.body}`);
  return response.json().id;
}

/** Each person's authenticator seed, as the set-up showed it; codes step forwards so none is reused. */
const totp = {
  secrets: {} as Partial<Record<Who, string>>,
  async setUp(who: Who): Promise<string> {
    const setup = await ctx.call('POST', '/api/v1/me/two-factor/setup', people[who].cookie);
    if (setup.statusCode === 200) totp.secrets[who] = new URL(setup.json().otpauthUrl).searchParams.get('secret') ?? '';
    return totp.code(who, -1);
  },
  code: (who: Who, steps: number) =>
    generate({ secret: totp.secrets[who] ?? 'A'.repeat(32), epoch: Math.floor(Date.now() / 1000) + 30 * steps }),
};

/** The id of a second session the person just signed in with. */
async function otherSession(who: Who): Promise<string> {
  const login = await ctx.call('POST', '/api/v1/auth/login', undefined, {
    email: people[who].email,
    password: STRONG_PASSWORD,
  });
  if (login.statusCode !== 200) throw new Error(`fixture login: ${login.body}`);
  const list = await ctx.call('GET', '/api/v1/me/sessions', people[who].cookie);
  const other = list.json().items.find((s: { current: boolean }) => !s.current);
  if (!other) throw new Error('fixture: no other session');
  return other.id;
}

/** A provider identity linked to the person's account (as a sign-in through it would have linked it). */
async function linkedIdentity(who: Who): Promise<string> {
  const id = newId();
  await ctx.t.db
    .insertInto('user_identities')
    .values({ id, user_id: people[who].userId, provider: 'social:acme', subject: id, email: people[who].email })
    .execute();
  return id;
}

interface Route {
  path: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Builds the URL (and body) for one call, creating what the call needs. */
  prepare: (who: Who) => Promise<{ url: string; body?: object; csv?: string; headers?: Record<string, string> }>;
  /** Roles that may; other members get `refused` (403 unless said). */
  allowed: Role[];
  refused?: 403 | 404;
  /** Roles for whom the thing does not exist (404), whatever `refused` says. */
  hidden?: Role[];
  /** Not under a workspace: an outsider is just another signed-in user there. */
  personal?: boolean;
}

const w = (path = '') => `/api/v1/workspaces/${ws}${path}`;
const routes: Route[] = [
  {
    // Each role leaves as a fresh member of that role (the shared people stay); the owner may not.
    path: '/workspaces/:id/leave',
    method: 'POST',
    prepare: async (who) => {
      if (who === 'owner' || who === 'outsider') return { url: w('/leave') };
      const leaver = await signUp(ctx.t.app);
      await membersRepository.add(ctx.t.db, { workspaceId: ws, userId: leaver.userId, role: who });
      return { url: w('/leave'), headers: { cookie: leaver.cookie } };
    },
    allowed: ['admin', 'manager', 'member', 'guest'],
  },
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
    prepare: async () => ({ url: w(), body: { name: 'Renamed', allowedEmailDomains: [] } }),
    allowed: ADMINS,
  },
  // the workspace's logo (issue 15: the PDF exports show it); each call finds one set
  {
    path: '/workspaces/:id/logo',
    method: 'GET',
    prepare: async () => ({ url: await fresh.logo() }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/logo',
    method: 'PUT',
    prepare: async () => ({ url: w('/logo'), body: { data: greyPng(32, 32).toString('base64') } }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/logo',
    method: 'DELETE',
    prepare: async () => ({ url: await fresh.logo() }),
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
  // two-factor authentication and sessions (issue 18): each person enrols, makes new codes and turns it off again
  {
    path: '/me/two-factor',
    method: 'GET',
    prepare: async () => ({ url: '/api/v1/me/two-factor' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/two-factor/setup',
    method: 'POST',
    prepare: async () => ({ url: '/api/v1/me/two-factor/setup' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/two-factor/enable',
    method: 'POST',
    prepare: async (who) => ({ url: '/api/v1/me/two-factor/enable', body: { code: await totp.setUp(who) } }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/two-factor/recovery-codes',
    method: 'POST',
    prepare: async (who) => ({ url: '/api/v1/me/two-factor/recovery-codes', body: { code: await totp.code(who, 0) } }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/two-factor/disable',
    method: 'POST',
    prepare: async (who) => ({ url: '/api/v1/me/two-factor/disable', body: { code: await totp.code(who, 1) } }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/workspaces/:id/two-factor-policy',
    method: 'GET',
    prepare: async () => ({ url: w('/two-factor-policy') }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/two-factor-policy',
    method: 'PUT',
    prepare: async () => ({ url: w('/two-factor-policy'), body: { required: false } }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/members/:userId/two-factor/reset',
    method: 'POST',
    prepare: async () => ({ url: w(`/members/${await fresh.member()}/two-factor/reset`) }),
    allowed: ADMINS,
  },
  {
    path: '/me/sessions',
    method: 'GET',
    prepare: async () => ({ url: '/api/v1/me/sessions' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/sessions/:sessionId',
    method: 'DELETE',
    prepare: async (who) => ({ url: `/api/v1/me/sessions/${await otherSession(who)}` }),
    allowed: ALL_ROLES,
    personal: true,
  },
  // linked identities and the address's confirmation (issue 29): a person's own only
  {
    path: '/me/identities',
    method: 'GET',
    prepare: async () => ({ url: '/api/v1/me/identities' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/identities/:identityId',
    method: 'DELETE',
    prepare: async (who) => ({ url: `/api/v1/me/identities/${await linkedIdentity(who)}` }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/email/verification',
    method: 'POST',
    prepare: async () => ({ url: '/api/v1/me/email/verification' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/sessions/sign-out-others',
    method: 'POST',
    prepare: async () => ({ url: '/api/v1/me/sessions/sign-out-others' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  // the audit log (issue 34): owners and admins
  {
    path: '/workspaces/:id/audit-log',
    method: 'GET',
    prepare: async () => ({ url: w('/audit-log') }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/audit-log/verify',
    method: 'POST',
    prepare: async () => ({ url: w('/audit-log/verify') }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/audit-log/export',
    method: 'GET',
    prepare: async () => ({ url: w('/audit-log/export') }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/audit-log/settings',
    method: 'GET',
    prepare: async () => ({ url: w('/audit-log/settings') }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/audit-log/settings',
    method: 'PUT',
    prepare: async () => ({ url: w('/audit-log/settings'), body: { retentionDays: 365 } }),
    allowed: ['owner'],
  },
  // personal API keys (issue 34): a person's own only
  {
    path: '/me/api-keys',
    method: 'GET',
    prepare: async () => ({ url: '/api/v1/me/api-keys' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/api-keys',
    method: 'POST',
    prepare: async () => ({ url: '/api/v1/me/api-keys', body: { name: 'Matrix', scopes: { time: 'read' } } }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/api-keys/:keyId',
    method: 'DELETE',
    prepare: async (who) => ({ url: `/api/v1/me/api-keys/${await apiKeyOf(who)}` }),
    allowed: ALL_ROLES,
    personal: true,
  },
  // the workspace's own API keys (issue 34): owners and admins
  { path: '/workspaces/:id/api-keys', method: 'GET', prepare: async () => ({ url: w('/api-keys') }), allowed: ADMINS },
  {
    path: '/workspaces/:id/api-keys',
    method: 'POST',
    prepare: async () => ({
      url: w('/api-keys'),
      body: { name: 'Sync', actsAs: 'member', scopes: { projects: 'read' } },
    }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/api-keys/:keyId',
    method: 'DELETE',
    prepare: async () => ({ url: w(`/api-keys/${await workspaceKey()}`) }),
    allowed: ADMINS,
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
    path: '/workspaces/:id/invites/:inviteId/link',
    method: 'POST',
    prepare: async () => ({ url: w(`/invites/${await fresh.invite()}/link`) }),
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
    prepare: async () => ({ url: w(`/groups/${await fresh.groupWithMember()}/members/${people.member.userId}`) }),
    allowed: ADMINS,
  },
];

// ---- projects, tasks, clients, tags and imports (issue 3) -------------------------------------
const MANAGERS: Role[] = ['owner', 'admin', 'manager'];
const named = (what: string) => `${what} ${uniqueEmail('n')}`;
/**
 * public: members see it (reads allowed, writes 403), guests do not (404: only what is shared with them);
 * private: 404 to both; granted: private, with the member and the guest assigned and holding "Can manage" (the member directly, the guest
 * through a group, since a guest cannot be granted directly).
 */
type ProjectKind = 'public' | 'private' | 'granted';
const manageFixtures = {
  async project(kind: ProjectKind = 'public') {
    const id = (await ownerCall('POST', w('/projects'), { name: named('Project'), isPublic: kind === 'public' }))
      .id as string;
    if (kind === 'granted') {
      const groupId = await fresh.group();
      await ctx.t.db
        .insertInto('group_members')
        .values({ workspace_id: ws, group_id: groupId, user_id: people.guest.userId })
        .execute();
      const assigned = await ctx.call('PUT', w(`/projects/${id}/people`), people.owner.cookie, {
        userIds: [people.member.userId, people.guest.userId],
        groupIds: [groupId],
        managerUserIds: [people.member.userId],
        managerGroupIds: [groupId],
      });
      if (assigned.statusCode !== 200) throw new Error(`fixture grant: ${assigned.body}`);
    }
    return id;
  },
  async task(kind: ProjectKind = 'public') {
    const projectId = await manageFixtures.project(kind);
    return (await ownerCall('POST', w(`/projects/${projectId}/tasks`), { name: named('Task') })).id as string;
  },
  async client() {
    return (await ownerCall('POST', w('/clients'), { name: named('Client') })).id as string;
  },
  async tagList() {
    return (await ownerCall('POST', w('/tag-lists'), { name: named('List') })).id as string;
  },
  async tag() {
    return (await ownerCall('POST', w(`/tag-lists/${await manageFixtures.tagList()}/tags`), { name: named('Tag') }))
      .id as string;
  },
};
type Body = () => object | Promise<object>;

/** A row for a route of the workspace (`/projects`, `/tag-settings`, …); `query` only goes into the call. */
const top = (method: Route['method'], path: string, allowed: Role[], body?: Body, query = ''): Route => ({
  path: `/workspaces/:id${path}`,
  method,
  prepare: async () => ({ url: w(`${path}${query}`), body: await body?.() }),
  allowed,
});

/** Rows for routes on one thing made fresh for each call: `/${collection}/<new id>${suffix}`. */
const on =
  (collection: string, param: string, make: () => Promise<string>) =>
  (method: Route['method'], suffix: string, allowed: Role[], body?: Body): Route => ({
    path: `/workspaces/:id/${collection}/:${param}${suffix}`,
    method,
    prepare: async () => ({ url: w(`/${collection}/${await make()}${suffix}`), body: await body?.() }),
    allowed,
  });

const IMPORT_CSV = 'Client,Project,Task,Parent Task\nAcme,Website,Design,\n';
const uploadCsv = (url: string, cookie: string, csv: string) => sendCsv(ctx.t.app, url, cookie, csv);
/** A file the owner uploaded, read and ready to import. */
const anImport = async () =>
  (await uploadCsv(w('/imports?source=csv'), people.owner.cookie, IMPORT_CSV)).json().id as string;

/**
 * Routes on one project or task of a `kind` of project. On a granted one the member may also edit
 * (sections, tasks, archive) but never delete the project or change people; the guest's grant counts for nothing.
 */
const projectScoped = (kind: ProjectKind): Route[] => {
  const rows = {
    projects: on('projects', 'projectId', () => manageFixtures.project(kind)),
    tasks: on('tasks', 'taskId', () => manageFixtures.task(kind)),
  };
  const editors: Role[] = kind === 'granted' ? [...MANAGERS, 'member'] : MANAGERS;
  const projectDelete = rows.projects('DELETE', '', MANAGERS);
  const scoped = [
    ...Object.values(rows).flatMap((row) => [
      row('GET', '', ALL_ROLES),
      row('PATCH', '', editors, () => ({ name: named('Renamed'), billableDefault: false, keywords: ['x'] })),
      row('POST', '/archive', editors),
      row('POST', '/restore', editors),
      row === rows.projects ? projectDelete : row('DELETE', '', editors),
      row('PUT', '/people', MANAGERS, () => ({ userIds: [], groupIds: [] })),
    ]),
    rows.projects('GET', '/tasks', ALL_ROLES),
    rows.projects('POST', '/tasks', editors, () => ({ name: named('Task') })),
  ];
  // Rows on a granted project are told apart from the plain ones by name.
  if (kind === 'granted') return scoped.map((r) => ({ ...r, path: `${r.path} (member granted)` }));
  // A public project is not shared with the guest: it does not exist for them.
  return scoped.map((r) => ({ ...r, allowed: r.allowed.filter((role) => role !== 'guest'), hidden: ['guest'] }));
};

const client = on('clients', 'clientId', manageFixtures.client);
const tagList = on('tag-lists', 'tagListId', manageFixtures.tagList);
const tag = on('tags', 'tagId', manageFixtures.tag);
const manageRoutes: Route[] = [
  top('GET', '/projects', ALL_ROLES, undefined, '?archived=all'),
  top('POST', '/projects', MANAGERS, () => ({ name: named('Project') })),
  ...projectScoped('public'),
  ...projectScoped('granted'),
  top('GET', '/project-assignees', MANAGERS),
  top('GET', '/project-suggestions', ALL_ROLES, undefined, '?note=design%20review'),
  top('GET', '/project-picker', ALL_ROLES),
  top('GET', '/clients', NOT_GUEST),
  top('POST', '/clients', MANAGERS, () => ({ name: named('Client'), currency: 'eur' })),
  client('GET', '', NOT_GUEST),
  client('PATCH', '', MANAGERS, () => ({ note: 'Pays late' })),
  client('POST', '/archive', MANAGERS),
  client('POST', '/restore', MANAGERS),
  client('DELETE', '', MANAGERS),
  top('GET', '/tag-lists', ALL_ROLES),
  top('POST', '/tag-lists', MANAGERS, () => ({ name: named('List') })),
  tagList('GET', '', ALL_ROLES),
  tagList('PATCH', '', MANAGERS, () => ({ name: named('Renamed') })),
  tagList('POST', '/archive', MANAGERS),
  tagList('POST', '/restore', MANAGERS),
  tagList('DELETE', '', MANAGERS),
  tagList('POST', '/tags', MANAGERS, () => ({ name: named('Tag') })),
  tagList('PUT', '/rules', MANAGERS, () => ({ exclusive: true, projectIds: [], requiredProjectIds: [] })),
  on('projects', 'projectId', manageFixtures.project)('PUT', '/required-tag-lists', MANAGERS, async () => ({
    tagListIds: [await manageFixtures.tagList()],
  })),
  top('GET', '/tags', ALL_ROLES, undefined, '?archived=all'),
  tag('GET', '', ALL_ROLES),
  tag('PATCH', '', MANAGERS, () => ({ name: named('Renamed') })),
  tag('POST', '/archive', MANAGERS),
  tag('POST', '/restore', MANAGERS),
  tag('DELETE', '', MANAGERS),
  tag('POST', '/merge', MANAGERS, async () => ({ intoTagId: await manageFixtures.tag() })),
  top('GET', '/tag-settings', ALL_ROLES),
  top('PUT', '/tag-settings', ADMINS, () => ({ tagsRequired: false })),
  {
    path: '/workspaces/:id/imports',
    method: 'POST',
    prepare: async () => ({ url: w('/imports?source=csv'), csv: IMPORT_CSV }),
    allowed: MANAGERS,
  },
  on('imports', 'importId', anImport)('GET', '', MANAGERS),
  on('imports', 'importId', anImport)('POST', '/run', MANAGERS),
];
routes.push(...manageRoutes);

describe('permission matrix: projects, tasks, clients, tags and imports', () => {
  it('has a row for every route of those families', () => {
    const families =
      /^\/api\/v1\/workspaces\/\{workspaceId\}\/(projects|project-assignees|project-suggestions|project-picker|tasks|clients|tag-lists|tags|tag-settings|imports)(\/.*)?$/;
    expect(missingRows(families, 40)).toEqual([]);
  });

  // A project (and so its tasks) that is neither public nor assigned to them does not exist for members and guests.
  for (const route of projectScoped('private')) {
    it(`${route.method} ${route.path} on a private project: 404 for member and guest, allowed for a manager`, async () => {
      for (const who of ['member', 'guest', 'manager'] as const) {
        const { url, body } = await route.prepare(who);
        const response = await ctx.call(route.method, url, people[who].cookie, body);
        if (who === 'manager') expect(response.statusCode, response.body).toBeLessThan(300);
        else expect([response.statusCode, response.json().error.code], response.body).toEqual([404, 'not_found']);
      }
    });
  }
});

/** "METHOD /api/v1/..." of the documented routes in `families` that have no row in the matrix. */
function missingRows(families: RegExp, atLeast: number): string[] {
  const spec = ctx.t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const documented = Object.entries(spec.paths)
    .filter(([path]) => families.test(path))
    .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
  const inMatrix = new Set(
    // `:id` alone is the workspace (not the start of `:identityId`).
    routes.map(
      (r) => `${r.method} /api/v1${r.path.replace(/:id(?=\/|$)/, '{workspaceId}').replace(/:(\w+)/g, '{$1}')}`,
    ),
  );
  expect(documented.length).toBeGreaterThanOrEqual(atLeast);
  return documented.filter((route) => !inMatrix.has(route));
}

beforeAll(async () => {
  people.owner = await signUp(ctx.t.app);
  ws = people.owner.workspaceId;
  for (const role of ['admin', 'manager', 'member', 'guest'] as const) {
    people[role] = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, { workspaceId: ws, userId: people[role].userId, role });
  }
  people.outsider = await signUp(ctx.t.app);
  await createFocusSpans(ctx.t.db as never);
});

/** Routes whose families this matrix owns: a new route there must get a row above. */
const COVERED_FAMILIES =
  /^\/api\/v1\/(me(\/.*)?|workspaces(\/\{workspaceId\}(\/(members|invites|groups|owner|team-settings|leave|audit-log|api-keys).*)?)?)$/;

describe('permission matrix', () => {
  it('has a row for every route of the workspace, me, members, invites and groups families', async () => {
    expect(missingRows(COVERED_FAMILIES, 21)).toEqual([]);
  });

  for (const route of routes) {
    describe(`${route.method} ${route.path}`, () => {
      for (const who of WHO) {
        const expected =
          who === 'outsider'
            ? route.personal
              ? 'allowed'
              : 404
            : route.allowed.includes(who)
              ? 'allowed'
              : route.hidden?.includes(who)
                ? 404
                : (route.refused ?? 403);
        it(`${who}: ${expected}`, async () => {
          const { url, body, csv, headers } = await route.prepare(who);
          const response =
            csv !== undefined
              ? await uploadCsv(url, people[who].cookie, csv)
              : headers
                ? await ctx.t.app.inject({
                    method: route.method,
                    url,
                    payload: body,
                    headers: { cookie: people[who].cookie, ...headers },
                  })
                : await ctx.call(route.method, url, people[who].cookie, body);
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

// ---- time entries, timer and time settings (issue 4) ----------------------------------------

/**
 * Time of `subject`, a member of a group the manager is in: owner and admin reach everyone's
 * time, the manager their people's, members and guests only their own (someone else's entry is
 * 404 to them, someone else's timesheet 403). The live stream (time-entries/events) is checked
 * in time-entries.events.int.test.ts, where the app listens on a port.
 */
/** Who reaches the subject's time: owner, admin and (the subject being in their group) the manager. */
const TIME_REACH: Role[] = ['owner', 'admin', 'manager'];
let subject: SignedUp;
const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();
const subjectEntry = async (): Promise<string> =>
  (await ownerCall('POST', w('/time-entries'), { start: hourAgo(), duration: '15m', userId: subject.userId })).id;
const subjectTimer = async (paused = false) => {
  await ownerCall('POST', w('/timer/start'), { userId: subject.userId });
  if (paused) await ownerCall('POST', w(`/timer/pause?userId=${subject.userId}`), {});
};
const ofSubject = () => `userId=${subject.userId}`;

/** GET, PATCH or DELETE of one fresh entry of the subject: 404 to those who may not see it. */
const onSubjectEntry = (method: Route['method'], body?: object): Route => ({
  path: '/workspaces/:id/time-entries/:entryId',
  method,
  prepare: async () => ({ url: w(`/time-entries/${await subjectEntry()}`), body }),
  allowed: TIME_REACH,
  refused: 404,
});

/** An action on the subject's timer, first started (and paused) when `state` says so. */
const onSubjectTimer = (method: Route['method'], action: string, state: 'none' | 'running' | 'paused'): Route => ({
  path: `/workspaces/:id/timer${action}`,
  method,
  prepare: async () => {
    if (state !== 'none') await subjectTimer(state === 'paused');
    return { url: w(`/timer${action}?${ofSubject()}`), body: method === 'POST' ? {} : undefined };
  },
  allowed: TIME_REACH,
});

const timeRoutes: Route[] = [
  {
    path: '/workspaces/:id/time-entries',
    method: 'GET',
    prepare: async () => ({ url: w(`/time-entries?${ofSubject()}`) }),
    allowed: TIME_REACH,
  },
  {
    path: '/workspaces/:id/time-entries',
    method: 'POST',
    prepare: async () => ({
      url: w('/time-entries'),
      body: { start: hourAgo(), duration: '10m', userId: subject.userId },
    }),
    allowed: TIME_REACH,
  },
  onSubjectEntry('GET'),
  onSubjectEntry('PATCH', { note: 'checked' }),
  onSubjectEntry('DELETE'),
  {
    path: '/workspaces/:id/time-entries/bulk-update',
    method: 'POST',
    prepare: async () => ({
      url: w('/time-entries/bulk-update'),
      body: { ids: [await subjectEntry()], set: { billable: true } },
    }),
    allowed: TIME_REACH,
    refused: 404,
  },
  {
    path: '/workspaces/:id/time-entries/bulk-delete',
    method: 'POST',
    prepare: async () => ({ url: w('/time-entries/bulk-delete'), body: { ids: [await subjectEntry()] } }),
    allowed: TIME_REACH,
    refused: 404,
  },
  {
    path: '/workspaces/:id/time-entries/restore',
    method: 'POST',
    prepare: async () => {
      const id = await subjectEntry();
      await ctx.call('DELETE', w(`/time-entries/${id}`), people.owner.cookie);
      return { url: w('/time-entries/restore'), body: { ids: [id] } };
    },
    allowed: TIME_REACH,
    refused: 404,
  },
  {
    path: '/workspaces/:id/time-entries/people',
    method: 'GET',
    prepare: async () => ({ url: w('/time-entries/people') }),
    allowed: ALL_ROLES,
  },
  onSubjectTimer('GET', '', 'none'),
  {
    // Everyone reads the running timers they reach (their own at least); who sees whose is in
    // time-entries.timers.int.test.ts.
    path: '/workspaces/:id/timers',
    method: 'GET',
    prepare: async () => ({ url: w('/timers') }),
    allowed: ALL_ROLES,
  },
  onSubjectTimer('DELETE', '', 'running'),
  {
    path: '/workspaces/:id/timer/start',
    method: 'POST',
    prepare: async () => ({ url: w('/timer/start'), body: { userId: subject.userId } }),
    allowed: TIME_REACH,
  },
  onSubjectTimer('POST', '/stop', 'running'),
  onSubjectTimer('POST', '/pause', 'running'),
  onSubjectTimer('POST', '/resume', 'paused'),
  {
    path: '/workspaces/:id/time-settings',
    method: 'GET',
    prepare: async () => ({ url: w('/time-settings') }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/time-settings',
    method: 'PATCH',
    prepare: async () => ({ url: w('/time-settings'), body: { roundingMode: 'none' } }),
    allowed: ADMINS,
  },
];

routes.push(...timeRoutes);

// ---- reports (issue 14) ----------------------------------------------------------------------

const EXPORT_JOB_QUERY = 'kind=summary&preset=lastMonth&groupBy=user';
/** A finished export job of the caller's (the owner's for an outsider, who then must not see it). */
async function ownExportJob(who: Who): Promise<string> {
  const cookie = people[who === 'outsider' ? 'owner' : who].cookie;
  const response = await ctx.call('POST', w('/reports/export-jobs'), cookie, {
    query: EXPORT_JOB_QUERY,
    format: 'csv',
  });
  if (response.statusCode !== 202) throw new Error(`fixture export job: ${response.body}`);
  await ctx.t.app.services.jobs.drain();
  return response.json().id as string;
}

/** Every role reads reports (of the time it reaches); marking invoiced needs to reach the subject's time. */
const reportRoutes: Route[] = [
  ...['summary', 'detailed', 'matrix', 'estimates'].map(
    (report): Route => ({
      path: `/workspaces/:id/reports/${report}`,
      method: 'GET',
      prepare: async () => ({
        url: w(`/reports/${report}?preset=lastMonth&${report === 'summary' ? 'groupBy=user,day' : ''}`),
      }),
      allowed: ALL_ROLES,
    }),
  ),
  // Another source of facts (issue 32): every role reads it, of the people it reaches.
  {
    path: '/workspaces/:id/reports/sources/:source/summary',
    method: 'GET',
    prepare: async () => ({ url: w('/reports/sources/focus/summary?preset=lastMonth&groupBy=user,app') }),
    allowed: ALL_ROLES,
  },
  // Exports (issue 15): the same reach as the report on screen.
  {
    path: '/workspaces/:id/reports/export',
    method: 'GET',
    prepare: async () => ({ url: w('/reports/export?kind=summary&format=csv&preset=lastMonth&groupBy=user') }),
    allowed: ALL_ROLES,
  },
  // Export jobs: anyone who may export may start one; a job is its owner's alone (404 for everyone else).
  {
    path: '/workspaces/:id/reports/export-jobs',
    method: 'POST',
    prepare: async () => ({ url: w('/reports/export-jobs'), body: { query: EXPORT_JOB_QUERY, format: 'csv' } }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/reports/export-jobs',
    method: 'GET',
    prepare: async () => ({ url: w('/reports/export-jobs') }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/reports/export-jobs/:jobId',
    method: 'GET',
    prepare: async (who) => ({ url: w(`/reports/export-jobs/${await ownExportJob(who)}`) }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/reports/export-jobs/:jobId/file',
    method: 'GET',
    prepare: async (who) => ({ url: w(`/reports/export-jobs/${await ownExportJob(who)}/file`) }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/reports/invoiced',
    method: 'POST',
    prepare: async () => ({ url: w('/reports/invoiced'), body: { invoiced: true, ids: [await subjectEntry()] } }),
    allowed: TIME_REACH,
    refused: 404,
  },
];
routes.push(...reportRoutes);

/** The subject is a member in a group of the manager's. */
beforeAll(async () => {
  subject = await signUp(ctx.t.app);
  await membersRepository.add(ctx.t.db, { workspaceId: ws, userId: subject.userId, role: 'member' });
  const groupId = (await ownerCall('POST', w('/groups'), { name: `Time ${uniqueEmail('g')}` })).id;
  await ctx.t.db
    .insertInto('group_members')
    .values(
      [people.manager.userId, subject.userId].map((user_id) => ({ workspace_id: ws, group_id: groupId, user_id })),
    )
    .execute();
});

describe('permission matrix: reports', () => {
  it('has a row for every reports route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/reports(\/.*)?$/, 9)).toEqual([]);
  });
});

describe('permission matrix: time entries, timer and time settings', () => {
  it('has a row for every time route but the live stream', () => {
    const family = /^\/api\/v1\/workspaces\/\{workspaceId\}\/(time-entries|timers?|time-settings)(\/.*)?$/;
    expect(missingRows(family, 19)).toEqual(['GET /api/v1/workspaces/{workspaceId}/time-entries/events']);
  });

  it("refuses a manager someone else's time outside their groups", async () => {
    const outside = (await ownerCall('POST', w('/time-entries'), { start: hourAgo(), duration: '5m' })).id;
    const m = people.manager.cookie;
    expect((await ctx.call('GET', w(`/time-entries/${outside}`), m)).statusCode).toBe(404);
    expect((await ctx.call('PATCH', w(`/time-entries/${outside}`), m, { note: 'x' })).statusCode).toBe(404);
    expect((await ctx.call('GET', w(`/time-entries?userId=${people.owner.userId}`), m)).statusCode).toBe(403);
    expect((await ctx.call('POST', w('/timer/start'), m, { userId: people.admin.userId })).statusCode).toBe(403);
  });
});

// ---- rates (issue 14) -----------------------------------------------------------------------

const rateRange = { level: 'workspace', from: '2026-01-01', to: '2026-01-31' };
let rateDay = 0;
const aRate = async () =>
  (
    await ownerCall('POST', w('/rates'), {
      level: 'member',
      userId: people.member.userId,
      effectiveFrom: `2020-01-${String(1 + (rateDay++ % 28)).padStart(2, '0')}`,
      billableCents: 100,
    })
  ).id as string;
const rateRoutes: Route[] = [
  top('GET', '/rates/settings', ALL_ROLES),
  top('PATCH', '/rates/settings', ADMINS, () => ({ currency: 'USD' })),
  // Reading a history follows who sees the money: managers the billable rates of shared levels and
  // of their people (their own too); members and guests their own only when the workspace allows it (off here).
  top('GET', '/rates', [...ADMINS, 'manager'], undefined, '?level=workspace'),
  {
    path: '/workspaces/:id/rates',
    method: 'GET',
    prepare: async (who) => ({ url: w(`/rates?level=member&userId=${people[who].userId}`) }),
    allowed: [...ADMINS, 'manager'],
  },
  top('POST', '/rates', ADMINS, () => ({
    level: 'member',
    userId: people.member.userId,
    effectiveFrom: `2021-${String(1 + (rateDay % 12)).padStart(2, '0')}-${String(1 + (rateDay++ % 28)).padStart(2, '0')}`,
    costCents: 100,
  })),
  on('rates', 'rateId', aRate)('DELETE', '', ADMINS),
  top('POST', '/rates/reapply/preview', ADMINS, () => rateRange),
  top('POST', '/rates/reapply', ADMINS, () => rateRange),
];
routes.push(...rateRoutes);

describe('permission matrix: rates', () => {
  it('has a row for every rates route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/rates(\/.*)?$/, 7)).toEqual([]);
  });
});

// ---- saved reports and public links (issue 14) ----------------------------------------------

/**
 * Each role works on a report of its own (all may save, change, share and revoke theirs); deleting
 * a report a member shared with the workspace is for that member and for owners and admins. The
 * public page (/shared-reports/:linkId) and the public CSV (/public/reports/csv/:file) take no
 * session: saved-reports.int.test.ts and csv-links.int.test.ts cover them.
 */
const SAVED_QUERY = 'preset=lastMonth&groupBy=project';
const ownReport = async (who: Who) => {
  const response = await ctx.call('POST', w('/saved-reports'), people[who === 'outsider' ? 'owner' : who].cookie, {
    name: named('Saved'),
    kind: 'summary',
    query: SAVED_QUERY,
  });
  if (response.statusCode !== 201) throw new Error(`fixture saved report: ${response.body}`);
  return response.json().id as string;
};
const ownLink = async (who: Who, reportId: string) => {
  const cookie = people[who === 'outsider' ? 'owner' : who].cookie;
  const response = await ctx.call('POST', w(`/saved-reports/${reportId}/links`), cookie, {});
  if (response.statusCode !== 201) throw new Error(`fixture report link: ${response.body}`);
  return response.json().id as string;
};
const onOwnReport = (method: Route['method'], suffix: string, body?: object): Route => ({
  path: `/workspaces/:id/saved-reports/:savedReportId${suffix.replace('LINK', ':linkId')}`,
  method,
  prepare: async (who) => {
    const id = await ownReport(who);
    const url = suffix.includes('LINK') ? suffix.replace('LINK', await ownLink(who, id)) : suffix;
    return { url: w(`/saved-reports/${id}${url}`), body };
  },
  allowed: ALL_ROLES,
});
const savedReportRoutes: Route[] = [
  top('GET', '/saved-reports', ALL_ROLES),
  top('POST', '/saved-reports', ALL_ROLES, () => ({ name: named('Saved'), kind: 'summary', query: SAVED_QUERY })),
  onOwnReport('GET', ''),
  onOwnReport('PATCH', '', { visibility: 'workspace' }),
  onOwnReport('DELETE', ''),
  onOwnReport('GET', '/links'),
  onOwnReport('POST', '/links', { expiresAt: null }),
  onOwnReport('POST', '/links/LINK/revoke'),
  // CSV links for Google Sheets (issue 15): made by the report's owner, whatever their role.
  onOwnReport('GET', '/csv-link'),
  onOwnReport('POST', '/csv-link', { expiresAt: null }),
  {
    path: '/workspaces/:id/saved-reports/:savedReportId/csv-link/revoke',
    method: 'POST',
    prepare: async (who) => {
      const id = await ownReport(who);
      const cookie = people[who === 'outsider' ? 'owner' : who].cookie;
      const made = await ctx.call('POST', w(`/saved-reports/${id}/csv-link`), cookie, {});
      if (made.statusCode !== 201) throw new Error(`fixture csv link: ${made.body}`);
      return { url: w(`/saved-reports/${id}/csv-link/revoke`) };
    },
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/saved-reports/:savedReportId (shared by the member)',
    method: 'DELETE',
    prepare: async () => {
      const id = await ownReport('member');
      await ctx.call('PATCH', w(`/saved-reports/${id}`), people.member.cookie, { visibility: 'workspace' });
      return { url: w(`/saved-reports/${id}`) };
    },
    allowed: [...ADMINS, 'member'],
  },
];
routes.push(...savedReportRoutes);

/**
 * E-mail schedules (issue 15): each role on a schedule of its own report; guests may not schedule
 * (they cannot see whom to send to). Another member's shared report: saved-reports' own tests.
 */
const SCHEDULE = { frequency: 'weekly', weekday: 1, hour: 8, format: 'csv', recipientEmails: ['boss@example.com'] };
const onOwnSchedule = (method: Route['method'], suffix: string, body?: object): Route => ({
  path: `/workspaces/:id/saved-reports/:savedReportId/schedule${suffix}`,
  method,
  prepare: async (who) => {
    const id = await ownReport(who);
    // Guests cannot make one: theirs is refused before the schedule is looked for.
    if (who !== 'guest') {
      const cookie = people[who === 'outsider' ? 'owner' : who].cookie;
      const made = await ctx.call('PUT', w(`/saved-reports/${id}/schedule`), cookie, SCHEDULE);
      if (made.statusCode !== 200) throw new Error(`fixture schedule: ${made.body}`);
    }
    return { url: w(`/saved-reports/${id}/schedule${suffix}`), body };
  },
  allowed: NOT_GUEST,
});
routes.push(
  onOwnSchedule('GET', ''),
  onOwnSchedule('PUT', '', { ...SCHEDULE, format: 'pdf' }),
  onOwnSchedule('DELETE', ''),
  onOwnSchedule('POST', '/pause'),
  onOwnSchedule('POST', '/resume'),
  onOwnSchedule('POST', '/send'),
);

describe('permission matrix: saved reports', () => {
  it('has a row for every saved-reports route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/saved-reports(\/.*)?$/, 17)).toEqual([]);
  });
});

// ---- billing (issue 16) ---------------------------------------------------------------------

/**
 * Everything that reads money or buys is for owners and admins (`billing:manage`). The workspace
 * buys Pro once (so cancel, reactivate and credit notes have a subscription and an invoice); each
 * allowed call then works on it: a fresh checkout key and card, a credit of one cent.
 */
const BILLING_DETAILS = {
  name: 'Acme Inc.',
  address: '1 Market St',
  city: 'San Francisco',
  postalCode: '94105',
  country: 'US',
};
let paidInvoiceId: string;
const cardToken = async () => {
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/sandbox/tokens',
    payload: {
      number: '4242424242424242',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 1,
      cvc: '123',
      name: 'Ada Lovelace',
    },
  });
  if (response.statusCode !== 201) throw new Error(`fixture card token: ${response.body}`);
  return response.json().id as string;
};
const billingCheckout = async (body: object, key: string) => {
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: w('/billing/checkout'),
    headers: { cookie: people.owner.cookie, 'idempotency-key': key },
    payload: body,
  });
  if (response.statusCode >= 300) throw new Error(`fixture checkout: ${response.body}`);
  return response.json();
};
let checkoutKeys = 0;
const billingRoutes: Route[] = [
  top('GET', '/billing', ADMINS),
  top('POST', '/billing/quote', ADMINS, () => ({ plan: 'pro', cycle: 'annual', licenses: 300 })),
  top('PUT', '/billing/details', ADMINS, () => BILLING_DETAILS),
  {
    path: '/workspaces/:id/billing/checkout',
    method: 'POST',
    // Each allowed call buys two more licenses (immediate, prorated) with a new key and card.
    prepare: async () => ({
      url: w('/billing/checkout'),
      body: { plan: 'pro', cycle: 'annual', licenses: 100 + 2 * ++checkoutKeys, paymentToken: await cardToken() },
      headers: { 'idempotency-key': `matrix-checkout-${checkoutKeys}` },
    }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/billing/checkout/:checkoutId/confirm',
    method: 'POST',
    prepare: async () => {
      const done = await billingCheckout(
        { plan: 'pro', cycle: 'annual', licenses: 500 + ++checkoutKeys, paymentToken: await cardToken() },
        `matrix-confirm-${checkoutKeys}`,
      );
      return { url: w(`/billing/checkout/${done.checkoutId}/confirm`) };
    },
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/billing/payment-method',
    method: 'PUT',
    prepare: async () => ({ url: w('/billing/payment-method'), body: { paymentToken: await cardToken() } }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/billing/payment-method/:changeId/confirm',
    method: 'POST',
    prepare: async () => {
      const changed = await ctx.t.app.inject({
        method: 'PUT',
        url: w('/billing/payment-method'),
        headers: { cookie: people.owner.cookie },
        payload: { paymentToken: await cardToken() },
      });
      if (changed.statusCode !== 200) throw new Error(`fixture card change: ${changed.body}`);
      return { url: w(`/billing/payment-method/${changed.json().changeId}/confirm`) };
    },
    allowed: ADMINS,
  },
  top('POST', '/billing/cancel', ADMINS),
  {
    path: '/workspaces/:id/billing/reactivate',
    method: 'POST',
    prepare: async () => {
      await ctx.call('POST', w('/billing/cancel'), people.owner.cookie);
      return { url: w('/billing/reactivate') };
    },
    allowed: ADMINS,
  },
  top('POST', '/billing/change-to-free', ADMINS),
  top('GET', '/billing/invoices', ADMINS),
  {
    path: '/workspaces/:id/billing/invoices/:invoiceId/pdf',
    method: 'GET',
    prepare: async () => ({ url: w(`/billing/invoices/${paidInvoiceId}/pdf`) }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/billing/invoices/:invoiceId/credit-note',
    method: 'POST',
    prepare: async () => ({
      url: w(`/billing/invoices/${paidInvoiceId}/credit-note`),
      body: { amountCents: 1, reason: 'Matrix' },
    }),
    allowed: ADMINS,
  },
];
routes.push(...billingRoutes);

beforeAll(async () => {
  const saved = await ctx.call('PUT', w('/billing/details'), people.owner.cookie, BILLING_DETAILS);
  if (saved.statusCode !== 200) throw new Error(`fixture billing details: ${saved.body}`);
  const bought = await billingCheckout(
    { plan: 'pro', cycle: 'annual', licenses: 100, paymentToken: await cardToken() },
    'matrix-first-purchase',
  );
  paidInvoiceId = bought.invoice.id;
});

describe('permission matrix: billing', () => {
  it('has a row for every billing route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/billing(\/.*)?$/, 11)).toEqual([]);
  });
});

// ---- approvals and locks (issue 17) ----------------------------------------------------------

/**
 * Everyone submits their own period (each call a fresh week, one further back); the subject's
 * periods are approved, rejected and withdrawn by those who approve them: owners, admins and the
 * manager of the subject's group. Members and guests may not decide (403), and someone else's
 * request is not found by them (404).
 */
let approvalWeeks = 0;
const nextWeek = () => shiftDay('2024-12-30', -7 * approvalWeeks++);
const subjectSubmission = async () => {
  const response = await ctx.call('POST', w('/approvals'), subject.cookie, { day: nextWeek() });
  if (response.statusCode !== 201) throw new Error(`fixture approval: ${response.body}`);
  return response.json().id as string;
};
const onSubmission = on('approvals', 'approvalId', subjectSubmission);
const APPROVERS: Role[] = ['owner', 'admin', 'manager'];
routes.push(
  top('GET', '/approvals/settings', ALL_ROLES),
  top('PUT', '/approvals/settings', ADMINS, () => ({
    period: 'week',
    approverRule: 'managers_and_admins',
    lockDate: null,
  })),
  top('GET', '/approvals/period', ALL_ROLES, undefined, '?day=2026-11-10'),
  top('GET', '/approvals', APPROVERS, undefined, '?status=submitted'),
  {
    path: '/workspaces/:id/approvals',
    method: 'POST',
    prepare: async () => ({ url: w('/approvals'), body: { day: nextWeek() } }),
    allowed: ALL_ROLES,
  },
  onSubmission('POST', '/approve', APPROVERS, () => ({ comment: 'Looks right' })),
  onSubmission('POST', '/reject', APPROVERS, () => ({ comment: 'Friday is missing' })),
  { ...onSubmission('POST', '/withdraw', APPROVERS), hidden: ['member', 'guest'] },
);

describe('permission matrix: approvals', () => {
  it('has a row for every approvals route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/approvals(\/.*)?$/, 8)).toEqual([]);
  });
});

// ---- client invoices (issue 17) -------------------------------------------------------------

/** Owners and admins only (`invoices:manage`); each call gets fresh unbilled time of a new client. */
let invoiceDay = 0;
const unbilledTime = async () => {
  const day = new Date(Date.UTC(2024, 0, 1) + invoiceDay++ * 86_400_000).toISOString().slice(0, 10);
  const clientId = (await ownerCall('POST', w('/clients'), { name: named('Invoiced') })).id as string;
  const projectId = (await ownerCall('POST', w('/projects'), { name: named('Billed'), clientId })).id as string;
  await ownerCall('POST', w('/time-entries'), { start: `${day}T10:00:00Z`, duration: '1h', projectId, billable: true });
  return { clientId, from: day, to: day, groupBy: 'project' };
};
const aDraftInvoice = async () => (await ownerCall('POST', w('/client-invoices'), await unbilledTime())).id as string;
const anIssuedInvoice = async () => {
  const id = await aDraftInvoice();
  await ownerCall('POST', w(`/client-invoices/${id}/issue`));
  return id;
};
const draftInvoice = on('client-invoices', 'invoiceId', aDraftInvoice);
const issuedInvoice = on('client-invoices', 'invoiceId', anIssuedInvoice);
const invoiceRoutes: Route[] = [
  top('GET', '/client-invoice-settings', ADMINS),
  top('PUT', '/client-invoice-settings', ADMINS, () => ({ paymentDetails: 'IBAN XX00' })),
  top('GET', '/client-invoices', ADMINS, undefined, '?status=draft'),
  top('POST', '/client-invoices/preview', ADMINS, unbilledTime),
  top('POST', '/client-invoices', ADMINS, unbilledTime),
  draftInvoice('GET', '', ADMINS),
  draftInvoice('PATCH', '', ADMINS, () => ({ notes: 'Thanks' })),
  draftInvoice('DELETE', '', ADMINS),
  draftInvoice('POST', '/issue', ADMINS),
  issuedInvoice('POST', '/mark-sent', ADMINS),
  issuedInvoice('POST', '/mark-paid', ADMINS, () => ({ paidOn: '2024-12-31' })),
  issuedInvoice('POST', '/void', ADMINS),
  draftInvoice('GET', '/pdf', ADMINS),
  issuedInvoice('POST', '/send', ADMINS, () => ({ to: ['client@example.com'] })),
];
routes.push(...invoiceRoutes);

describe('permission matrix: client invoices', () => {
  it('has a row for every client invoice route', () => {
    const family = /^\/api\/v1\/workspaces\/\{workspaceId\}\/client-invoice(s|-settings)(\/.*)?$/;
    expect(missingRows(family, 14)).toEqual([]);
  });
});

// ---- workspace single sign-on (issue 18) ----------------------------------------------------

/**
 * Owners and admins set the workspace's identity provider and its domains. The SAML settings are
 * stored as given (nothing reaches the identity provider until someone signs in); a domain's TXT
 * record is published on the file's DNS server before its verification.
 */
const SAML_SETTINGS = {
  protocol: 'saml',
  entryPoint: 'https://idp.example.com/sso',
  idpIssuer: 'https://idp.example.com',
  idpCertificate: `-----BEGIN CERTIFICATE-----\n${'A'.repeat(200)}\n-----END CERTIFICATE-----`,
};
const ssoConfigured = async () => {
  const saved = await ctx.call('PUT', w('/sso'), people.owner.cookie, SAML_SETTINGS);
  if (saved.statusCode !== 200) throw new Error(`fixture sso: ${saved.body}`);
};
let ssoDomains = 0;
const ssoRoutes: Route[] = [
  top('GET', '/sso', ADMINS),
  top('PUT', '/sso', ADMINS, () => SAML_SETTINGS),
  {
    path: '/workspaces/:id/sso',
    method: 'DELETE',
    prepare: async () => {
      await ssoConfigured();
      return { url: w('/sso') };
    },
    allowed: ADMINS,
  },
  top('POST', '/sso/domains', ADMINS, () => ({ domain: `d${++ssoDomains}.example.org` })),
  {
    path: '/workspaces/:id/sso/domains/:domain',
    method: 'DELETE',
    prepare: async () => {
      const domain = `gone${++ssoDomains}.example.org`;
      await ownerCall('POST', w('/sso/domains'), { domain });
      return { url: w(`/sso/domains/${domain}`) };
    },
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/sso/domains/:domain/verify',
    method: 'POST',
    prepare: async () => {
      const domain = `proved${++ssoDomains}.example.org`;
      const view = await ownerCall('POST', w('/sso/domains'), { domain });
      const { record } = view.domains.find((d: { domain: string }) => d.domain === domain);
      dns.txt.set(record.name, [record.value]);
      return { url: w(`/sso/domains/${domain}/verify`) };
    },
    allowed: ADMINS,
  },
];
routes.push(...ssoRoutes);

describe('permission matrix: single sign-on', () => {
  it('has a row for every workspace SSO route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/sso(\/.*)?$/, 6)).toEqual([]);
  });
});

// ---- notifications (issue 17) ---------------------------------------------------------------

/** A notification of `who` (the owner's for an outsider, who is not a member), straight in the table. */
async function notificationOf(who: Who): Promise<string> {
  const id = newId();
  await ctx.t.db
    .insertInto('notifications')
    .values({
      id,
      workspace_id: ws,
      user_id: people[who === 'outsider' ? 'owner' : who].userId,
      kind: 'budget_alert',
      title: 'A budget alert',
      body: 'Used 48 of 60 minutes.',
      link: null,
      read_at: null,
      created_at: new Date(),
    })
    .execute();
  return id;
}

// Every member reads and marks read their own notifications.
routes.push(
  top('GET', '/notifications', ALL_ROLES),
  top('POST', '/notifications/read', ALL_ROLES),
  top('GET', '/notifications/settings', ALL_ROLES),
  top('PUT', '/notifications/settings', ALL_ROLES, () => ({
    items: [{ kind: 'budget_alert', inApp: true, email: false }],
  })),
  {
    path: '/workspaces/:id/notifications/:notificationId/read',
    method: 'POST',
    prepare: async (who) => ({ url: w(`/notifications/${await notificationOf(who)}/read`) }),
    allowed: ALL_ROLES,
  },
);

describe('permission matrix: notifications', () => {
  it('has a row for every notifications route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/notifications(\/.*)?$/, 5)).toEqual([]);
  });

  it("answers 404 for someone else's notification", async () => {
    const owners = await notificationOf('owner');
    const response = await ctx.call('POST', w(`/notifications/${owners}/read`), people.admin.cookie);
    expect(response.statusCode).toBe(404);
  });
});

// ---- custom roles (issue 18) ----------------------------------------------------------------

let roleCount = 0;
const roleBody = () => ({
  name: named(`Role ${++roleCount}`),
  baseRole: 'member',
  permissions: ['time:track', 'time:view_others'],
});
const aRole = async () => (await ownerCall('POST', w('/roles'), roleBody())).id as string;
/** Defining and giving custom roles is `roles:manage`: owners and admins, never a custom role. */
const roleRoutes: Route[] = [
  top('GET', '/roles', ADMINS),
  top('POST', '/roles', ADMINS, roleBody),
  on('roles', 'roleId', aRole)('GET', '', ADMINS),
  on('roles', 'roleId', aRole)('PUT', '', ADMINS, roleBody),
  on('roles', 'roleId', aRole)('DELETE', '', ADMINS),
  {
    path: '/workspaces/:id/members/:userId/custom-role',
    method: 'PUT',
    prepare: async () => ({
      url: w(`/members/${await fresh.member()}/custom-role`),
      body: { customRoleId: await aRole() },
    }),
    allowed: ADMINS,
  },
  {
    path: '/workspaces/:id/groups/:groupId/custom-role',
    method: 'PUT',
    prepare: async () => ({
      url: w(`/groups/${await fresh.group()}/custom-role`),
      body: { customRoleId: await aRole() },
    }),
    allowed: ADMINS,
  },
];
routes.push(...roleRoutes);

/** The SCIM token (Pro, with SSO): owners and admins; each DELETE finds one to revoke. */
routes.push(top('GET', '/scim-token', ADMINS), top('POST', '/scim-token', ADMINS), {
  path: '/workspaces/:id/scim-token',
  method: 'DELETE',
  prepare: async () => {
    await ownerCall('POST', w('/scim-token'));
    return { url: w('/scim-token') };
  },
  allowed: ADMINS,
});

/**
 * A member holding a custom role ("Reviewer": a Regular user's permissions, plus seeing others'
 * time, minus editing granted projects) goes through the same checks as the built-in roles.
 */
describe('permission matrix: custom roles', () => {
  let reviewer: SignedUp;
  let projectId: string;
  let ownersEntry: string;
  beforeAll(async () => {
    reviewer = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, { workspaceId: ws, userId: reviewer.userId, role: 'member' });
    const memberSet = (await ctx.call('GET', w(), people.member.cookie)).json().permissions as string[];
    const role = await ownerCall('POST', w('/roles'), {
      name: named('Reviewer'),
      baseRole: 'member',
      permissions: [...memberSet.filter((p) => p !== 'projects:edit_granted'), 'time:view_others'],
    });
    const given = await ctx.call('PUT', w(`/members/${reviewer.userId}/custom-role`), people.owner.cookie, {
      customRoleId: role.id,
    });
    if (given.statusCode !== 204) throw new Error(`fixture custom role: ${given.body}`);
    projectId = (await ownerCall('POST', w('/projects'), { name: named('Reviewed'), isPublic: true })).id;
    await ctx.call('PUT', w(`/projects/${projectId}/people`), people.owner.cookie, {
      userIds: [reviewer.userId, people.member.userId],
      groupIds: [],
      managerUserIds: [reviewer.userId, people.member.userId],
    });
    ownersEntry = (await ownerCall('POST', w('/time-entries'), { start: hourAgo(), duration: '5m' })).id;
  });

  it('has a row for every roles route', () => {
    expect(
      missingRows(
        /^\/api\/v1\/workspaces\/\{workspaceId\}\/(roles(\/.*)?|scim-token|(members|groups)\/\{\w+\}\/custom-role)$/,
        10,
      ),
    ).toEqual([]);
  });

  const as = (cookie: string, method: Route['method'], url: string, body?: object) =>
    ctx.call(method, w(url), cookie, body).then((r) => r.statusCode);

  it("sees others' time where a Regular user may not", async () => {
    expect(await as(people.member.cookie, 'GET', `/time-entries?userId=${people.owner.userId}`)).toBe(403);
    expect(await as(reviewer.cookie, 'GET', `/time-entries?userId=${people.owner.userId}`)).toBe(200);
    expect(await as(reviewer.cookie, 'GET', `/time-entries/${ownersEntry}`)).toBe(200);
  });

  it("may not edit others' time, nor a project granted to them, where a Regular user may", async () => {
    expect(await as(reviewer.cookie, 'PATCH', `/time-entries/${ownersEntry}`, { note: 'x' })).toBe(403);
    expect(await as(people.member.cookie, 'PATCH', `/projects/${projectId}`, { name: named('Granted') })).toBe(200);
    expect(await as(reviewer.cookie, 'PATCH', `/projects/${projectId}`, { name: named('Granted') })).toBe(403);
    expect(await as(reviewer.cookie, 'POST', '/projects', { name: named('Own') })).toBe(403);
  });

  it('keeps what a Regular user may and may not do elsewhere', async () => {
    expect(await as(reviewer.cookie, 'GET', '/members')).toBe(200);
    expect(await as(reviewer.cookie, 'POST', '/tag-lists', { name: named('Tags') })).toBe(403);
    expect(await as(reviewer.cookie, 'GET', '/roles')).toBe(403);
    expect(await as(reviewer.cookie, 'PATCH', '', { name: 'Renamed' })).toBe(403);
  });
});

// webhooks (issue 34): owners and admins
/** A new webhook of the owner's, pending (its endpoint, a closed port, never answers the challenge). */
async function aWebhook(): Promise<string> {
  return (await ownerCall('POST', w('/webhooks'), { url: 'http://127.0.0.1:1/hook', events: ['*'] })).id;
}
/** A delivery of an event to a webhook made active for it, to send again. */
async function aDelivery(): Promise<{ webhookId: string; deliveryId: string }> {
  const webhookId = await aWebhook();
  await ctx.t.db.updateTable('webhooks').set({ validated_at: new Date() }).where('id', '=', webhookId).execute();
  const deliveryId = newId();
  await ctx.t.db
    .insertInto('webhook_deliveries')
    .values({
      id: deliveryId,
      workspace_id: ws,
      webhook_id: webhookId,
      event_id: newId(),
      event_type: 'project.created',
      payload: '{}',
      finished_at: null,
    })
    .execute();
  return { webhookId, deliveryId };
}
const webhook = (method: Route['method'], path: string, body?: object): Route => ({
  path: `/workspaces/:id/webhooks/:webhookId${path}`,
  method,
  prepare: async () => ({ url: w(`/webhooks/${await aWebhook()}${path}`), ...(body ? { body } : {}) }),
  allowed: ADMINS,
});
routes.push(
  {
    path: '/workspaces/:id/webhook-events',
    method: 'GET',
    prepare: async () => ({ url: w('/webhook-events') }),
    allowed: ADMINS,
  },
  { path: '/workspaces/:id/webhooks', method: 'GET', prepare: async () => ({ url: w('/webhooks') }), allowed: ADMINS },
  {
    path: '/workspaces/:id/webhooks',
    method: 'POST',
    prepare: async () => ({
      url: w('/webhooks'),
      body: { url: 'http://127.0.0.1:1/hook', events: ['project.created'] },
    }),
    allowed: ADMINS,
  },
  webhook('GET', ''),
  webhook('PATCH', '', { description: 'Renamed' }),
  webhook('DELETE', ''),
  webhook('POST', '/validate'),
  webhook('GET', '/secret'),
  webhook('POST', '/secret/rotate'),
  webhook('GET', '/deliveries'),
  {
    path: '/workspaces/:id/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    method: 'POST',
    prepare: async () => {
      const { webhookId, deliveryId } = await aDelivery();
      return { url: w(`/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`) };
    },
    allowed: ADMINS,
  },
);

describe('permission matrix: webhooks', () => {
  it('has a row for every webhook route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/(webhooks|webhook-events)(\/.*)?$/, 11)).toEqual([]);
  });
});

// ---- calendars: the private feed of one's time ---------------------------------------------

/** A feed of the person's own in the workspace, to change or remove (an outsider has none to make). */
async function feedOf(who: Who): Promise<string> {
  if (who !== 'outsider') {
    const response = await ctx.call('POST', w('/calendar-feed'), people[who].cookie, {});
    if (response.statusCode !== 201) throw new Error(`fixture calendar feed: ${response.body}`);
  }
  return w('/calendar-feed');
}

// Each member has a feed of their own; the team's time in it is checked in calendars.feed.int.test.ts.
routes.push(
  top('GET', '/calendar-feed', ALL_ROLES),
  top('POST', '/calendar-feed', ALL_ROLES, () => ({})),
  {
    path: '/workspaces/:id/calendar-feed',
    method: 'PATCH',
    prepare: async (who) => ({ url: await feedOf(who), body: { includeTeam: false } }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/calendar-feed',
    method: 'DELETE',
    prepare: async (who) => ({ url: await feedOf(who) }),
    allowed: ALL_ROLES,
  },
);

/** A calendar served on this machine, for subscribing (the app may read private addresses here). */
let calendarServer: http.Server;
let calendarUrl = '';
beforeAll(async () => {
  calendarServer = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/calendar' });
    response.end('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Matrix//EN\r\nEND:VCALENDAR\r\n');
  });
  await new Promise<void>((resolve) => calendarServer.listen(0, '127.0.0.1', resolve));
  calendarUrl = `http://127.0.0.1:${(calendarServer.address() as AddressInfo).port}/cal.ics`;
  return () => new Promise<void>((resolve) => calendarServer.close(() => resolve()));
});

/** A subscription of the person's own, straight in the table (an outsider's is the owner's: 404 to them). */
async function subscriptionOf(who: Who): Promise<string> {
  const id = newId();
  await ctx.t.db
    .insertInto('calendar_subscriptions')
    .values({
      id,
      workspace_id: ws,
      user_id: people[who === 'outsider' ? 'owner' : who].userId,
      name: 'Work',
      host: '127.0.0.1:1',
      url_sealed: ctx.t.app.services.secrets.seal('http://127.0.0.1:1/cal.ics', `calendar-subscription:${id}`),
    })
    .execute();
  return id;
}

/** A past event of one of the person's calendars, to turn into an entry. */
async function calendarEventOf(who: Who): Promise<string> {
  const subscriptionId = await subscriptionOf(who);
  const id = newId();
  await ctx.t.db
    .insertInto('calendar_events')
    .values({
      id,
      workspace_id: ws,
      subscription_id: subscriptionId,
      uid: `${id}@matrix`,
      occurrence: '',
      recurring: false,
      title: 'Meeting',
      location: '',
      start_at: new Date(Date.now() - 2 * 3_600_000),
      end_at: new Date(Date.now() - 3_600_000),
    })
    .execute();
  return id;
}

/** A keyword rule of the person's own, on a public project. */
async function calendarRuleOf(who: Who): Promise<string> {
  const projectId = (await ownerCall('POST', w('/projects'), { name: named('Ruled'), isPublic: true })).id;
  const id = newId();
  await ctx.t.db
    .insertInto('calendar_rules')
    .values({
      id,
      workspace_id: ws,
      user_id: people[who === 'outsider' ? 'owner' : who].userId,
      contains: 'sync',
      project_id: projectId,
    })
    .execute();
  return id;
}

// Each member subscribes their own calendars and turns their own events into their own time.
routes.push(
  top('GET', '/calendar-subscriptions', ALL_ROLES),
  {
    path: '/workspaces/:id/calendar-subscriptions',
    method: 'POST',
    prepare: async () => ({ url: w('/calendar-subscriptions'), body: { url: calendarUrl } }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/calendar-subscriptions/:subscriptionId',
    method: 'DELETE',
    prepare: async (who) => ({ url: w(`/calendar-subscriptions/${await subscriptionOf(who)}`) }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/calendar-subscriptions/:subscriptionId/refresh',
    method: 'POST',
    prepare: async (who) => ({ url: w(`/calendar-subscriptions/${await subscriptionOf(who)}/refresh`) }),
    allowed: ALL_ROLES,
  },
  top('GET', '/calendar-events', ALL_ROLES, undefined, '?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z'),
  {
    path: '/workspaces/:id/calendar-events/:eventId/entry',
    method: 'POST',
    prepare: async (who) => ({ url: w(`/calendar-events/${await calendarEventOf(who)}/entry`), body: {} }),
    allowed: ALL_ROLES,
  },
  top('GET', '/calendar-rules', ALL_ROLES),
  {
    path: '/workspaces/:id/calendar-rules',
    method: 'POST',
    prepare: async () => {
      const projectId = (await ownerCall('POST', w('/projects'), { name: named('Rule'), isPublic: true })).id;
      return { url: w('/calendar-rules'), body: { contains: 'sync', projectId } };
    },
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/calendar-rules/:ruleId',
    method: 'DELETE',
    prepare: async (who) => ({ url: w(`/calendar-rules/${await calendarRuleOf(who)}`) }),
    allowed: ALL_ROLES,
  },
);

describe('permission matrix: calendars', () => {
  it('has a row for every calendar route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/calendar-[a-z-]+(\/.*)?$/, 13)).toEqual([]);
  });
});

// ---- computer time (issue 35) ----------------------------------------------------------------

/** A pairing an agent started (no sign-in): its user code. */
async function agentCode(): Promise<{ userCode: string; deviceCode: string }> {
  const response = await ctx.call('POST', '/api/v1/agent/device-codes', undefined, {
    name: 'matrix-pc',
    platform: 'linux',
    agentVersion: '0.1.0',
  });
  if (response.statusCode !== 200) throw new Error(`fixture device code: ${response.body}`);
  return response.json();
}

/** A computer the person paired in a workspace of theirs (the outsider in their own): its id and token. */
async function pairedDevice(who: Who): Promise<{ deviceId: string; token: string }> {
  const { userCode, deviceCode } = await agentCode();
  const workspaceId = who === 'outsider' ? people.outsider.workspaceId : ws;
  const approved = await ctx.call('POST', '/api/v1/agent/device-codes/approve', people[who].cookie, {
    userCode,
    workspaceId,
  });
  if (approved.statusCode !== 204) throw new Error(`fixture approve: ${approved.body}`);
  const token = await ctx.call('POST', '/api/v1/agent/device-token', undefined, { deviceCode });
  if (token.statusCode !== 200) throw new Error(`fixture device token: ${token.body}`);
  return token.json();
}

const deviceOf = async (who: Who): Promise<string> => (await pairedDevice(who)).deviceId;

const awayTokens = new Map<Who, Promise<{ token: string }>>();
let awayCount = 0;
/** A new away period of the person's (the outsider's in their own workspace): its start and end. */
async function awayPeriodOf(who: Who): Promise<{ start: string; end: string }> {
  const device = awayTokens.get(who) ?? pairedDevice(who);
  awayTokens.set(who, device);
  awayCount += 1;
  const startMs = Date.parse('2026-01-05T00:00:00Z') + awayCount * 3_600_000;
  const [start, end] = [new Date(startMs).toISOString(), new Date(startMs + 600_000).toISOString()];
  const response = await ctx.t.app.inject({
    method: 'POST',
    url: '/api/v1/agent/spans',
    headers: { authorization: `Bearer ${(await device).token}` },
    payload: {
      spans: [
        {
          id: newId(),
          kind: 'away',
          startedAt: start,
          endedAt: end,
          app: null,
          title: null,
          url: null,
          awayReason: 'idle',
        },
      ],
    },
  });
  if (response.statusCode !== 200) throw new Error(`fixture away span: ${response.body}`);
  return { start, end };
}

const ctSettings = {
  keep: 'titles',
  idleSeconds: 180,
  retentionDays: null,
  managersSeeActivity: false,
  exclusions: [],
};
const ctRange = '?from=2026-01-05T00:00:00Z&to=2026-01-06T00:00:00Z';
/** A category of the workspace, made fresh by its owner. */
const aCategory = async () =>
  (await ownerCall('POST', w('/computer-time/categories'), { name: `Category ${Math.random()}` })).id as string;
const category = on('computer-time/categories', 'categoryId', aCategory);

// Each person pairs and revokes their own computers; the workspace's activity is each person's own.
routes.push(
  {
    path: '/agent/device-codes/:userCode',
    method: 'GET',
    prepare: async () => ({ url: `/api/v1/agent/device-codes/${(await agentCode()).userCode}` }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/agent/device-codes/approve',
    method: 'POST',
    prepare: async (who) => ({
      url: '/api/v1/agent/device-codes/approve',
      body: {
        userCode: (await agentCode()).userCode,
        workspaceId: who === 'outsider' ? people.outsider.workspaceId : ws,
      },
    }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/agent/device-codes/deny',
    method: 'POST',
    prepare: async () => ({ url: '/api/v1/agent/device-codes/deny', body: { userCode: (await agentCode()).userCode } }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/devices',
    method: 'GET',
    prepare: async () => ({ url: '/api/v1/me/devices' }),
    allowed: ALL_ROLES,
    personal: true,
  },
  {
    path: '/me/devices/:deviceId',
    method: 'DELETE',
    prepare: async (who) => ({ url: `/api/v1/me/devices/${await deviceOf(who)}` }),
    allowed: ALL_ROLES,
    personal: true,
  },
  top('GET', '/computer-time/settings', ALL_ROLES),
  top('PUT', '/computer-time/settings', ADMINS, async () => ctSettings),
  top('GET', '/computer-time/group-settings', ALL_ROLES),
  on('computer-time/group-settings', 'groupId', () => fresh.group())('PUT', '', ADMINS, async () => ({
    keep: 'apps',
    managersSeeActivity: null,
  })),
  top('GET', '/computer-time/spans', ALL_ROLES, undefined, ctRange),
  top('DELETE', '/computer-time/spans', ALL_ROLES, undefined, ctRange),
  top('GET', '/computer-time/activities', ALL_ROLES, undefined, '?from=2026-01-05&to=2026-01-11'),
  top('GET', '/computer-time/categories', ALL_ROLES),
  top('POST', '/computer-time/categories', ADMINS, async () => ({ name: `New ${Math.random()}` })),
  category('PATCH', '', ADMINS, async () => ({ productivity: 'productive' })),
  category('DELETE', '', ADMINS),
  top('GET', '/computer-time/away-activities', ALL_ROLES),
  top('PUT', '/computer-time/away-activities', ADMINS, async () => ({
    items: [{ id: 'meeting', name: 'Meeting', makes: 'entry' }],
  })),
  top('GET', '/computer-time/away', ALL_ROLES, undefined, ctRange),
  // Each person answers their own away periods only (the outsider's are in their own workspace).
  {
    path: '/workspaces/:id/computer-time/away/resolve',
    method: 'POST',
    prepare: async (who) => ({
      url: w('/computer-time/away/resolve'),
      body: { ...(await awayPeriodOf(who)), outcome: 'dismissed' },
    }),
    allowed: ALL_ROLES,
  },
  {
    path: '/workspaces/:id/computer-time/away/resolutions',
    method: 'DELETE',
    prepare: async (who) => {
      const period = await awayPeriodOf(who);
      const body = { ...period, outcome: 'dismissed' };
      if (who !== 'outsider') await ctx.call('POST', w('/computer-time/away/resolve'), people[who].cookie, body);
      return { url: w(`/computer-time/away/resolutions?start=${encodeURIComponent(period.start)}`) };
    },
    allowed: ALL_ROLES,
  },
);

/** A fresh day for a contract (one a person and day), and a contract of the member made by the owner. */
let contracts = 0;
const contractDay = () => new Date(Date.UTC(2030, 0, 1 + contracts++)).toISOString().slice(0, 10);
`20${String(10 + Math.floor(Math.random() * 89))}-0${1 + Math.floor(Math.random() * 9)}-${String(10 + Math.floor(Math.random() * 18))}`;
const contractBody = async () => ({
  userId: people.member.userId,
  startsOn: contractDay(),
  weekdayMinutes: [480, 480, 480, 480, 480, 0, 0],
});
const aContract = async () => (await ownerCall('POST', w('/attendance/contracts'), await contractBody())).id as string;

// Attendance (issue 37): everyone reads the settings, their own contracts and overtime; owners and admins change them.
routes.push(
  top('GET', '/attendance/settings', ALL_ROLES),
  top('PUT', '/attendance/settings', ADMINS, async () => ({
    country: 'DE',
    region: 'BY',
    rules: 'de',
    addLegalBreaks: false,
  })),
  top('GET', '/attendance/contracts', ALL_ROLES),
  top('POST', '/attendance/contracts', ADMINS, contractBody),
  on('attendance/contracts', 'contractId', aContract)('DELETE', '', ADMINS),
  top('GET', '/attendance/overtime', ALL_ROLES, undefined, '?from=2026-01-05&to=2026-01-11'),
);

describe('permission matrix: attendance', () => {
  it('has a row for every attendance route', () => {
    expect(missingRows(/^\/api\/v1\/workspaces\/\{workspaceId\}\/attendance\/.*$/, 5)).toEqual([]);
  });
});

describe('permission matrix: computer time', () => {
  it('has a row for every computer time route and every signed-in agent route', () => {
    expect(
      missingRows(/^\/api\/v1\/(workspaces\/\{workspaceId\}\/computer-time\/.*|agent\/device-codes\/.+)$/, 15),
    ).toEqual([]);
  });
});
