import { apiKeyListView, createApiKeyBody, createdApiKeyView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/actor.js';
import { errorResponses } from '../../platform/schemas.js';

const tags = ['api-keys'];

/** A person's API keys (issue 34), managed from a signed-in browser only (never with a key). */
export const apiKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const { apiKeys } = app.services;

  app.get(
    '/me/api-keys',
    {
      schema: {
        tags,
        summary: 'Your API keys (not revoked), newest first',
        response: { 200: apiKeyListView, ...errorResponses },
      },
    },
    async (request) => ({ items: await apiKeys.list(requireAuth(request).user) }),
  );

  app.post(
    '/me/api-keys',
    {
      schema: {
        tags,
        summary: 'A new API key: its token is in this answer only',
        body: createApiKeyBody,
        response: { 201: createdApiKeyView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await apiKeys.create(requireAuth(request).user, request.body)),
  );

  app.delete(
    '/me/api-keys/:keyId',
    {
      schema: {
        tags,
        summary: 'Revoke an API key: it stops working at once',
        params: z.object({ keyId: z.uuid({ error: 'API key not found.' }) }),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await apiKeys.revoke(requireAuth(request).user, request.params.keyId);
      return reply.status(204).send(null);
    },
  );
};
