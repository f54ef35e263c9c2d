import { notificationListView, notificationSettingsView, updateNotificationSettingsBody } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceId, workspaceParams as wsParams } from '../../platform/schemas.js';

const tags = ['notifications'];
const base = '/workspaces/:workspaceId';
const noContent = { 204: z.null(), ...errorResponses };
const oneParams = z.object({ workspaceId, notificationId: z.uuid({ error: 'Notification not found.' }) });

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const svc = app.services.notifications;

  app.get(
    `${base}/notifications`,
    {
      schema: {
        tags,
        summary: 'My newest notifications and how many are unread',
        params: wsParams,
        response: { 200: notificationListView, ...errorResponses },
      },
    },
    async (request) => svc.list(actorOf(request)),
  );

  app.get(
    `${base}/notifications/settings`,
    {
      schema: {
        tags,
        summary: 'Which kinds of notification reach me in the bell and by e-mail',
        params: wsParams,
        response: { 200: notificationSettingsView, ...errorResponses },
      },
    },
    async (request) => svc.settings(actorOf(request)),
  );

  app.put(
    `${base}/notifications/settings`,
    {
      schema: {
        tags,
        summary: 'Turn kinds of notification on or off, in the bell and by e-mail',
        params: wsParams,
        body: updateNotificationSettingsBody,
        response: { 200: notificationSettingsView, ...errorResponses },
      },
    },
    async (request) => svc.updateSettings(actorOf(request), request.body),
  );

  app.post(
    `${base}/notifications/:notificationId/read`,
    { schema: { tags, summary: 'Mark one of my notifications read', params: oneParams, response: noContent } },
    async (request, reply) => {
      await svc.markRead(actorOf(request), request.params.notificationId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/notifications/read`,
    { schema: { tags, summary: 'Mark all my notifications read', params: wsParams, response: noContent } },
    async (request, reply) => {
      await svc.markAllRead(actorOf(request));
      return reply.status(204).send(null);
    },
  );
};
