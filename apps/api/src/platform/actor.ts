import type { ClockFormat, Feature, Permission, Role } from '@sundial/core';
import type { FastifyRequest } from 'fastify';
import type { Membership, User, Workspace } from '../db/tables.js';
import { AppError, unauthenticated } from './errors.js';

/** How the request proved who sent it: the browser's session cookie, or a bearer token (API key, device). */
export type AuthMethod = 'session' | 'token';

/** Who sent the request, as the authenticator that recognised it found them. */
export interface RequestAuth {
  user: User;
  method: AuthMethod;
  /** The API key that signed the request, when one did (the audit log names it). */
  apiKeyId?: string;
  /** The session's secret when a session cookie signed the request; a token has none to keep or end. */
  sessionSecret?: string;
  /** The session may only set up two-factor authentication (a workspace requires it; app.ts enforces). */
  enrolmentOnly?: boolean;
  /**
   * The URL's workspace requires SSO of this member and the session was not proved by its identity
   * provider: app.ts refuses its routes (403 sso_required) but leaving it.
   */
  ssoUnproved?: boolean;
  /**
   * The active membership of the URL's workspace, when the authenticator found it with the user
   * (null: not a member); absent when it did not look, and the workspace hook looks it up.
   */
  membership?: MembershipWithWorkspace | null;
}

/** A person's membership of a workspace as stored, with the workspace. */
export interface StoredMembership {
  workspace: Workspace;
  role: Role;
  status: Membership['status'];
  /** The member's custom role (Pro), when they hold one; `role` is then its base role, the fallback. */
  customRole?: { id: string; name: string; permissions: readonly string[] } | null;
  /** The permission sets of the custom roles of the member's groups (added to theirs). */
  groupRolePermissions?: readonly (readonly string[])[];
}

/**
 * A membership as it acts now (`entitledMembership` in access.ts): the plan's features and the
 * role in force, a Manager acting as a Member while the plan lacks management roles.
 */
export interface MembershipWithWorkspace extends Omit<StoredMembership, 'customRole'> {
  /** What the member may do now: every access check reads this (access.ts `allows`). */
  permissions: ReadonlySet<Permission>;
  /** The custom role in force (null without one, or while the plan lacks custom roles). */
  customRole: { id: string; name: string } | null;
  /** The role as stored; `role` is the one in force. */
  assignedRole: Role;
  /** BILLING=on: plans are sold here (off: every feature, no seat limit). */
  billing: boolean;
  /** The features the workspace may use now. */
  features: readonly Feature[];
}

/**
 * The one request context every workspace service takes: who acts (user), in which workspace and
 * with which role (membership), and how the request was authenticated.
 */
export interface Actor {
  user: User;
  userId: string;
  membership: MembershipWithWorkspace;
  via: AuthMethod;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: RequestAuth;
    membership?: MembershipWithWorkspace;
  }
}

/** How a person reads dates and times (their profile): what a file made for them is written in. */
export const clockFormatOf = (user: Pick<User, 'date_format' | 'time_format' | 'time_zone'>): ClockFormat => ({
  dateFormat: user.date_format,
  timeFormat: user.time_format,
  timeZone: user.time_zone,
});

/** The signed-in user, or 401. */
export function requireAuth(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

/** The membership the workspace hook loaded for `/workspaces/:workspaceId/...` routes. */
export function requireMembership(request: FastifyRequest): MembershipWithWorkspace {
  if (!request.membership) throw new AppError('internal_error', 'Workspace was not loaded.', { status: 500 });
  return request.membership;
}

/** The signed-in user acting in the workspace of the URL. */
export function actorOf(request: FastifyRequest): Actor {
  const auth = requireAuth(request);
  return { user: auth.user, userId: auth.user.id, membership: requireMembership(request), via: auth.method };
}
