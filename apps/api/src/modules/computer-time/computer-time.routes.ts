import {
  activitiesQuery,
  activityCategoryBody,
  activityCategoryListView,
  activityCategoryView,
  activityDayListView,
  activitySpanListView,
  activitySpansQuery,
  agentConfigView,
  agentSpanBatch,
  agentSpanBatchResult,
  approveDeviceCodeBody,
  awayActivitiesBody,
  awayActivityListView,
  awayPeriodListView,
  awayPeriodsQuery,
  computerTimeGroupSettingsBody,
  computerTimeGroupSettingsListView,
  computerTimeGroupSettingsView,
  computerTimeSettingsBody,
  computerTimeSettingsView,
  deleteActivityQuery,
  deleteAwayResolutionQuery,
  deletedActivityView,
  denyDeviceCodeBody,
  deviceCodeLookupView,
  deviceCodeParams,
  deviceCodeRequest,
  deviceCodeView,
  deviceListView,
  deviceTokenRequest,
  deviceTokenView,
  resolveAwayBody,
  resolvedAwayView,
  updateActivityCategoryBody,
} from '@sundial/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import { idempotencyKeyOf } from '../../platform/idempotency.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['agent'];
/** The agent's own routes take the device token alone (app.ts admits nothing else to them). */
const deviceOnly = [{ deviceToken: [] }];
const deviceParams = z.object({ deviceId: z.uuid({ error: 'Computer not found.' }) });

/** The device that signed the request (the hook admitted only a device to `device` routes). */
function deviceOf(request: FastifyRequest) {
  if (!request.device) throw new AppError('internal_error', 'The device was not loaded.', { status: 500 });
  return request.device;
}

/**
 * The desktop agent's routes (issue 35, the contract in core's activity/agent.ts): pairing by
 * device code, then its device token's two routes; and a person's paired computers.
 */
