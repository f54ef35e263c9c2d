import { clientCreateBody, clientUpdateBody, listQuery, pageView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceId, workspaceParams as wsParams } from '../../platform/schemas.js';
import { clientView } from './clients.presenter.js';

const tags = ['clients'];
const clientParams = z.object({ workspaceId, clientId: z.uuid({ error: 'Client not found.' }) });
const base = '/workspaces/:workspaceId/clients';
const one = { 200: clientView, ...errorResponses };

export const clientsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { clients } = app.services;

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'Clients: search, filter archived, sort, paginate',
        params: wsParams,
        querystring: listQuery,
        response: {
          200: pageView(clientView),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      ...(await clients.list(actorOf(request), request.query)),
      limit: request.query.limit,
      offset: request.query.offset,
    }),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'Create a client (Admins and Managers)',
        params: wsParams,
        body: clientCreateBody,
        response: { 201: clientView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await clients.create(actorOf(request), request.body)),
  );

  app.get(
    `${base}/:clientId`,
    { schema: { tags, summary: 'One client', params: clientParams, response: one } },
    async (request) => clients.get(actorOf(request), request.params.clientId),
  );

  app.patch(
    `${base}/:clientId`,
    { schema: { tags, summary: 'Edit a client', params: clientParams, body: clientUpdateBody, response: one } },
    async (request) => clients.update(actorOf(request), request.params.clientId, request.body),
  );

  app.post(
    `${base}/:clientId/archive`,
    { schema: { tags, summary: 'Archive a client', params: clientParams, response: one } },
    async (request) => clients.setArchived(actorOf(request), request.params.clientId, true),
  );

  app.post(
    `${base}/:clientId/restore`,
    { schema: { tags, summary: 'Restore a client', params: clientParams, response: one } },
    async (request) => clients.setArchived(actorOf(request), request.params.clientId, false),
  );

  app.delete(
    `${base}/:clientId`,
    {
      schema: {
        tags,
        summary: 'Delete a client; its projects stay without a client',
        params: clientParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await clients.remove(actorOf(request), request.params.clientId);
      return reply.status(204).send(null);
    },
  );
};
