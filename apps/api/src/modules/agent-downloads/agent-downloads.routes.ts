import { agentReleaseView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload } from '../../platform/downloads.js';
import { errorResponses } from '../../platform/schemas.js';
import { createAgentDownloads } from './agent-downloads.service.js';

const tags = ['agent'];

/** The desktop agent's download and what it is (no sign-in: it is installed before it pairs). */
export const agentDownloadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const downloads = createAgentDownloads({ distFile: app.config.agentDist });

  app.get(
    '/agent/release',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The desktop agent this server offers: version, size and SHA-256',
        response: { 200: agentReleaseView, ...errorResponses },
      },
    },
    async () => downloads.release(),
  );

  app.get(
    '/agent/download',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Download the desktop agent (sundial-agent.mjs, run with Node.js)',
        description:
          'One JavaScript file: `node sundial-agent.mjs pair --server <this address>`, then `node sundial-agent.mjs run`. ' +
          'Its SHA-256 is in the ETag and in GET /agent/release. 404 agent_not_built when the server was started without it.',
        response: { 304: z.null().describe('The file the If-None-Match names: unchanged'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const file = await downloads.file();
      const etag = `"${file.sha256}"`;
      reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) {
        file.stream.destroy();
        return reply.code(304).send(null);
      }
      return sendDownload(reply, { ...file, contentType: 'text/javascript; charset=utf-8' }, 60_000);
    },
  );
};