export const agentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { computerTime } = app.services;

  app.post(
    '/agent/device-codes',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Start pairing a computer: a code for the person to approve, and one for the agent to poll with',
        body: deviceCodeRequest,
        response: { 200: deviceCodeView, ...errorResponses },
      },
    },
    async (request) => computerTime.start(request.body, request.ip),
  );

  app.post(
    '/agent/device-token',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'The agent polls: its device token once the person approved, else 400 authorization_pending, slow_down, expired_token or access_denied',
        body: deviceTokenRequest,
        response: { 200: deviceTokenView, ...errorResponses },
      },
    },
    async (request) => computerTime.poll(request.body.deviceCode),
  );

  app.get(
    '/agent/device-codes/:userCode',
    {
      schema: {
        tags,
        summary: 'The computer waiting for approval under a code (for the pairing page)',
        params: deviceCodeParams,
        response: { 200: deviceCodeLookupView, ...errorResponses },
      },
    },
    async (request) => {
      requireAuth(request);
      return computerTime.lookup(request.params.userCode);
    },
  );

  app.post(
    '/agent/device-codes/approve',
    {
      schema: {
        tags,
        summary: 'Pair the computer of a code in one of your workspaces: its agent receives a device token',
        body: approveDeviceCodeBody,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await computerTime.approve(requireAuth(request).user, request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/agent/device-codes/deny',
    {
      schema: {
        tags,
        summary: 'Refuse to pair the computer of a code',
        body: denyDeviceCodeBody,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await computerTime.deny(requireAuth(request).user, request.body.userCode);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/agent/config',
    {
      config: { device: true },
      schema: {
        tags,
        summary: 'The workspace’s settings for the agent (device token)',
        security: deviceOnly,
        response: { 200: agentConfigView, ...errorResponses },
      },
    },
    async (request) => computerTime.agentConfig(deviceOf(request)),
  );

  app.post(
    '/agent/spans',
    {
      config: { device: true },
      schema: {
        tags,
        summary: 'Upload up to 1,000 spans (device token): each span id is stored once',
        security: deviceOnly,
        body: agentSpanBatch,
        response: { 200: agentSpanBatchResult, ...errorResponses },
      },
    },
    async (request) => computerTime.ingest(deviceOf(request), request.body.spans),
  );

  app.get(
    '/me/devices',
    {
      schema: {
        tags,
        summary: 'Your paired computers (not revoked), newest first',
        response: { 200: deviceListView, ...errorResponses },
      },
    },
    async (request) => ({ items: await computerTime.listDevices(requireAuth(request).user) }),
  );

  app.delete(
    '/me/devices/:deviceId',
    {
      schema: {
        tags,
        summary: 'Revoke one of your computers: its device token stops at once',
        params: deviceParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await computerTime.revokeDevice(requireAuth(request).user, request.params.deviceId);
      return reply.status(204).send(null);
    },
  );
};

/** A workspace's computer time: its settings, and the activity people read and delete. */
export const computerTimeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { computerTime } = app.services;
  const ctTags = ['computer time'];

  app.get(
    '/workspaces/:workspaceId/computer-time/settings',
    {
      schema: {
        tags: ctTags,
        summary: 'What the agent keeps, away time, retention, and whether managers see their people’s activity',
        params: workspaceParams,
        response: { 200: computerTimeSettingsView, ...errorResponses },
      },
    },
    async (request) => computerTime.settings(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/computer-time/settings',
    {
      schema: {
        tags: ctTags,
        summary: 'Change the computer time settings (owners and admins)',
        params: workspaceParams,
        body: computerTimeSettingsBody,
        response: { 200: computerTimeSettingsView, ...errorResponses },
      },
    },
    async (request) => computerTime.saveSettings(actorOf(request), request.body),
  );

  app.get(
    '/workspaces/:workspaceId/computer-time/group-settings',
    {
      schema: {
        tags: ctTags,
        summary:
          'The groups whose people’s activity is kept, or shown to their managers, otherwise than the workspace says',
        params: workspaceParams,
        response: { 200: computerTimeGroupSettingsListView, ...errorResponses },
      },
    },
    async (request) => computerTime.groupSettings(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/computer-time/group-settings/:groupId',
    {
      schema: {
        tags: ctTags,
        summary: 'Set a group’s own choices (owners and admins); null for both returns it to the workspace’s',
        params: workspaceParams.extend({ groupId: z.uuid({ error: 'Group not found.' }) }),
        body: computerTimeGroupSettingsBody,
        response: { 200: computerTimeGroupSettingsView, ...errorResponses },
      },
    },
    async (request) => computerTime.saveGroupSettings(actorOf(request), request.params.groupId, request.body),
  );

  app.get(
    '/workspaces/:workspaceId/computer-time/spans',
    {
      schema: {
        tags: ctTags,
        summary:
          'A person’s spans over a range of at most 7 days: your own, or your people’s when the workspace allows',
        params: workspaceParams,
        querystring: activitySpansQuery,
        response: { 200: activitySpanListView, ...errorResponses },
      },
    },
    async (request) => computerTime.spans(actorOf(request), request.query),
  );

  app.delete(
    '/workspaces/:workspaceId/computer-time/spans',
    {
      schema: {
        tags: ctTags,
        summary: 'Delete your own activity over a range (spans across its ends are cut)',
        params: workspaceParams,
        querystring: deleteActivityQuery,
        response: { 200: deletedActivityView, ...errorResponses },
      },
    },
    async (request) => computerTime.deleteOwn(actorOf(request), request.query),
  );

  app.get(
    '/workspaces/:workspaceId/computer-time/activities',
    {
      schema: {
        tags: ctTags,
        summary: 'Seconds per person, day and application, of the people you may see',
        params: workspaceParams,
        querystring: activitiesQuery,
        response: { 200: activityDayListView, ...errorResponses },
      },
    },
    async (request) => computerTime.activities(actorOf(request), request.query),
  );

  app.get(
    '/workspaces/:workspaceId/computer-time/away-activities',
    {
      schema: {
        tags: ctTags,
        summary: 'What people say they did while away (meeting, call, break…): each makes an entry or a break',
        params: workspaceParams,
        response: { 200: awayActivityListView, ...errorResponses },
      },
    },
    async (request) => computerTime.awayActivities(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/computer-time/away-activities',
    {
      schema: {
        tags: ctTags,
        summary: 'Replace the away activities (owners and admins; at most 30, names unique)',
        params: workspaceParams,
        body: awayActivitiesBody,
        response: { 200: awayActivityListView, ...errorResponses },
      },
    },
    async (request) => computerTime.saveAwayActivities(actorOf(request), request.body),
  );

  app.get(
    '/workspaces/:workspaceId/computer-time/away',
    {
      schema: {
        tags: ctTags,
        summary:
          'A person’s away periods over at most 31 days, with what each became: your own, or your people’s when the workspace allows',
        params: workspaceParams,
        querystring: awayPeriodsQuery,
        response: { 200: awayPeriodListView, ...errorResponses },
      },
    },
    async (request) => computerTime.away(actorOf(request), request.query),
  );

  app.post(
    '/workspaces/:workspaceId/computer-time/away/resolve',
    {
      schema: {
        tags: ctTags,
        summary: 'Say what one of your away periods was: a time entry, a break, or dismissed; honours Idempotency-Key',
        params: workspaceParams,
        body: resolveAwayBody,
        response: { 201: resolvedAwayView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await computerTime.resolveAway(actorOf(request), request.body, idempotencyKeyOf(request));
      return reply.status(201).send(result.body);
    },
  );

  app.delete(
    '/workspaces/:workspaceId/computer-time/away/resolutions',
    {
      schema: {
        tags: ctTags,
        summary: 'Undo what you said of an away period (an entry it made stays)',
        params: workspaceParams,
        querystring: deleteAwayResolutionQuery,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await computerTime.reopenAway(actorOf(request), request.query.start);
      return reply.status(204).send(null);
    },
  );

  const categoryParams = workspaceParams.extend({ categoryId: z.uuid() });

  app.get(
    '/workspaces/:workspaceId/computer-time/categories',
    {
      schema: {
        tags: ctTags,
        summary: 'The categories activity is read by, with their rules (a starter set the first time)',
        params: workspaceParams,
        response: { 200: activityCategoryListView, ...errorResponses },
      },
    },
    async (request) => computerTime.categories(actorOf(request)),
  );

  app.post(
    '/workspaces/:workspaceId/computer-time/categories',
    {
      schema: {
        tags: ctTags,
        summary: 'Add a category (owners and admins)',
        params: workspaceParams,
        body: activityCategoryBody,
        response: { 201: activityCategoryView, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await computerTime.createCategory(actorOf(request), request.body)),
  );

  app.patch(
    '/workspaces/:workspaceId/computer-time/categories/:categoryId',
    {
      schema: {
        tags: ctTags,
        summary: 'Change a category: its name, place, productivity or rules (history is read by them at once)',
        params: categoryParams,
        body: updateActivityCategoryBody,
        response: { 200: activityCategoryView, ...errorResponses },
      },
    },
    async (request) => computerTime.updateCategory(actorOf(request), request.params.categoryId, request.body),
  );

  app.delete(
    '/workspaces/:workspaceId/computer-time/categories/:categoryId',
    {
      schema: {
        tags: ctTags,
        summary: 'Delete a category and the categories inside it',
        params: categoryParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await computerTime.deleteCategory(actorOf(request), request.params.categoryId);
      return reply.code(204).send(null);
    },
  );
};
