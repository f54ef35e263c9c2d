import { createWorkspaceBody, updateWorkspaceBody } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth, requireMembership } from '../../platform/actor.js';
import { notFound } from '../../platform/errors.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { LOGO_MAX_BYTES } from './workspaces.logo.js';
import {
  presentWorkspace,
  presentWorkspaceDetail,
  workspaceDetailView,
  workspaceView,
} from './workspaces.presenter.js';

const logoBody = z.object({
  /** The image file's bytes, base64. */
  data: z
    .string()
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 1024, 'The logo can be at most 256 KB.')
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The logo must be sent as base64.'),
});
const logoView = z.object({ contentType: z.string(), width: z.number().int(), height: z.number().int() });

const tags = ['workspaces'];

export const workspacesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { workspaces } = app.services;

  app.get(
    '/workspaces',
    {
      schema: {
        tags,
        summary: 'Workspaces the user belongs to',
        response: { 200: z.object({ items: z.array(workspaceView) }), ...errorResponses },
      },
    },
    async (request) => {
      const list = await workspaces.list(requireAuth(request).user.id);
      const withLogo = await workspaces.withLogo(list.map((m) => m.workspace.id));
      return { items: list.map((m) => presentWorkspace(m, withLogo)) };
    },
  );

  app.post(
    '/workspaces',
    {
      schema: {
        tags,
        summary: 'Create a workspace owned by the user, with a 14-day Pro trial',
        body: createWorkspaceBody,
        response: { 201: workspaceView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const membership = await workspaces.createOwned({
        userId: requireAuth(request).user.id,
        name: request.body.name,
      });
      return reply.status(201).send(presentWorkspace(membership, new Set()));
    },
  );

  app.get(
    '/workspaces/:workspaceId',
    {
      schema: {
        tags,
        summary: 'One workspace, with its settings (any member)',
        params: workspaceParams,
        response: { 200: workspaceDetailView, ...errorResponses },
      },
    },
    async (request) => {
      const membership = requireMembership(request);
      const id = membership.workspace.id;
      const [domains, withLogo] = await Promise.all([workspaces.emailDomains(id), workspaces.withLogo([id])]);
      return presentWorkspaceDetail(membership, domains, withLogo);
    },
  );

  app.patch(
    '/workspaces/:workspaceId',
    {
      schema: {
        tags,
        summary: 'Rename a workspace and/or set its allowed e-mail domains (owner or admin)',
        params: workspaceParams,
        body: updateWorkspaceBody,
        response: { 200: workspaceDetailView, ...errorResponses },
      },
    },
    async (request) => {
      const { membership, allowedEmailDomains } = await workspaces.update(actorOf(request), request.body);
      const withLogo = await workspaces.withLogo([membership.workspace.id]);
      return presentWorkspaceDetail(membership, allowedEmailDomains, withLogo);
    },
  );

  app.get(
    '/workspaces/:workspaceId/logo',
    {
      schema: {
        tags,
        summary: "The workspace's logo image (any member); 404 when it has none",
        params: workspaceParams,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const logo = await workspaces.logo(requireMembership(request).workspace.id);
      if (!logo) throw notFound('This workspace has no logo.');
      return reply
        .header('content-type', logo.contentType)
        .header('cache-control', 'private, no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(logo.data as never); // The image's bytes: only the errors have a JSON schema.
    },
  );

  app.put(
    '/workspaces/:workspaceId/logo',
    {
      schema: {
        tags,
        summary: "Set the workspace's logo (owner or admin): PNG or JPEG, at most 256 KB, 16 to 2048 px a side",
        params: workspaceParams,
        body: logoBody,
        response: { 200: logoView, ...errorResponses },
      },
    },
    async (request) => workspaces.setLogo(actorOf(request), Buffer.from(request.body.data, 'base64')),
  );

  app.delete(
    '/workspaces/:workspaceId/logo',
    {
      schema: {
        tags,
        summary: "Remove the workspace's logo (owner or admin)",
        params: workspaceParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await workspaces.removeLogo(actorOf(request));
      return reply.status(204).send(null);
    },
  );
};
