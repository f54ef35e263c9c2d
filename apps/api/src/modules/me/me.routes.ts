import { changePasswordBody, messages, meView, profileUpdateBody } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/actor.js';
import { errorResponses, messageBody } from '../../platform/schemas.js';
import { presentUser } from '../users/users.presenter.js';
import { presentWorkspace } from '../workspaces/workspaces.presenter.js';

const tags = ['me'];

export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  const { profile, workspaces, auth } = app.services;

  const present = async (user: Parameters<typeof presentUser>[0]) => {
    const [memberships, inactive] = await Promise.all([workspaces.list(user.id), workspaces.listInactive(user.id)]);
    const current = memberships.find((m) => m.workspace.id === user.current_workspace_id) ?? memberships[0];
    const withLogo = await workspaces.withLogo(memberships.map((m) => m.workspace.id));
    return {
      user: presentUser(user),
      workspaces: memberships.map((m) => presentWorkspace(m, withLogo)),
      currentWorkspaceId: current?.workspace.id ?? null,
      inactiveWorkspaces: inactive.map((m) => ({
        id: m.workspace.id,
        name: m.workspace.name,
        status: m.status === 'removed' ? ('removed' as const) : ('disabled' as const),
      })),
    };
  };

  app.get(
    '/me',
    {
      config: { allowDuringEnrolment: true },
      schema: {
        tags,
        summary: 'The signed-in user, their workspaces and the current one',
        response: { 200: meView, ...errorResponses },
      },
    },
    async (request) => present(requireAuth(request).user),
  );

  app.patch(
    '/me',
    {
      schema: {
        tags,
        summary: 'Update profile settings or switch the current workspace',
        body: profileUpdateBody,
        response: { 200: meView, ...errorResponses },
      },
    },
    async (request) => present(await profile.update(requireAuth(request).user, request.body)),
  );

  app.post(
    '/me/password',
    {
      schema: {
        tags,
        summary: 'Change the password; ends the other sessions',
        body: changePasswordBody,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { user, sessionSecret } = requireAuth(request);
      await auth.changePassword({
        user,
        ...request.body,
        keepSessionSecret: sessionSecret,
        client: { ip: request.ip, userAgent: request.headers['user-agent'] },
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/me/email/verification',
    {
      config: { allowDuringEnrolment: true },
      schema: {
        tags,
        summary: 'Send the link confirming the e-mail address again (a few times an hour)',
        response: { 202: messageBody, ...errorResponses },
      },
    },
    async (request, reply) => {
      await auth.resendVerification(requireAuth(request).user);
      return reply.status(202).send({ message: messages.verificationSent });
    },
  );
};
