import {
  createWebhookBody,
  updateWebhookBody,
  webhookDeliveriesQuery,
  webhookDeliveryPage,
  webhookDeliveryView,
  webhookEventListView,
  webhookListView,
  webhookSecretView,
  webhookView,
  webhookWithSecretView,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['webhooks'];
const webhookParams = workspaceParams.extend({ webhookId: z.uuid({ error: 'Webhook not found.' }) });
const deliveryParams = webhookParams.extend({ deliveryId: z.uuid({ error: 'Delivery not found.' }) });

/** Signed webhooks (issue 34): owners and admins subscribe URLs to the workspace's events. */
export const webhooksRoutes: FastifyPluginAsyncZod = async (app) => {
  const { webhooks } = app.services;

  app.get(
    '/workspaces/:workspaceId/webhook-events',
    {
      schema: {
        tags,
        summary: 'The event types a webhook may subscribe to, each with what it means',
        params: workspaceParams,
        response: { 200: webhookEventListView, ...errorResponses },
      },
    },
    async (request) => webhooks.eventTypes(actorOf(request)),
  );

  app.get(
    '/workspaces/:workspaceId/webhooks',
    {
      schema: {
        tags,
        summary: "The workspace's webhooks",
        params: workspaceParams,
        response: { 200: webhookListView, ...errorResponses },
      },
    },
    async (request) => webhooks.list(actorOf(request)),
  );

  app.post(
    '/workspaces/:workspaceId/webhooks',
    {
      schema: {
        tags,
        summary:
          'A new webhook: its endpoint is sent a signed challenge at once (active if echoed, pending otherwise); the answer holds its signing secret',
        params: workspaceParams,
        body: createWebhookBody,
        response: { 201: webhookWithSecretView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await webhooks.create(actorOf(request), request.body)),
  );

  app.get(
    '/workspaces/:workspaceId/webhooks/:webhookId',
    {
      schema: {
        tags,
        summary: 'A webhook',
        params: webhookParams,
        response: { 200: webhookView, ...errorResponses },
      },
    },
    async (request) => webhooks.get(actorOf(request), request.params.webhookId),
  );

  app.patch(
    '/workspaces/:workspaceId/webhooks/:webhookId',
    {
      schema: {
        tags,
        summary: 'Change a webhook: its URL (challenged again), description, events, or turn it on or off',
        params: webhookParams,
        body: updateWebhookBody,
        response: { 200: webhookView, ...errorResponses },
      },
    },
    async (request) => webhooks.update(actorOf(request), request.params.webhookId, request.body),
  );

  app.delete(
    '/workspaces/:workspaceId/webhooks/:webhookId',
    {
      schema: {
        tags,
        summary: 'Delete a webhook and its delivery log',
        params: webhookParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await webhooks.remove(actorOf(request), request.params.webhookId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/workspaces/:workspaceId/webhooks/:webhookId/validate',
    {
      schema: {
        tags,
        summary: 'Send the endpoint a signed challenge again: echoed, the webhook becomes active',
        params: webhookParams,
        response: { 200: webhookView, ...errorResponses },
      },
    },
    async (request) => webhooks.validate(actorOf(request), request.params.webhookId),
  );

  app.get(
    '/workspaces/:workspaceId/webhooks/:webhookId/secret',
    {
      schema: {
        tags,
        summary: "The webhook's signing secret",
        params: webhookParams,
        response: { 200: webhookSecretView, ...errorResponses },
      },
    },
    async (request) => webhooks.secret(actorOf(request), request.params.webhookId),
  );

  app.post(
    '/workspaces/:workspaceId/webhooks/:webhookId/secret/rotate',
    {
      schema: {
        tags,
        summary: 'A new signing secret: deliveries from now on are signed with it',
        params: webhookParams,
        response: { 200: webhookSecretView, ...errorResponses },
      },
    },
    async (request) => webhooks.rotateSecret(actorOf(request), request.params.webhookId),
  );

  app.get(
    '/workspaces/:workspaceId/webhooks/:webhookId/deliveries',
    {
      schema: {
        tags,
        summary: "The webhook's deliveries of the last 7 days with each attempt, newest first; page by cursor",
        params: webhookParams,
        querystring: webhookDeliveriesQuery,
        response: { 200: webhookDeliveryPage, ...errorResponses },
      },
    },
    async (request) => webhooks.deliveries(actorOf(request), request.params.webhookId, request.query),
  );

  app.post(
    '/workspaces/:workspaceId/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        summary: "Send a delivery's event to the webhook again, as a new delivery",
        params: deliveryParams,
        response: { 200: webhookDeliveryView, ...errorResponses },
      },
    },
    async (request) => webhooks.redeliver(actorOf(request), request.params.webhookId, request.params.deliveryId),
  );
};
