import { auditLogPage, auditLogQuery, auditSettingsBody, auditSettingsView, auditVerifyView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../platform/actor.js';
import { sendDownload } from '../../platform/downloads.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['audit-log'];

/** The workspace's audit log (issue 34): owners and admins read it and check its hash chain. */
export const auditLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auditLog } = app.services;

  app.get(
    '/workspaces/:workspaceId/audit-log',
    {
      schema: {
        tags,
        summary: 'The audit log, newest first: filter by person, action, object and time; page by cursor',
        params: workspaceParams,
        querystring: auditLogQuery,
        response: { 200: auditLogPage, ...errorResponses },
      },
    },
    async (request) => auditLog.list(actorOf(request), request.query),
  );

  app.get(
    '/workspaces/:workspaceId/audit-log/export',
    {
      schema: {
        tags,
        summary: 'The audit log as CSV: every record the filters match, newest first',
        params: workspaceParams,
        querystring: auditLogQuery.omit({ limit: true, cursor: true }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const stream = auditLog.exportCsv(actorOf(request), request.query);
      const day = new Date().toISOString().slice(0, 10);
      return sendDownload(
        reply,
        { stream, contentType: 'text/csv; charset=utf-8', fileName: `audit-log-${day}.csv` },
        app.config.EXPORT_WRITE_TIMEOUT_SECONDS * 1000,
      );
    },
  );

  app.post(
    '/workspaces/:workspaceId/audit-log/verify',
    {
      schema: {
        tags,
        summary:
          'Seal the newest records and walk the hash chain: intact, or the first record edited, deleted or cut off',
        params: workspaceParams,
        response: { 200: auditVerifyView, ...errorResponses },
      },
    },
    async (request) => auditLog.verify(actorOf(request)),
  );

  app.get(
    '/workspaces/:workspaceId/audit-log/settings',
    {
      schema: {
        tags,
        summary: 'How long the audit log keeps its records (null: forever)',
        params: workspaceParams,
        response: { 200: auditSettingsView, ...errorResponses },
      },
    },
    async (request) => auditLog.settings(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/audit-log/settings',
    {
      schema: {
        tags,
        summary: 'Set the retention (owner): records older than it are removed daily from the start of the chain',
        params: workspaceParams,
        body: auditSettingsBody,
        response: { 200: auditSettingsView, ...errorResponses },
      },
    },
    async (request) => auditLog.saveSettings(actorOf(request), request.body),
  );
};
