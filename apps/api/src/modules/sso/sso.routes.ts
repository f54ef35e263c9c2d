import { linkedIdentitiesView, socialProviderView, ssoLinkBody, ssoStartQuery, text } from '@sundial/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { requireAuth } from '../../platform/actor.js';
import { setChallengeCookie, setSessionCookie } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses } from '../../platform/schemas.js';
import { presentUser, userView } from '../users/users.presenter.js';
import { type SsoOutcome, STATE_MS } from './sso.service.js';

const tags = ['sso'];

/** The cookies of a sign-in under way: the browser's copy of its state, and a link request waiting for a password. */
export const STATE_COOKIE = 'sundial_sso_state';
const LINK_COOKIE = 'sundial_sso_link';
export const cookieOptions = (config: Pick<Config, 'secureCookies'>, maxAgeMs: number) => ({
  path: '/api/v1/auth',
  httpOnly: true,
  // Lax: the provider's redirect back is a top-level GET, which carries it; nothing else cross-site does.
  sameSite: 'lax' as const,
  secure: config.secureCookies,
  maxAge: Math.floor(maxAgeMs / 1000),
});

/**
 * The state cookie of a workspace sign-in. A SAML identity provider answers with a cross-site form
 * POST (HTTP-POST binding), which carries no Lax cookie. On https it is SameSite=None; Secure:
 * only the browser that started the sign-in holds the value its RelayState must equal, so sending
 * it cross-site gives nobody anything. On plain http (local use; None needs Secure) it has no
 * SameSite attribute, the browser's default: Firefox and Safari send it, Chrome within two minutes
 * of setting it (its Lax-by-default allowance for top-level POSTs).
 */
export const crossSitePostCookieOptions = (config: Pick<Config, 'secureCookies'>, maxAgeMs: number) => ({
  ...cookieOptions(config, maxAgeMs),
  sameSite: config.secureCookies ? ('none' as const) : undefined,
});

export const client = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

/**
 * Sends the browser on after a provider's callback: signed in, to where it was going; to the log-in
 * page's second step when the user has 2FA (a code) or a workspace requires it (set it up); to the
 * link page when the e-mail's account must prove its password; back to the log-in page with an
 * `ssoError` code (packages/core ssoErrorMessage) when the sign-in failed.
 */
export async function finishInBrowser(
  reply: FastifyReply,
  config: Config,
  outcome: () => Promise<SsoOutcome>,
): Promise<FastifyReply> {
  reply.clearCookie(STATE_COOKIE, { path: '/api/v1/auth' });
  try {
    const result = await outcome();
    if (result.kind === 'link') {
      reply.setCookie(LINK_COOKIE, result.token, cookieOptions(config, 15 * 60_000));
      return reply.redirect(`/link-account?returnTo=${encodeURIComponent(result.returnTo)}`, 303);
    }
    // The same second step as after a password, on the log-in page: the code, or setting 2FA up.
    const secondStep = (step: 'code' | 'enrol') =>
      `/loginpage?twoFactor=${step}&next=${encodeURIComponent(result.returnTo)}`;
    if (result.kind === 'two_factor') {
      setChallengeCookie(reply, config, result.challenge, result.expiresAt);
      return reply.redirect(secondStep('code'), 303);
    }
    setSessionCookie(reply, config, result.session);
    return reply.redirect(result.enrolmentOnly ? secondStep('enrol') : result.returnTo, 303);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) reply.log.warn({ err: error }, 'single sign-on failed');
    const code = error instanceof AppError ? error.code : 'sso_failed';
    return reply.redirect(`/loginpage?ssoError=${encodeURIComponent(code)}`, 303);
  }
}

export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sso } = app.services;

  app.get(
    '/auth/oidc/providers',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The social sign-in providers the operator configured (none: no buttons)',
        response: { 200: z.object({ items: z.array(socialProviderView) }) },
      },
    },
    async () => ({ items: sso.socialProviders() }),
  );

  app.get(
    '/auth/oidc/:providerId/start',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Go to a social provider to sign up or sign in (OpenID Connect, code flow with PKCE)',
        params: z.object({ providerId: text({ min: 1, max: 30 }) }),
        querystring: ssoStartQuery,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { url, state } = await sso.startSocial(request.params.providerId, request.query.returnTo);
      reply.setCookie(STATE_COOKIE, state, cookieOptions(app.config, STATE_MS));
      return reply.redirect(url, 303);
    },
  );

  app.get(
    '/auth/oidc/:providerId/callback',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "The social provider's redirect back: signs in, or asks for the password to link an account",
        params: z.object({ providerId: text({ min: 1, max: 30 }) }),
        response: errorResponses,
      },
    },
    async (request, reply) =>
      finishInBrowser(reply, app.config, () =>
        sso.finishSocial(
          request.params.providerId,
          new URL(request.url, app.config.publicUrl),
          request.cookies[STATE_COOKIE],
          client(request),
        ),
      ),
  );

  app.get(
    '/auth/sso/link',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The account a provider identity waits to be linked to (this browser’s link request)',
        response: { 200: z.object({ email: z.string(), provider: z.string() }), ...errorResponses },
      },
    },
    async (request) => sso.linkRequest(request.cookies[LINK_COOKIE]),
  );

  app.post(
    '/auth/sso/link',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Link the provider identity to the e-mail's account by proving its password, and sign in",
        body: ssoLinkBody,
        response: { 200: z.object({ user: userView, returnTo: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { user, session, returnTo } = await sso.link(
        request.cookies[LINK_COOKIE],
        request.body.password,
        client(request),
      );
      if (request.auth?.sessionSecret) await app.services.auth.logout(request.auth.sessionSecret);
      reply.clearCookie(LINK_COOKIE, { path: '/api/v1/auth' });
      setSessionCookie(reply, app.config, session);
      return { user: presentUser(user), returnTo };
    },
  );

  app.get(
    '/me/identities',
    {
      schema: {
        tags,
        summary: 'The identity provider accounts linked to the signed-in user',
        response: { 200: linkedIdentitiesView, ...errorResponses },
      },
    },
    async (request) => sso.listIdentities(requireAuth(request).user),
  );

  app.delete(
    '/me/identities/:identityId',
    {
      schema: {
        tags,
        summary: 'Unlink an identity provider account (refused when it is the last way to sign in)',
        params: z.object({ identityId: z.uuid({ error: 'This sign-in method is not linked to your account.' }) }),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await sso.removeIdentity(requireAuth(request).user, request.params.identityId);
      return reply.status(204).send(null);
    },
  );
};
