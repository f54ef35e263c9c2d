import {
  forgotPasswordBody,
  loginBody,
  messages,
  resetPasswordBody,
  signupBody,
  text,
  twoFactorChallengeView,
  verifyEmailBody,
} from '@sundial/core';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie, deviceCookieName, setSessionCookie } from '../../platform/auth.js';
import { errorResponses, messageBody } from '../../platform/schemas.js';
import { presentUser, userView } from '../users/users.presenter.js';
import type { KnownDevice } from './auth.service.js';

const tags = ['auth'];

/** A sign-in's answer: the user (signed in), or the second step's challenge (2FA). */
const loginAnswer = z.object({
  user: userView.optional(),
  twoFactor: twoFactorChallengeView.shape.twoFactor.optional(),
  /** Signed in, but a workspace requires 2FA: the session may only set it up. */
  twoFactorEnrolmentRequired: z.boolean().optional(),
});

const twoFactorAnswer = (challenge: { challenge: string; expiresAt: Date } | undefined) => {
  if (!challenge) throw new Error('a sign-in without a session must have a two-factor challenge');
  return { challenge: challenge.challenge, expiresAt: challenge.expiresAt.toISOString() };
};

function setDeviceCookie(reply: FastifyReply, config: { secureCookies: boolean }, device: KnownDevice): void {
  reply.setCookie(deviceCookieName(config), device.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    expires: device.expiresAt,
  });
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth } = app.services;
  const client = (request: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'],
  });

  app.post(
    '/auth/signup',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Create an account and its workspace, and sign in',
        body: signupBody,
        response: { 201: z.object({ user: userView }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { user, session } = await auth.signup(request.body, client(request));
      if (request.auth?.sessionSecret) await auth.logout(request.auth.sessionSecret);
      setSessionCookie(reply, app.config, session);
      return reply.status(201).send({ user: presentUser(user) });
    },
  );

  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in with e-mail and password (with 2FA: the challenge of the second step, no session yet)',
        body: loginBody,
        response: { 200: loginAnswer, ...errorResponses },
      },
    },
    async (request, reply) => {
      const deviceToken = request.cookies[deviceCookieName(app.config)];
      const { user, session, device, twoFactorChallenge, enrolmentOnly } = await auth.login(
        request.body,
        client(request),
        { deviceToken, rememberDevice: true },
      );
      if (device) setDeviceCookie(reply, app.config, device);
      // Two-factor authentication: no session until the second step (two-factor.routes.ts).
      if (!session) return { twoFactor: twoFactorAnswer(twoFactorChallenge) };
      // The session this browser had before (perhaps someone else's) ends: one browser, one session.
      if (request.auth?.sessionSecret) await auth.logout(request.auth.sessionSecret);
      setSessionCookie(reply, app.config, session);
      return { user: presentUser(user), ...(enrolmentOnly ? { twoFactorEnrolmentRequired: true } : {}) };
    },
  );

  app.post(
    '/auth/logout',
    { config: { public: true }, schema: { tags, summary: 'End the current session', response: { 204: z.null() } } },
    async (request, reply) => {
      if (request.auth?.sessionSecret) await auth.logout(request.auth.sessionSecret);
      clearSessionCookie(reply, app.config);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/password/forgot',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'E-mail a password-reset link (same answer whether or not the account exists)',
        body: forgotPasswordBody,
        response: { 202: messageBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      await auth.forgotPassword(request.body.email, client(request));
      return reply.status(202).send({ message: messages.resetSent });
    },
  );

  app.get(
    '/auth/password/reset/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Tell whether a reset link can still be used',
        params: z.object({ token: text({ trim: false, min: 1, max: 200 }) }),
        response: { 200: z.object({ valid: z.literal(true) }), ...errorResponses },
      },
    },
    async (request) => {
      await auth.checkResetToken(request.params.token);
      return { valid: true as const };
    },
  );

  app.post(
    '/auth/password/reset',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Set a new password with a reset link; ends every session of the account',
        body: resetPasswordBody,
        response: { 200: messageBody, ...errorResponses },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body);
      return { message: messages.passwordUpdated };
    },
  );

  app.post(
    '/auth/email/verify',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Confirm an e-mail address with the link e-mailed to it (works once, for 24 hours)',
        body: verifyEmailBody,
        response: { 200: messageBody, ...errorResponses },
      },
    },
    async (request) => {
      await auth.verifyEmail(request.body.token);
      return { message: messages.emailVerified };
    },
  );
};
