import { createWorkspaceBody, updateWorkspaceBody } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth, requireMembership } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { presentWorkspace, workspaceView } from './workspaces.presenter.js';

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
      return { items: list.map((m) => presentWorkspace(m)) };
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
      return reply.status(201).send(presentWorkspace(membership));
    },
  );

  app.get(
    '/workspaces/:workspaceId',
    {
      schema: {
        tags,
        summary: 'One workspace',
        params: workspaceParams,
        response: { 200: workspaceView, ...errorResponses },
      },
    },
    async (request) => presentWorkspace(requireMembership(request)),
  );

  app.patch(
    '/workspaces/:workspaceId',
    {
      schema: {
        tags,
        summary: 'Rename a workspace (owner or admin)',
        params: workspaceParams,
        body: updateWorkspaceBody,
        response: { 200: workspaceView, ...errorResponses },
      },
    },
    async (request) => {
      return presentWorkspace(await workspaces.rename(actorOf(request), request.body.name));
    },
  );
};
