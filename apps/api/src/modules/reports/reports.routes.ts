import {
  detailedReportQuery,
  detailedReportView,
  estimatesReportQuery,
  estimatesReportView,
  markInvoicedBody,
  markInvoicedView,
  matrixReportQuery,
  matrixReportView,
  reportQuery,
  sourceReportQuery,
  sourceSummaryView,
  summaryReportView,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { replyInSlices } from '../../platform/json-slices.js';
import { errorResponses, workspaceParams as params } from '../../platform/schemas.js';

const tags = ['reports'];
const base = '/workspaces/:workspaceId/reports';

/** The reports: the query string is the report's definition (see reportQuery in @sundial/core). */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { reports } = app.services;

  app.get(
    `${base}/summary`,
    {
      schema: {
        tags,
        summary: 'Summary: tracked time and amounts grouped by up to three dimensions, with subtotals and totals',
        params,
        querystring: reportQuery,
        response: { 200: summaryReportView, ...errorResponses },
      },
    },
    // 535,000 groups are written in time slices as the socket takes them, not in one piece.
    async (request, reply) =>
      replyInSlices(reply, summaryReportView, 'groups', await reports.summary(actorOf(request), request.query)),
  );

  app.get(
    `${base}/sources/:source/summary`,
    {
      schema: {
        tags,
        summary: 'Summary of a source of facts besides time: grouped by up to three of its dimensions, with its sums',
        params: params.extend({ source: z.string().max(40) }),
        querystring: sourceReportQuery,
        response: { 200: sourceSummaryView, ...errorResponses },
      },
    },
    async (request) => reports.sources.summary(actorOf(request), request.params.source, request.query),
  );

  app.get(
    `${base}/detailed`,
    {
      schema: {
        tags,
        summary: 'Detailed: every entry of the range, sorted, one page at a time (pass nextCursor as cursor)',
        params,
        querystring: detailedReportQuery,
        response: { 200: detailedReportView, ...errorResponses },
      },
    },
    async (request) => reports.detailed(actorOf(request), request.query),
  );

  app.get(
    `${base}/matrix`,
    {
      schema: {
        tags,
        summary: 'Matrix: rows by one dimension, columns by another (e.g. user x day), with row and column totals',
        params,
        querystring: matrixReportQuery,
        response: { 200: matrixReportView, ...errorResponses },
      },
    },
    async (request) => reports.matrix(actorOf(request), request.query),
  );

  app.get(
    `${base}/estimates`,
    {
      schema: {
        tags,
        summary:
          'Estimates: hour and fee budgets of projects and tasks against tracked time or billable amount, % used and remaining; a monthly-reset budget has a line per month of the range',
        description:
          'Takes the same filters as the summary. A budget over the life of a project counts everything tracked up to the last day of the range; a monthly-reset budget counts each month of the range up to that day; a task budget counts its subtasks. Hours budgets are in seconds, fee budgets in cents of the workspace currency; fee figures are null (status "hidden", moneyHidden true) when the caller may not see the billable amounts of everyone in the report.',
        params,
        querystring: estimatesReportQuery,
        response: { 200: estimatesReportView, ...errorResponses },
      },
    },
    async (request) => reports.estimates(actorOf(request), request.query),
  );

  app.post(
    `${base}/invoiced`,
    {
      schema: {
        tags,
        summary: 'Mark entries invoiced or not: the given ids, or every entry a report filter lists',
        params,
        body: markInvoicedBody,
        response: { 200: markInvoicedView, ...errorResponses },
      },
    },
    async (request) => reports.markInvoiced(actorOf(request), request.body),
  );
};
