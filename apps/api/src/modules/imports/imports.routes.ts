import { importPreviewView, importSummaryView, text } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';
import { IMPORT_SOURCES } from './imports.parse.js';

const tags = ['imports'];
const params = workspaceParams;
const body = z.object({
  source: z.enum(IMPORT_SOURCES),
  /** The CSV file's text. */
  csv: text({
    trim: false,
    min: 1,
    max: 10_000_000,
    required: 'Choose a file.',
    tooLong: 'The file is larger than 10 MB.',
  }),
});
const bodyLimit = 12 * 1024 * 1024;

/** Import From CSV and Import From add-ons (Toggl Track, Clockify, Harvest exports). */
export const importsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { imports } = app.services;
  const input = (request: { body: z.infer<typeof body> } & Parameters<typeof requireAuth>[0]) => ({
    source: request.body.source,
    text: request.body.csv,
    timeZone: requireAuth(request).user.time_zone,
  });

  app.post(
    '/workspaces/:workspaceId/imports/preview',
    {
      bodyLimit,
      schema: {
        tags,
        summary: 'Read an import file: rows with their errors, and what importing would create',
        params,
        body,
        response: {
          200: importPreviewView,
          ...errorResponses,
        },
      },
    },
    async (request) => imports.preview(actorOf(request), input(request)),
  );

  app.post(
    '/workspaces/:workspaceId/imports',
    {
      bodyLimit,
      schema: {
        tags,
        summary: 'Import a file in one transaction; nothing is imported when any row has an error',
        params,
        body,
        response: { 200: importSummaryView, ...errorResponses },
      },
    },
    async (request) => imports.run(actorOf(request), input(request)),
  );
};
