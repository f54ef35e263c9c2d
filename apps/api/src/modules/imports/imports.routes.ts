import type { Readable } from 'node:stream';
import { importView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { IMPORT_SOURCES, tooLarge } from './imports.parse.js';

const tags = ['imports'];
const importParams = workspaceParams.extend({ importId: z.uuid() });
const CSV_TYPES = ['text/csv', 'application/octet-stream'];

/**
 * Import From CSV and Import From add-ons (Toggl Track, Clockify, Harvest exports): the file is
 * the raw body, read as it streams (this plugin's content-type parser hands the stream on, so
 * the API's JSON body limit does not apply here and the reader enforces the byte limit itself).
 */
export const importsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { imports } = app.services;
  app.addContentTypeParser(CSV_TYPES, (_request, payload, done) => done(null, payload));

  app.post(
    '/workspaces/:workspaceId/imports',
    {
      schema: {
        tags,
        summary: 'Upload a CSV file (the raw body, text/csv, up to 100 MB): it is read row by row for a preview',
        consumes: CSV_TYPES,
        params: workspaceParams,
        querystring: z.object({ source: z.enum(IMPORT_SOURCES).default('csv') }),
        response: { 201: importView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const file = request.body as Readable | undefined;
      try {
        if (!file || typeof (file as Partial<Readable>).pipe !== 'function') {
          throw new AppError('invalid_csv', 'Send the file as the body, with the type text/csv.', { status: 415 });
        }
        if (Number(request.headers['content-length'] ?? 0) > imports.limits.maxBytes) throw tooLarge(imports.limits);
        const view = await imports.upload(actor, {
          source: request.query.source,
          timeZone: requireAuth(request).user.time_zone,
          file,
        });
        return reply.code(201).send(view);
      } catch (error) {
        // Stopped before the end of the upload: the rest is not read, and the connection closes.
        if (!request.raw.complete) reply.header('connection', 'close');
        throw error;
      }
    },
  );

  app.get(
    '/workspaces/:workspaceId/imports/:importId',
    {
      schema: {
        tags,
        summary: 'An uploaded import: its preview, errors and progress',
        params: importParams,
        response: { 200: importView, ...errorResponses },
      },
    },
    async (request) => imports.find(actorOf(request), request.params.importId),
  );

  app.post(
    '/workspaces/:workspaceId/imports/:importId/run',
    {
      schema: {
        tags,
        summary: 'Import a read file in the background, all or nothing; asking again changes nothing',
        params: importParams,
        response: { 202: importView, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(202).send(await imports.run(actorOf(request), request.params.importId)),
  );
};
