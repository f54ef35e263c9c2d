import { exportQuery } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams as params } from '../../platform/schemas.js';

/** `attachment; filename="..."` with the UTF-8 name beside an ASCII one (RFC 6266). */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7E]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** Exports: any report of the engine as a CSV, XLSX or PDF file, with the report's own query string. */
export const exportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { exports } = app.services;

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
          '(a Summary or matrix with money measures they may not see answers 403 money_forbidden, as the report does).',
        params,
        querystring: exportQuery,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      // The service reads the query string as sent: the report's own schema parses its part.
      const query = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
      const file = await exports.export(actorOf(request), request.url.includes('?') ? query : new URLSearchParams());
      return (
        reply
          .header('content-type', file.contentType)
          .header('content-disposition', disposition(file.fileName))
          .header('cache-control', 'no-store')
          // The file streams as it is written; only the errors have a JSON schema.
          .send(file.stream as never)
      );
    },
  );
};
