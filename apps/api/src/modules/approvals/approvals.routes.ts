import {
  approvalListQuery,
  approvalSettingsBody,
  approvalSettingsView,
  approvalView,
  approveBody,
  periodStateQuery,
  periodStateView,
  rejectBody,
  submitApprovalBody,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['approvals'];
const approvalParams = workspaceParams.extend({
  approvalId: z.uuid({ error: 'This approval request was not found.' }),
});

/** Timesheet approvals and the workspace lock date (issue 17). */
export const approvalsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { approvals } = app.services;

  app.get(
    '/workspaces/:workspaceId/approvals/settings',
    {
      schema: {
        tags,
        summary: 'The approval period, who approves, and the lock date',
        params: workspaceParams,
        response: { 200: approvalSettingsView, ...errorResponses },
      },
    },
    async (request) => approvals.getSettings(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/approvals/settings',
    {
      schema: {
        tags,
        summary: 'Set the approval period, who approves, and the lock date (owners and admins; Pro)',
        params: workspaceParams,
        body: approvalSettingsBody,
        response: { 200: approvalSettingsView, ...errorResponses },
      },
    },
    async (request) => approvals.updateSettings(actorOf(request), request.body),
  );

  app.get(
    '/workspaces/:workspaceId/approvals/period',
    {
      schema: {
        tags,
        summary: "A person's period holding a day: its approval and whether the asker may change it",
        params: workspaceParams,
        querystring: periodStateQuery,
        response: { 200: periodStateView, ...errorResponses },
      },
    },
    async (request) => approvals.period(actorOf(request), request.query.day, request.query.userId),
  );

  app.get(
    '/workspaces/:workspaceId/approvals',
    {
      schema: {
        tags,
        summary: 'Periods in one status among the people the asker approves',
        params: workspaceParams,
        querystring: approvalListQuery,
        response: { 200: z.object({ items: z.array(approvalView) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await approvals.list(actorOf(request), request.query.status) }),
  );

  app.post(
    '/workspaces/:workspaceId/approvals',
    {
      schema: {
        tags,
        summary: 'Submit one’s own period holding a day for approval (Pro)',
        params: workspaceParams,
        body: submitApprovalBody,
        response: { 201: approvalView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await approvals.submit(actorOf(request), request.body.day)),
  );

  app.post(
    '/workspaces/:workspaceId/approvals/:approvalId/approve',
    {
      schema: {
        tags,
        summary: 'Approve a submitted period (its approver; Pro)',
        params: approvalParams,
        body: approveBody,
        response: { 200: approvalView, ...errorResponses },
      },
    },
    async (request) => approvals.approve(actorOf(request), request.params.approvalId, request.body.comment),
  );

  app.post(
    '/workspaces/:workspaceId/approvals/:approvalId/reject',
    {
      schema: {
        tags,
        summary: 'Reject a submitted period with a comment; it opens again (its approver; Pro)',
        params: approvalParams,
        body: rejectBody,
        response: { 200: approvalView, ...errorResponses },
      },
    },
    async (request) => approvals.reject(actorOf(request), request.params.approvalId, request.body.comment),
  );

  app.post(
    '/workspaces/:workspaceId/approvals/:approvalId/withdraw',
    {
      schema: {
        tags,
        summary: 'Withdraw a submission (its owner) or an approval (its approver); the period opens again',
        params: approvalParams,
        response: { 200: approvalView, ...errorResponses },
      },
    },
    async (request) => approvals.withdraw(actorOf(request), request.params.approvalId),
  );
};
