import {
  createRateBody,
  listRatesQuery,
  rateHistoryView,
  rateSettingsView,
  rateView,
  reapplyPreviewView,
  reapplyRatesBody,
  reapplyResultView,
  updateRateSettingsBody,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceId, workspaceParams as wsParams } from '../../platform/schemas.js';

const tags = ['rates'];
const base = '/workspaces/:workspaceId/rates';
const rateParams = z.object({ workspaceId, rateId: z.uuid({ error: 'Rate not found.' }) });

export const ratesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { rates } = app.services;

  app.get(
    `${base}/settings`,
    {
      schema: {
        tags,
        summary: "The workspace's currency and who beside owners and admins sees money",
        params: wsParams,
        response: { 200: rateSettingsView, ...errorResponses },
      },
    },
    async (request) => rates.settings(actorOf(request)),
  );

  app.patch(
    `${base}/settings`,
    {
      schema: {
        tags,
        summary: 'Change the currency and money visibility (Owners and Admins)',
        params: wsParams,
        body: updateRateSettingsBody,
        response: { 200: rateSettingsView, ...errorResponses },
      },
    },
    async (request) => rates.updateSettings(actorOf(request), request.body),
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary:
          'The history of one level’s rate, newest first: all of it for Owners and Admins; for others the billable and cost rates they may see (managers their people’s, members their own when allowed)',
        params: wsParams,
        querystring: listRatesQuery,
        response: { 200: rateHistoryView, ...errorResponses },
      },
    },
    async (request) => rates.list(actorOf(request), request.query),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: 'A new rate of a level from a day on; saved entries keep theirs (Owners and Admins)',
        params: wsParams,
        body: createRateBody,
        response: { 201: rateView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await rates.create(actorOf(request), request.body)),
  );

  app.delete(
    `${base}/:rateId`,
    {
      schema: {
        tags,
        summary: 'Delete a mistaken or future rate (Owners and Admins)',
        params: rateParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await rates.remove(actorOf(request), request.params.rateId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/reapply/preview`,
    {
      schema: {
        tags,
        summary: 'What re-applying the rates in force to a level’s entries of a date range would change',
        params: wsParams,
        body: reapplyRatesBody,
        response: { 200: reapplyPreviewView, ...errorResponses },
      },
    },
    async (request) => rates.reapplyPreview(actorOf(request), request.body),
  );

  app.post(
    `${base}/reapply`,
    {
      schema: {
        tags,
        summary: 'Re-apply the rates in force to the same selection as the preview (Owners and Admins)',
        params: wsParams,
        body: reapplyRatesBody,
        response: { 200: reapplyResultView, ...errorResponses },
      },
    },
    async (request) => rates.reapply(actorOf(request), request.body),
  );
};
