import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { User } from '../db/tables.js';
import { usersRepository } from '../modules/users/users.repository.js';
import type { MembershipWithWorkspace } from '../modules/workspaces/workspaces.repository.js';
import type { Services } from '../services.js';
import { AppError, unauthenticated } from './errors.js';
import type { StartedSession } from './sessions.js';

export interface RequestAuth {
  user: User;
  sessionSecret: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: RequestAuth;
    membership?: MembershipWithWorkspace;
  }
}

/** `__Host-` needs Secure, which a plain-http localhost cannot have; there the name is plain. */
export const sessionCookieName = (config: Pick<Config, 'secureCookies'>) =>
  config.secureCookies ? '__Host-sid' : 'sundial_sid';

export function setSessionCookie(reply: FastifyReply, config: Config, session: StartedSession): void {
  reply.setCookie(sessionCookieName(config), session.secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    // Without "remember me" the cookie ends with the browser; the server ends it sooner when idle.
    ...(session.remember ? { expires: session.expiresAt } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
  });
}

/** Loads the signed-in user from the session cookie, when there is a live session. */
export async function loadAuth(request: FastifyRequest, services: Services, config: Config): Promise<void> {
  const secret = request.cookies[sessionCookieName(config)];
  if (!secret) return;
  const session = await services.sessions.resume(secret);
  if (!session) return;
  const user = await usersRepository.findById(services.db, session.user_id);
  if (user) request.auth = { user, sessionSecret: secret };
}

/** The signed-in user, or 401. */
export function requireAuth(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

export function requireMembership(request: FastifyRequest): MembershipWithWorkspace {
  if (!request.membership) throw new AppError('internal_error', 'Workspace was not loaded.', { status: 500 });
  return request.membership;
}

/**
 * Refuses state-changing requests sent by another site's page. SameSite=Lax already keeps the
 * cookie off cross-site POSTs; this is the second lock on the door.
 */
export function assertSameOrigin(request: FastifyRequest): void {
  if (['GET', 'HEAD', 'OPTIONS'].includes(request.method)) return;
  const origin = request.headers.origin;
  if (!origin) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host !== request.headers.host) {
    throw new AppError('cross_origin', 'Requests from other sites are not allowed.', { status: 403 });
  }
}
