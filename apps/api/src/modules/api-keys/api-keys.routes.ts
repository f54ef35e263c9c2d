import {
  apiKeyListView,
  createApiKeyBody,
  createdApiKeyView,
  createdWorkspaceApiKeyView,
  createWorkspaceApiKeyBody,
  workspaceApiKeyListView,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['api-keys'];
const keyParams = z.object({ keyId: z.uuid({ error: 'API key not found.' }) });

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
        params: keyParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await apiKeys.revoke(requireAuth(request).user, request.params.keyId);
      return reply.status(204).send(null);
    },
  );

  // The workspace's own keys, for integrations (owners and admins; never with a key).
  app.get(
    '/workspaces/:workspaceId/api-keys',
    {
      schema: {
        tags,
        summary: 'The workspace’s API keys (not revoked), newest first, with the role each acts with and who made it',
        params: workspaceParams,
        response: { 200: workspaceApiKeyListView, ...errorResponses },
      },
    },
    async (request) => ({ items: await apiKeys.listOfWorkspace(actorOf(request)) }),
  );

  app.post(
    '/workspaces/:workspaceId/api-keys',
    {
      schema: {
        tags,
        summary: 'A new workspace API key acting with a role no higher than yours: its token is in this answer only',
        params: workspaceParams,
        body: createWorkspaceApiKeyBody,
        response: { 201: createdWorkspaceApiKeyView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await apiKeys.createForWorkspace(actorOf(request), request.body)),
  );

  app.delete(
    '/workspaces/:workspaceId/api-keys/:keyId',
    {
      schema: {
        tags,
        summary: 'Revoke a workspace API key, whoever made it: it stops working at once',
        params: workspaceParams.merge(keyParams),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await apiKeys.revokeOfWorkspace(actorOf(request), request.params.keyId);
      return reply.status(204).send(null);
    },
  );
};
