import {
  detailedReportQuery,
  detailedReportView,
  markInvoicedBody,
  markInvoicedView,
  matrixReportQuery,
  matrixReportView,
  reportQuery,
  summaryReportView,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/actor.js';
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
    async (request) => reports.summary(actorOf(request), request.query),
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
