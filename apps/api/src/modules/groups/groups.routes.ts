import { createGroupBody, updateGroupBody } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { groupView } from './groups.presenter.js';

const tags = ['groups'];
const groupParams = workspaceParams.extend({ groupId: z.uuid({ error: 'Group not found.' }) });
const groupMemberParams = groupParams.extend({ userId: z.uuid({ error: 'Member not found.' }) });

export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { groups } = app.services;

  app.get(
    '/workspaces/:workspaceId/groups',
    {
      schema: {
        tags,
        summary: 'Every group, flat with parent ids and member ids (not for guests)',
        params: workspaceParams,
        response: { 200: z.object({ items: z.array(groupView) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await groups.list(actorOf(request)) }),
  );

  app.post(
    '/workspaces/:workspaceId/groups',
    {
      schema: {
        tags,
        summary: 'Create a group, at the top or inside another (owner or admin)',
        params: workspaceParams,
        body: createGroupBody,
        response: { 201: groupView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await groups.create(actorOf(request), request.body)),
  );

  app.patch(
    '/workspaces/:workspaceId/groups/:groupId',
    {
      schema: {
        tags,
        summary: 'Rename or move a group',
        params: groupParams,
        body: updateGroupBody,
        response: { 200: groupView, ...errorResponses },
      },
    },
    async (request) => groups.update(actorOf(request), request.params.groupId, request.body),
  );

  app.delete(
    '/workspaces/:workspaceId/groups/:groupId',
    {
      schema: {
        tags,
        summary: 'Delete a group; its subgroups move up one level',
        params: groupParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await groups.remove(actorOf(request), request.params.groupId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/workspaces/:workspaceId/groups/:groupId/members/:userId',
    {
      schema: {
        tags,
        summary: 'Put a member in a group',
        params: groupMemberParams,
        response: { 200: groupView, ...errorResponses },
      },
    },
    async (request) => groups.addMember(actorOf(request), request.params.groupId, request.params.userId),
  );

  app.delete(
    '/workspaces/:workspaceId/groups/:groupId/members/:userId',
    {
      schema: {
        tags,
        summary: 'Take a member out of a group',
        params: groupMemberParams,
        response: { 200: groupView, ...errorResponses },
      },
    },
    async (request) => groups.removeMember(actorOf(request), request.params.groupId, request.params.userId),
  );
};
