import {
  bulkMembersBody,
  memberUpdateBody,
  pageView,
  pagingFields,
  teamSettingsBody,
  text,
  transferOwnershipBody,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorBody, errorResponses, workspaceParams } from '../../platform/schemas.js';
import { memberView, teamSettingsView } from './members.presenter.js';

const tags = ['members'];
const memberParams = workspaceParams.extend({ userId: z.uuid({ error: 'Member not found.' }) });
const responses = { ...errorResponses, 402: errorBody };

export const membersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { members } = app.services;

  app.get(
    '/workspaces/:workspaceId/members',
    {
      schema: {
        tags,
        summary: 'Members with role, status, external id, groups and projects (not for guests)',
        params: workspaceParams,
        querystring: z.object({
          search: text({ max: 200 }).optional(),
          status: z.enum(['active', 'disabled']).optional(),
          for: z.enum(['reports']).optional().describe('reports: honour "hide disabled users"'),
          ...pagingFields,
          limit: pagingFields.limit.default(500),
        }),
        response: {
          200: pageView(memberView),
          ...responses,
        },
      },
    },
    async (request) => {
      const { limit, offset, cursor } = request.query;
      const result = await members.list(actorOf(request), {
        search: request.query.search,
        status: request.query.status,
        forReports: request.query.for === 'reports',
        limit,
        offset,
        cursor,
      });
      return { ...result, limit, offset };
    },
  );

  app.get(
    '/workspaces/:workspaceId/members/:userId',
    {
      schema: { tags, summary: 'One member', params: memberParams, response: { 200: memberView, ...responses } },
    },
    async (request) => members.get(actorOf(request), request.params.userId),
  );

  app.patch(
    '/workspaces/:workspaceId/members/:userId',
    {
      schema: {
        tags,
        summary: 'Change role, status (disabling ends their access here) or external id (owner or admin)',
        params: memberParams,
        body: memberUpdateBody,
        response: { 200: memberView, ...responses },
      },
    },
    async (request) => members.update(actorOf(request), request.params.userId, request.body),
  );

  app.delete(
    '/workspaces/:workspaceId/members/:userId',
    {
      schema: {
        tags,
        summary: 'Remove a member from the workspace; their past entries stay attributed to them',
        params: memberParams,
        response: { 204: z.null(), ...responses },
      },
    },
    async (request, reply) => {
      await members.remove(actorOf(request), request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/workspaces/:workspaceId/leave',
    {
      // Leaving needs no sign-in through the workspace's identity provider: nobody is held in one.
      config: { allowWithoutSso: true },
      schema: {
        tags,
        summary: 'Leave the workspace (any member but the owner, who transfers the ownership first: 403)',
        params: workspaceParams,
        response: { 204: z.null(), ...responses },
      },
    },
    async (request, reply) => {
      await members.leave(actorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/workspaces/:workspaceId/members/bulk',
    {
      schema: {
        tags,
        summary: 'Bulk edit: one role, status or group change for many members, all or nothing',
        params: workspaceParams,
        body: bulkMembersBody,
        response: { 200: z.object({ items: z.array(memberView) }), ...responses },
      },
    },
    async (request) => ({ items: await members.bulkUpdate(actorOf(request), request.body) }),
  );

  app.post(
    '/workspaces/:workspaceId/owner',
    {
      schema: {
        tags,
        summary: 'Transfer the ownership to another member (owner only); the old owner becomes an admin',
        params: workspaceParams,
        body: transferOwnershipBody,
        response: { 200: memberView, ...responses },
      },
    },
    async (request) => members.transferOwnership(actorOf(request), request.body.userId),
  );

  app.get(
    '/workspaces/:workspaceId/team-settings',
    {
      schema: {
        tags,
        summary: 'Seats in use against licenses, and "hide disabled users from lists in reports"',
        params: workspaceParams,
        response: { 200: teamSettingsView, ...responses },
      },
    },
    async (request) => members.settings(actorOf(request)),
  );

  app.patch(
    '/workspaces/:workspaceId/team-settings',
    {
      schema: {
        tags,
        summary: 'Save "hide disabled users from lists in reports" (owner or admin)',
        params: workspaceParams,
        body: teamSettingsBody,
        response: { 200: teamSettingsView, ...responses },
      },
    },
    async (request) => members.updateSettings(actorOf(request), request.body),
  );
};
