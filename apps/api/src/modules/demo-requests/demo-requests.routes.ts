import { demoRequestBody, demoRequestMessages } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/schemas.js';
import { createDemoRequestsService } from './demo-requests.service.js';

export const demoRequestsRoutes: FastifyPluginAsyncZod = async (app) => {
  const demoRequests = createDemoRequestsService({
    db: app.services.db,
    config: app.config,
    mailer: app.services.mailer,
  });

  app.post(
    '/demo-requests',
    {
      config: { public: true },
      schema: {
        tags: ['public site'],
        summary: 'Ask for a demo; the request is stored and e-mailed to the operator',
        body: demoRequestBody,
        response: { 201: z.object({ id: z.uuid(), message: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = await demoRequests.submit(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return reply.status(201).send({ id, message: demoRequestMessages.received });
    },
  );
};
