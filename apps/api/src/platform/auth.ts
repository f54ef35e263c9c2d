import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Session, User } from '../db/tables.js';
import { entitledMembership } from './access.js';
import type { RequestAuth, StoredMembership } from './actor.js';
import { AppError } from './errors.js';
import { requestContext } from './request-context.js';
import type { SessionStore, StartedSession } from './sessions.js';

export type { RequestAuth } from './actor.js';
export { requireAuth, requireMembership } from './actor.js';

/** Recognises who sent a request; null when the request carries nothing it knows. */
export interface Authenticator {
  /**
   * `workspaceId`: the (well-formed) workspace of the URL, so an authenticator that can may load the
   * membership in the same query (`RequestAuth.membership`).
   */
  authenticate(request: FastifyRequest, context?: { workspaceId?: string }): Promise<RequestAuth | null>;
}

/**
 * Recognises the token of an `Authorization: Bearer <token>` header (an API key, a device token);
 * null when the token is not one of its own.
 */
export interface TokenAuthenticator {
  authenticate(token: string, request: FastifyRequest): Promise<RequestAuth | null>;
}

/** `__Host-` needs Secure, which a plain-http localhost cannot have; there the name is plain. */
export const sessionCookieName = (config: Pick<Config, 'secureCookies'>) =>
  config.secureCookies ? '__Host-sid' : 'sundial_sid';

/**
 * The known-device cookie the password log-in sets (modules/auth): a browser's own budget of
 * wrong passwords and of wrong second-step codes. `__Host-` needs Secure, as above.
 */
export const deviceCookieName = (config: Pick<Config, 'secureCookies'>) =>
  config.secureCookies ? '__Host-device' : 'sundial_device';

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

/**
 * The challenge of a sign-in's second step (2FA) when an identity provider proved the first: its
 * redirect back cannot answer JSON as the password does, so the browser keeps the challenge here
 * (HttpOnly, only sent to /api/v1/auth) until the code is sent with it.
 */
export const CHALLENGE_COOKIE = 'sundial_2fa_challenge';
const challengeCookieOptions = (config: Pick<Config, 'secureCookies'>) => ({
  path: '/api/v1/auth',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: config.secureCookies,
});

export function setChallengeCookie(reply: FastifyReply, config: Config, challenge: string, expiresAt: Date): void {
  reply.setCookie(CHALLENGE_COOKIE, challenge, { ...challengeCookieOptions(config), expires: expiresAt });
}

export function clearChallengeCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(CHALLENGE_COOKIE, challengeCookieOptions(config));
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(sessionCookieName(config), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
  });
}

/** A live session as the app's lookup found it: with its user, and their membership when asked. */
export interface SignedIn {
  session: Pick<Session, 'remember' | 'last_seen_at' | 'expires_at'> & { enrolment_only?: boolean };
  user: User;
  /** The active membership of the workspace asked about; null when there is none. */
  membership?: StoredMembership | null;
  /** That workspace requires SSO of the member and this session did not come through its provider. */
  ssoUnproved?: boolean;
}

/**
 * Finds the live session of a secret (`liveSessions`), its user and, given a workspace id, the
 * user's active membership of it: in one query, so a request costs one round trip to authenticate.
 */
export type SignedInLookup = (
  secret: string,
  options: { now: Date; workspaceId?: string },
) => Promise<SignedIn | undefined>;

/**
 * The browser's way in: the session cookie, when it names a live session of a known user.
 * The lookup is wired in by the app (the platform knows no feature tables).
 */
export function createSessionAuthenticator(deps: {
  sessions: Pick<SessionStore, 'renew'>;
  findSignedIn: SignedInLookup;
  config: Pick<Config, 'secureCookies' | 'billing'>;
}): Authenticator {
  return {
    async authenticate(request, context = {}) {
      const secret = request.cookies[sessionCookieName(deps.config)];
      if (!secret) return null;
      const now = new Date();
      const found = await deps.findSignedIn(secret, { now, workspaceId: context.workspaceId });
      if (!found) return null;
      await deps.sessions.renew(secret, found.session, now);
      return {
        user: found.user,
        method: 'session',
        sessionSecret: secret,
        ...(found.session.enrolment_only ? { enrolmentOnly: true } : {}),
        ...(found.ssoUnproved ? { ssoUnproved: true } : {}),
        ...(found.membership === undefined
          ? {}
          : { membership: found.membership && entitledMembership(found.membership, deps.config.billing, now) }),
      };
    },
  };
}

const badToken = (message: string) =>
  new AppError('unauthenticated', message, {
    status: 401,
    headers: { 'www-authenticate': 'Bearer' },
  });

/** Whether the request names a bearer token (then the token alone decides who sent it). */
export const hasBearer = (request: FastifyRequest): boolean =>
  /^Bearer(\s|$)/i.test(request.headers.authorization ?? '');

/**
 * Who sent the request. A request with `Authorization: Bearer` is judged by that token alone: it
 * goes to the token authenticators, and a token none of them knows is a 401, never a quiet fall
 * back to the session cookie sent beside it. Without a bearer token, the session decides.
 */
export function createRequestAuthenticator(deps: {
  session: Authenticator;
  tokens?: readonly TokenAuthenticator[];
}): Authenticator {
  const tokens = deps.tokens ?? [];
  return {
    async authenticate(request, context) {
      const header = request.headers.authorization ?? '';
      // Other schemes (a proxy's Basic login in front of the app) are not ours to judge.
      if (!hasBearer(request)) return deps.session.authenticate(request, context);
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match?.[1]) throw badToken('The Authorization header must be "Bearer <token>", with the token.');
      for (const authenticator of tokens) {
        const auth = await authenticator.authenticate(match[1], request);
        if (auth) {
          const context = requestContext();
          if (context && auth.apiKeyId) context.apiKeyId = auth.apiKeyId;
          return { ...auth, method: 'token' };
        }
      }
      throw badToken('The bearer token is not valid: it is unknown, expired or revoked.');
    },
  };
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
