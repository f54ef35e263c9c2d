import {
  enableTwoFactorBody,
  loginSecondStepBody,
  recoveryCodesView,
  secondFactorBody,
  sessionsView,
  twoFactorPolicyBody,
  twoFactorPolicyView,
  twoFactorSetupView,
  twoFactorStatusView,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth } from '../../platform/actor.js';
import { CHALLENGE_COOKIE, clearChallengeCookie, deviceCookieName, setSessionCookie } from '../../platform/auth.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { presentUser, userView } from '../users/users.presenter.js';

const tags = ['two-factor'];

/** Two-factor authentication (issue 18): enrolment, the sign-in's second step, the workspace's requirement, and sessions. */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { twoFactor, accountSessions } = app.services;
  const client = (request: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'],
  });
  /** Reachable by a session limited to enrolment (a workspace requires 2FA). */
  const enrolment = { allowDuringEnrolment: true };

  app.get(
    '/me/two-factor',
    {
      config: enrolment,
      schema: {
        tags,
        summary: 'Whether two-factor authentication is on',
        response: { 200: twoFactorStatusView, ...errorResponses },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      return twoFactor.status(auth.user, auth.enrolmentOnly ?? false);
    },
  );

  app.post(
    '/me/two-factor/setup',
    {
      config: enrolment,
      schema: {
        tags,
        summary: 'A new authenticator seed: its otpauth:// link and QR code; confirm it with a code',
        response: { 200: twoFactorSetupView, ...errorResponses },
      },
    },
    async (request) => twoFactor.setup(requireAuth(request).user),
  );

  app.post(
    '/me/two-factor/enable',
    {
      config: enrolment,
      schema: {
        tags,
        summary: 'Turn two-factor authentication on with a first code; answers the recovery codes, once',
        body: enableTwoFactorBody,
        response: { 200: recoveryCodesView, ...errorResponses },
      },
    },
    async (request) => ({ recoveryCodes: await twoFactor.enable(requireAuth(request).user, request.body.code) }),
  );

  app.post(
    '/me/two-factor/recovery-codes',
    {
      schema: {
        tags,
        summary: 'New recovery codes for a fresh code; the old ones stop working',
        body: secondFactorBody,
        response: { 200: recoveryCodesView, ...errorResponses },
      },
    },
    async (request) => ({
      recoveryCodes: await twoFactor.regenerateRecoveryCodes(requireAuth(request).user, request.body),
    }),
  );

  app.post(
    '/me/two-factor/disable',
    {
      schema: {
        tags,
        summary: 'Turn two-factor authentication off with a fresh code',
        body: secondFactorBody,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await twoFactor.disable(requireAuth(request).user, request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/login/two-factor',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The second step of a sign-in: a code from the app or a recovery code; starts the session',
        body: loginSecondStepBody,
        response: { 200: z.object({ user: userView }), ...errorResponses },
      },
    },
    async (request, reply) => {
      // After an identity provider, the challenge came in a cookie (platform/auth.ts) rather than in JSON.
      const challenge = request.body.challenge ?? request.cookies[CHALLENGE_COOKIE];
      // The browser's known-device cookie gives it its own budget of wrong codes.
      const deviceToken = request.cookies[deviceCookieName(app.config)];
      const { user, session } = await twoFactor.completeSignIn(
        { ...request.body, challenge, deviceToken },
        client(request),
      );
      clearChallengeCookie(reply, app.config);
      if (request.auth?.sessionSecret) await app.services.auth.logout(request.auth.sessionSecret);
      setSessionCookie(reply, app.config, session);
      return { user: presentUser(user) };
    },
  );

  app.get(
    '/workspaces/:workspaceId/two-factor-policy',
    {
      schema: {
        tags,
        summary: 'Whether the workspace requires two-factor authentication of its members',
        params: workspaceParams,
        response: { 200: twoFactorPolicyView, ...errorResponses },
      },
    },
    async (request) => twoFactor.policy(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/two-factor-policy',
    {
      schema: {
        tags,
        summary: 'Require two-factor authentication of members (Pro); they enrol at their next sign-in',
        params: workspaceParams,
        body: twoFactorPolicyBody,
        response: { 200: twoFactorPolicyView, ...errorResponses },
      },
    },
    async (request) => twoFactor.setPolicy(actorOf(request), request.body.required),
  );

  app.post(
    '/workspaces/:workspaceId/members/:userId/two-factor/reset',
    {
      schema: {
        tags,
        summary: "Turn a member's two-factor authentication off (lost device); ends their sessions",
        params: workspaceParams.extend({ userId: z.uuid({ error: 'Member not found.' }) }),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await twoFactor.resetForMember(actorOf(request), request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me/sessions',
    {
      schema: {
        tags,
        summary: 'The signed-in browsers of the user',
        response: { 200: sessionsView, ...errorResponses },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      return { items: await accountSessions.list(auth.user, auth.sessionSecret) };
    },
  );

  app.delete(
    '/me/sessions/:sessionId',
    {
      schema: {
        tags,
        summary: 'Sign one session out',
        params: z.object({ sessionId: z.uuid({ error: 'Session not found.' }) }),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await accountSessions.revoke(requireAuth(request).user, request.params.sessionId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/me/sessions/sign-out-others',
    {
      schema: { tags, summary: 'Sign out every other session', response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      await accountSessions.revokeOthers(auth.user, auth.sessionSecret);
      return reply.status(204).send(null);
    },
  );
};
