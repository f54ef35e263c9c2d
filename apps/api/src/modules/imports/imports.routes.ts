import type { Readable } from 'node:stream';
import { IMPORT_SOURCES, importRunBody, importView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth } from '../../platform/actor.js';
import { AppError } from '../../platform/errors.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { tooLarge } from './imports.parse.js';

const tags = ['imports'];
const importParams = workspaceParams.extend({ importId: z.uuid() });
/** CSV files, and any other file (a Trello board's JSON, a monday.com workbook) sent as bytes. */
const FILE_TYPES = [
  'text/csv',
  'application/octet-stream',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
];

/**
 * Import From CSV and Import From add-ons (Toggl Track, Clockify, Harvest exports): the file is
 * the raw body, read as it streams (this plugin's content-type parser hands the stream on, so
 * the API's JSON body limit does not apply here and the reader enforces the byte limit itself).
 */
export const importsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { imports } = app.services;
  app.addContentTypeParser(FILE_TYPES, (_request, payload, done) => done(null, payload));

  app.post(
    '/workspaces/:workspaceId/imports',
    {
      schema: {
        tags,
        summary:
          'Upload an export (the raw body, up to 100 MB: text/csv, or application/octet-stream for a Trello JSON or monday.com XLSX file): it is read for a preview',
        consumes: FILE_TYPES,
        params: workspaceParams,
        querystring: z.object({
          source: z.enum(IMPORT_SOURCES).default('csv'),
          /** The file's name: a Todoist export names its project only there. */
          fileName: z.string().max(255).optional(),
        }),
        response: { 201: importView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const file = request.body as Readable | undefined;
      try {
        if (!file || typeof (file as Partial<Readable>).pipe !== 'function') {
          throw new AppError(
            'invalid_csv',
            'Send the file as the body, with the type text/csv or application/octet-stream.',
            { status: 415 },
          );
        }
        if (Number(request.headers['content-length'] ?? 0) > imports.limits.maxBytes) throw tooLarge(imports.limits);
        const view = await imports.upload(actor, {
          source: request.query.source,
          timeZone: requireAuth(request).user.time_zone,
          file,
          fileName: request.query.fileName,
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
        summary:
          'Import a read file in the background, all or nothing; asking again changes nothing. A project tool’s file names a member or nobody for each unmatched assignee',
        params: importParams,
        body: importRunBody,
        response: { 202: importView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await imports.run(actorOf(request), request.params.importId, request.body)),
  );
};
