import { acceptedInviteView, acceptInviteBody, inviteBody, invitePreviewView, inviteView, text } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth } from '../../platform/actor.js';
import { setSessionCookie } from '../../platform/auth.js';
import { errorBody, errorResponses, workspaceParams } from '../../platform/schemas.js';
import { presentUser } from '../users/users.presenter.js';

const tags = ['invites'];
const responses = { ...errorResponses, 402: errorBody };
const inviteParams = workspaceParams.extend({ inviteId: z.uuid({ error: 'Invitation not found.' }) });
const tokenParams = z.object({ token: text({ trim: false, min: 1, max: 200 }) });

export const invitesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { invites } = app.services;
  const client = (request: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'],
  });

  app.get(
    '/workspaces/:workspaceId/invites',
    {
      schema: {
        tags,
        summary: 'Pending invites, expired ones included (owner or admin)',
        params: workspaceParams,
        response: { 200: z.object({ items: z.array(inviteView) }), ...responses },
      },
    },
    async (request) => ({ items: await invites.listPending(actorOf(request)) }),
  );

  app.post(
    '/workspaces/:workspaceId/invites',
    {
      schema: {
        tags,
        summary: 'Invite people by e-mail with a role and group; each gets a single-use link',
        description:
          'On a paid plan, non-guest invites beyond the licenses answer 402 seat_limit_reached; guests never use a license.',
        params: workspaceParams,
        body: inviteBody,
        response: { 201: z.object({ items: z.array(inviteView) }), ...responses },
      },
    },
    async (request, reply) => {
      const items = await invites.create({ ...actorOf(request), user: requireAuth(request).user }, request.body);
      return reply.status(201).send({ items });
    },
  );

  app.post(
    '/workspaces/:workspaceId/invites/:inviteId/resend',
    {
      schema: {
        tags,
        summary: 'Send a pending invite again with a new link and expiry',
        params: inviteParams,
        response: { 200: inviteView, ...responses },
      },
    },
    async (request) =>
      invites.resend({ ...actorOf(request), user: requireAuth(request).user }, request.params.inviteId),
  );

  app.post(
    '/workspaces/:workspaceId/invites/:inviteId/link',
    {
      schema: {
        tags,
        summary: 'A new link for a pending invite, to hand over without e-mail (the link sent before stops working)',
        params: inviteParams,
        response: { 200: z.object({ url: z.string(), invite: inviteView }), ...responses },
      },
    },
    async (request) => invites.link(actorOf(request), request.params.inviteId),
  );

  app.delete(
    '/workspaces/:workspaceId/invites/:inviteId',
    {
      schema: {
        tags,
        summary: 'Withdraw a pending invite',
        params: inviteParams,
        response: { 204: z.null(), ...responses },
      },
    },
    async (request, reply) => {
      await invites.revoke(actorOf(request), request.params.inviteId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/invites/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'What an invitation link is for (workspace, inviter, role, whether the account exists)',
        params: tokenParams,
        response: {
          200: invitePreviewView,
          ...responses,
        },
      },
    },
    async (request) => invites.preview(request.params.token),
  );

  app.post(
    '/invites/:token/accept',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Accept an invitation: joins the workspace, creating the account when there is none',
        params: tokenParams,
        body: acceptInviteBody,
        response: { 200: acceptedInviteView, ...responses },
      },
    },
    async (request, reply) => {
      const result = await invites.accept({
        token: request.params.token,
        body: request.body,
        currentUser: request.auth?.user,
        client: client(request),
      });
      if (result.session) setSessionCookie(reply, app.config, result.session);
      return { user: presentUser(result.user), workspaceId: result.workspaceId };
    },
  );
};
