import { reportScheduleBody, reportScheduleEnvelope, reportScheduleSendView, reportScheduleView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['saved reports'];
const base = '/workspaces/:workspaceId/saved-reports/:savedReportId/schedule';
const params = workspaceParams.extend({ savedReportId: z.string().max(100) });

/** The e-mail schedule of a saved report: its owner's to set, pause, resume, delete and send now. */
export const reportSchedulesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reportSchedules } = app.services;

  app.get(
    base,
    {
      schema: {
        tags,
        summary: "One of your saved reports' e-mail schedule (null when it has none)",
        params,
        response: { 200: reportScheduleEnvelope, ...errorResponses },
      },
    },
    async (request) => reportSchedules.get(actorOf(request), request.params.savedReportId),
  );

  app.put(
    base,
    {
      schema: {
        tags,
        summary: 'E-mail one of your saved reports daily, weekly or monthly (creates or replaces its schedule)',
        description:
          'The report goes out at `hour` (0–23) of `timeZone` (yours unless given) on every day, on `weekday` ' +
          '(0 Sunday … 6 Saturday) or on `monthDay` (1–28), as a PDF, XLSX or CSV attachment, to members ' +
          '(`recipientUserIds`) and addresses (`recipientEmails`), at most 50 in all. Its date range is the saved ' +
          'report\'s own ("last week"), counted when it is sent. Editing a failed schedule makes it active again.',
        params,
        body: reportScheduleBody,
        response: { 200: reportScheduleView, ...errorResponses },
      },
    },
    async (request) => reportSchedules.save(actorOf(request), request.params.savedReportId, request.body),
  );

  app.delete(
    base,
    {
      schema: {
        tags,
        summary: 'Stop e-mailing a saved report and forget its schedule',
        params,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await reportSchedules.remove(actorOf(request), request.params.savedReportId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/pause`,
    {
      schema: { tags, summary: 'Pause a schedule', params, response: { 200: reportScheduleView, ...errorResponses } },
    },
    async (request) => reportSchedules.pause(actorOf(request), request.params.savedReportId),
  );

  app.post(
    `${base}/resume`,
    {
      schema: {
        tags,
        summary: 'Resume a paused or failed schedule from its next send time',
        params,
        response: { 200: reportScheduleView, ...errorResponses },
      },
    },
    async (request) => reportSchedules.resume(actorOf(request), request.params.savedReportId),
  );

  app.post(
    `${base}/send`,
    {
      schema: {
        tags,
        summary: 'Send the report to its recipients now (queued; its schedule is unchanged)',
        params,
        response: { 202: reportScheduleSendView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await reportSchedules.sendNow(actorOf(request), request.params.savedReportId)),
  );
};
