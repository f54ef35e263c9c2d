import { createExportJobBody, exportJobList, exportJobView, exportQuery } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { acceptsEncoding, sendDownload } from '../../platform/downloads.js';
import { idempotencyKeyOf } from '../../platform/idempotency.js';
import { errorResponses, workspaceParams as params } from '../../platform/schemas.js';

const jobParams = params.extend({ jobId: z.uuid() });

/** Exports: any report of the engine as a CSV, XLSX or PDF file, with the report's own query string. */
export const exportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { exports, exportJobs } = app.services;
  const writeTimeoutMs = app.config.EXPORT_WRITE_TIMEOUT_SECONDS * 1000;

  app.get(
    '/workspaces/:workspaceId/reports/export',
    {
      schema: {
        tags: ['reports'],
        summary: 'Export a report as CSV, Excel (XLSX) or PDF',
        description:
          'The report is `kind` (summary, detailed or matrix) with every other parameter as that report takes it ' +
          '(the same filters, groupBy, rows/columns, sort). The answer is the file (text/csv, ' +
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet or application/pdf) as an attachment, ' +
          'streamed; it holds what the report shows the caller: the same people, money only where they may see it ' +
          '(a Summary or matrix with money measures they may not see answers 403 money_forbidden, as the report does). ' +
          'A report with more rows than EXPORT_JOB_MIN_ROWS (50,000 by default) answers 409 export_too_large: ' +
          'start it with POST …/reports/export-jobs instead. Past EXPORTS_PER_USER downloads under way at once ' +
          '(2 by default; also per workspace and per server) it answers 429 too_many_exports with Retry-After.',
        params,
        querystring: exportQuery,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      // The service reads the query string as sent: the report's own schema parses its part.
      const query = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
      const file = await exports.export(actorOf(request), request.url.includes('?') ? query : new URLSearchParams(), {
        // Counted before the first byte: a report too large to stream at once runs as a job.
        maxRows: exports.jobMinRows,
        download: true,
      });
      return sendDownload(reply, file, writeTimeoutMs);
    },
  );

  app.post(
    '/workspaces/:workspaceId/reports/export-jobs',
    {
      schema: {
        tags: ['reports'],
        summary: 'Export a large report in the background',
        description:
          'Queues the export the synchronous GET …/reports/export would stream (`query` is its query string, ' +
          '`format` csv, xlsx or pdf). It runs as the caller, with the same permissions, re-checked when it runs; ' +
          'poll GET …/export-jobs/{jobId} for progress, then download …/file (the caller alone, for 24 hours). ' +
          'The caller is e-mailed when the file is ready. Send an Idempotency-Key to make a retry answer the same job.',
        params,
        body: createExportJobBody,
        response: { 202: exportJobView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await exportJobs.create(actorOf(request), request.body, idempotencyKeyOf(request))),
  );

  app.get(
    '/workspaces/:workspaceId/reports/export-jobs',
    {
      schema: {
        tags: ['reports'],
        summary: 'The caller’s recent exports, newest first',
        params,
        response: { 200: exportJobList, ...errorResponses },
      },
    },
    async (request) => ({ items: await exportJobs.list(actorOf(request)) }),
  );

  app.get(
    '/workspaces/:workspaceId/reports/export-jobs/:jobId',
    {
      schema: {
        tags: ['reports'],
        summary: 'One of the caller’s exports: status and progress',
        params: jobParams,
        response: { 200: exportJobView, ...errorResponses },
      },
    },
    async (request) => exportJobs.find(actorOf(request), request.params.jobId),
  );

  app.get(
    '/workspaces/:workspaceId/reports/export-jobs/:jobId/file',
    {
      schema: {
        tags: ['reports'],
        summary: 'Download a finished export (its owner only); 410 once it has expired',
        params: jobParams,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const file = await exportJobs.file(actorOf(request), request.params.jobId, {
        acceptsGzip: acceptsEncoding(request.headers['accept-encoding'], 'gzip'),
      });
      return sendDownload(reply, file, writeTimeoutMs);
    },
  );
};
