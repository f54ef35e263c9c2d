import {
  attendanceSettingsBody,
  attendanceSettingsView,
  overtimeQuery,
  overtimeView,
  workContractBody,
  workContractListView,
  workContractView,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

/** Attendance (issue 37): the workspace's settings, people's contracts and their overtime. */
export const attendanceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { attendance } = app.services;
  const tags = ['attendance'];

  app.get(
    '/workspaces/:workspaceId/attendance/settings',
    {
      schema: {
        tags,
        summary: 'Where public holidays come from, and the working-time rules checked',
        params: workspaceParams,
        response: { 200: attendanceSettingsView, ...errorResponses },
      },
    },
    async (request) => attendance.settings(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/attendance/settings',
    {
      schema: {
        tags,
        summary: 'Change the attendance settings (owners and admins)',
        params: workspaceParams,
        body: attendanceSettingsBody,
        response: { 200: attendanceSettingsView, ...errorResponses },
      },
    },
    async (request) => attendance.saveSettings(actorOf(request), request.body),
  );

  app.get(
    '/workspaces/:workspaceId/attendance/contracts',
    {
      schema: {
        tags,
        summary: 'A person’s contracts, earliest first: your own, or of someone whose time you see',
        params: workspaceParams,
        querystring: z.object({ userId: z.uuid({ error: 'userId must be an id.' }).optional() }),
        response: { 200: workContractListView, ...errorResponses },
      },
    },
    async (request) => attendance.contracts(actorOf(request), request.query.userId),
  );

  app.post(
    '/workspaces/:workspaceId/attendance/contracts',
    {
      schema: {
        tags,
        summary: 'Give a person a contract from a day on (owners and admins)',
        params: workspaceParams,
        body: workContractBody,
        response: { 201: workContractView, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await attendance.addContract(actorOf(request), request.body)),
  );

  app.delete(
    '/workspaces/:workspaceId/attendance/contracts/:contractId',
    {
      schema: {
        tags,
        summary: 'Delete a contract (owners and admins)',
        params: workspaceParams.extend({ contractId: z.uuid({ error: 'Contract not found.' }) }),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await attendance.deleteContract(actorOf(request), request.params.contractId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/workspaces/:workspaceId/attendance/overtime',
    {
      schema: {
        tags,
        summary: 'Expected and worked time per day, and the overtime balance, over at most a year',
        params: workspaceParams,
        querystring: overtimeQuery,
        response: { 200: overtimeView, ...errorResponses },
      },
    },
    async (request) => attendance.overtime(actorOf(request), request.query),
  );
};
