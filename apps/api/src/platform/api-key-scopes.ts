import type { ApiKeyArea, ApiKeyScopes } from '@sundial/core';
import { AppError } from './errors.js';

/**
 * What an API key needs for a route: an area read or written, `any` (a key of any area may, e.g.
 * who am I and which workspaces), or `never` (a signed-in browser only: sign-in, passwords, keys,
 * sessions, two-factor, SSO and SCIM settings, the workspace's ownership).
 */
export type KeyNeed = { area: ApiKeyArea; write: boolean } | 'any' | 'never';

/** The area of a workspace route, by the first segment after /workspaces/:workspaceId/. */
const WORKSPACE_AREAS: Record<string, ApiKeyArea | 'never'> = {
  approvals: 'time',
  'calendar-events': 'time',
  'calendar-rules': 'time',
  'calendar-subscriptions': 'time',
  notifications: 'time',
  'time-entries': 'time',
  'time-settings': 'time',
  timer: 'time',
  timers: 'time',
  // Activity the desktop agent uploaded (issue 35): read, deleted and its settings, like time.
  'computer-time': 'time',
  // Attendance (issue 37): contracts and overtime are people's time.
  attendance: 'time',
  clients: 'projects',
  imports: 'projects',
  'project-assignees': 'projects',
  'project-picker': 'projects',
  'project-suggestions': 'projects',
  projects: 'projects',
  rates: 'projects',
  'tag-lists': 'projects',
  'tag-settings': 'projects',
  tags: 'projects',
  tasks: 'projects',
  'client-invoice-settings': 'reports',
  'client-invoices': 'reports',
  reports: 'reports',
  'saved-reports': 'reports',
  'audit-log': 'team',
  'webhook-events': 'team',
  webhooks: 'team',
  groups: 'team',
  invites: 'team',
  leave: 'team',
  logo: 'team',
  members: 'team',
  roles: 'team',
  'team-settings': 'team',
  billing: 'billing',
  'api-keys': 'never',
  // The feed's address is a credential of its own: made, reset and removed in a browser only.
  'calendar-feed': 'never',
  owner: 'never',
  'scim-token': 'never',
  sso: 'never',
  'two-factor-policy': 'never',
};

/** Writes by method that only read: starting an export reads the report (its file is the answer). */
const READS_BY_POST = new Set(['/api/v1/workspaces/:workspaceId/reports/export-jobs']);

const WORKSPACE_ROUTE = /^\/api\/v1\/workspaces\/:workspaceId(?:\/([^/]+))?/;

/**
 * What a key needs to call `method` on the route pattern `url` (Fastify's, `/api/v1/…/:id`);
 * undefined for a workspace route nobody classified (every one is: api-routes.test.ts).
 */
export function keyNeedOf(method: string, url: string): KeyNeed | undefined {
  const write = !['GET', 'HEAD'].includes(method) && !READS_BY_POST.has(url);
  if (url === '/api/v1/me') return method === 'GET' ? 'any' : 'never';
  if (url === '/api/v1/workspaces') return write ? { area: 'team', write } : 'any';
  if (url.startsWith('/api/v1/me/') || url.startsWith('/api/v1/auth/')) return 'never';
  const match = WORKSPACE_ROUTE.exec(url);
  // The rest (invitations to accept, payments, shared links) is public or for a browser.
  if (!match) return 'never';
  const segment = match[1];
  if (segment === undefined) return write ? { area: 'team', write } : 'any';
  const area = WORKSPACE_AREAS[segment];
  if (area === undefined) return undefined;
  return area === 'never' ? 'never' : { area, write };
}

/** Whether a key's scopes cover a need. */
export function keyAllows(scopes: ApiKeyScopes, need: KeyNeed): boolean {
  if (need === 'any') return true;
  if (need === 'never') return false;
  const access = scopes[need.area];
  return access === 'write' || (access === 'read' && !need.write);
}

/** Refuses a key's call its scopes do not cover, saying what it lacks (403 key_scope); answers the need met. */
export function assertKeyScope(scopes: ApiKeyScopes, method: string, url: string): Exclude<KeyNeed, 'never'> {
  const need = keyNeedOf(method, url) ?? 'never';
  if (need !== 'never' && keyAllows(scopes, need)) return need;
  const message =
    need === 'never' || need === 'any'
      ? 'API keys cannot be used here: sign in to the app for passwords, keys, sessions, two-factor and SSO settings.'
      : `This API key has no ${need.write ? 'write' : 'read'} access to ${need.area}: give a key that access in your profile.`;
  throw new AppError('key_scope', message, { status: 403 });
}
