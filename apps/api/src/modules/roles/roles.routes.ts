import { customRoleAssignmentBody, customRoleBody, customRoleView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['roles'];
const roleParams = workspaceParams.extend({ roleId: z.uuid({ error: 'Role not found.' }) });
const memberParams = workspaceParams.extend({ userId: z.uuid({ error: 'Member not found.' }) });
const groupParams = workspaceParams.extend({ groupId: z.uuid({ error: 'Group not found.' }) });
const noContent = { 204: z.null(), ...errorResponses };
const base = '/workspaces/:workspaceId';

/** Custom roles (Pro, owners and admins): define, change, delete, and give to members and groups. */
export const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { roles } = app.services;

  app.get(
    `${base}/roles`,
    {
      schema: {
        tags,
        summary: 'Custom roles, with the members and groups holding each',
        params: workspaceParams,
        response: { 200: z.object({ items: z.array(customRoleView) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await roles.list(actorOf(request)) }),
  );

  app.post(
    `${base}/roles`,
    {
      schema: {
        tags,
        summary: 'Define a custom role from the permission matrix',
        params: workspaceParams,
        body: customRoleBody,
        response: { 201: customRoleView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await roles.create(actorOf(request), request.body)),
  );

  app.get(
    `${base}/roles/:roleId`,
    {
      schema: {
        tags,
        summary: 'One custom role',
        params: roleParams,
        response: { 200: customRoleView, ...errorResponses },
      },
    },
    async (request) => roles.get(actorOf(request), request.params.roleId),
  );

  app.put(
    `${base}/roles/:roleId`,
    {
      schema: {
        tags,
        summary: 'Replace a custom role (name, base role, permissions)',
        params: roleParams,
        body: customRoleBody,
        response: { 200: customRoleView, ...errorResponses },
      },
    },
    async (request) => roles.update(actorOf(request), request.params.roleId, request.body),
  );

  app.delete(
    `${base}/roles/:roleId`,
    {
      schema: {
        tags,
        summary: 'Delete a custom role (holders keep its base role)',
        params: roleParams,
        response: noContent,
      },
    },
    async (request, reply) => {
      await roles.remove(actorOf(request), request.params.roleId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    `${base}/members/:userId/custom-role`,
    {
      schema: {
        tags,
        summary: "Give a member a custom role (null: back to the role's base)",
        params: memberParams,
        body: customRoleAssignmentBody,
        response: noContent,
      },
    },
    async (request, reply) => {
      await roles.assignToMember(actorOf(request), request.params.userId, request.body.customRoleId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    `${base}/groups/:groupId/custom-role`,
    {
      schema: {
        tags,
        summary: "Give a group's members a custom role on top of their own (null: none)",
        params: groupParams,
        body: customRoleAssignmentBody,
        response: noContent,
      },
    },
    async (request, reply) => {
      await roles.assignToGroup(actorOf(request), request.params.groupId, request.body.customRoleId);
      return reply.status(204).send(null);
    },
  );
};
