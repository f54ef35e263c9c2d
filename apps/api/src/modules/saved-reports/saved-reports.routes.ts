import {
  createdReportCsvLinkView,
  createdReportLinkView,
  createReportCsvLinkBody,
  createReportLinkBody,
  createSavedReportBody,
  reportCsvLinkStateView,
  reportLinkListView,
  reportLinkView,
  SHARE_SECRET_HEADER,
  savedReportListView,
  savedReportView,
  sharedReportQuery,
  sharedReportView,
  updateSavedReportBody,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { sendDownload } from '../../platform/downloads.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['saved reports'];
const base = '/workspaces/:workspaceId/saved-reports';
const reportParams = workspaceParams.extend({ savedReportId: z.string().max(100) });
const linkParams = reportParams.extend({ linkId: z.string().max(100) });

/** Saved reports, their public links, and the public page's one read (no session: the link's secret). */
export const savedReportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { savedReports } = app.services;

  app.get(
    base,
    {
      schema: {
        tags,
        summary: "The caller's saved reports and those shared with the workspace",
        params: workspaceParams,
        response: { 200: savedReportListView, ...errorResponses },
      },
    },
    async (request) => savedReports.list(actorOf(request)),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: "Save a report page's view (its slug and query string) under a name",
        params: workspaceParams,
        body: createSavedReportBody,
        response: { 201: savedReportView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await savedReports.create(actorOf(request), request.body)),
  );

  app.get(
    `${base}/:savedReportId`,
    {
      schema: {
        tags,
        summary: 'One saved report (own or shared with the workspace)',
        params: reportParams,
        response: { 200: savedReportView, ...errorResponses },
      },
    },
    async (request) => savedReports.get(actorOf(request), request.params.savedReportId),
  );

  app.patch(
    `${base}/:savedReportId`,
    {
      schema: {
        tags,
        summary: 'Rename, re-save or re-share one of your saved reports',
        params: reportParams,
        body: updateSavedReportBody,
        response: { 200: savedReportView, ...errorResponses },
      },
    },
    async (request) => savedReports.update(actorOf(request), request.params.savedReportId, request.body),
  );

  app.delete(
    `${base}/:savedReportId`,
    {
      schema: {
        tags,
        summary: 'Delete a saved report and its links (its owner; owners and admins when shared)',
        params: reportParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await savedReports.remove(actorOf(request), request.params.savedReportId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    `${base}/:savedReportId/links`,
    {
      schema: {
        tags,
        summary: "A saved report's public links, with their state (never their secrets)",
        params: reportParams,
        response: { 200: reportLinkListView, ...errorResponses },
      },
    },
    async (request) => savedReports.listLinks(actorOf(request), request.params.savedReportId),
  );

  app.post(
    `${base}/:savedReportId/links`,
    {
      schema: {
        tags,
        summary:
          'Create a public read-only link; the answer holds its secret, shown this once: open /share/<id>#<secret>',
        params: reportParams,
        body: createReportLinkBody,
        response: { 201: createdReportLinkView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await savedReports.createLink(actorOf(request), request.params.savedReportId, request.body)),
  );

  app.post(
    `${base}/:savedReportId/links/:linkId/revoke`,
    {
      schema: {
        tags,
        summary: 'Revoke a public link: it stops working at once',
        params: linkParams,
        response: { 200: reportLinkView, ...errorResponses },
      },
    },
    async (request) => savedReports.revokeLink(actorOf(request), request.params.savedReportId, request.params.linkId),
  );

  app.get(
    '/shared-reports/:linkId',
    {
      config: { public: true },
      schema: {
        tags,
        summary: `A public link's report, without signing in: the link's secret goes in the ${SHARE_SECRET_HEADER} header, never in the URL`,
        description:
          "A Detailed report answers one page of entries at a time: ask for the next with `cursor`, the previous page's `nextCursor`. " +
          'A Summary of more than 2,000 groups comes folded (`folded`, each group with its `childCount`), at most 1,000 groups ' +
          "under each parent (the others summed in `rest`): ask for a group's subgroups with `within`, its keys as a JSON list.",
        params: z.object({ linkId: z.string().max(100) }),
        querystring: sharedReportQuery,
        headers: z.object({ [SHARE_SECRET_HEADER]: z.string().max(200).optional() }),
        response: { 200: sharedReportView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const secret = request.headers[SHARE_SECRET_HEADER];
      const view = await savedReports.view(
        request.params.linkId,
        typeof secret === 'string' ? secret : undefined,
        { ip: request.ip },
        { cursor: request.query.cursor, within: request.query.within },
      );
      return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(view);
    },
  );

  app.get(
    `${base}/:savedReportId/csv-link`,
    {
      schema: {
        tags,
        summary: "A saved report's CSV link for spreadsheet imports, with its state (never its token)",
        params: reportParams,
        response: { 200: reportCsvLinkStateView, ...errorResponses },
      },
    },
    async (request) => savedReports.getCsvLink(actorOf(request), request.params.savedReportId),
  );

  app.post(
    `${base}/:savedReportId/csv-link`,
    {
      schema: {
        tags,
        summary:
          'Create the CSV link for Google Sheets (=IMPORTDATA) and other spreadsheet imports; it replaces the one before. ' +
          'The answer holds its token and path, shown this once',
        params: reportParams,
        body: createReportCsvLinkBody,
        response: { 201: createdReportCsvLinkView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .header('cache-control', 'no-store')
        .send(await savedReports.createCsvLink(actorOf(request), request.params.savedReportId, request.body)),
  );

  app.post(
    `${base}/:savedReportId/csv-link/revoke`,
    {
      schema: {
        tags,
        summary: 'Revoke the CSV link: spreadsheets importing it get 404 from now on',
        params: reportParams,
        response: { 200: reportCsvLinkStateView, ...errorResponses },
      },
    },
    async (request) => savedReports.revokeCsvLink(actorOf(request), request.params.savedReportId),
  );

  app.get(
    '/public/reports/csv/:file',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          "A saved report's CSV for spreadsheet imports, without signing in: `<token>.csv`, the token of its CSV link",
        description:
          'For `=IMPORTDATA("<this URL>")` in Google Sheets. The report runs at each fetch as the link\'s creator with ' +
          "their access of now; costs only when the link includes them. Unknown, revoked and expired links answer 404. The token is redacted from the server's logs.",
        params: z.object({ file: z.string().max(200) }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const file = await savedReports.csv(request.params.file, { ip: request.ip });
      reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex');
      return sendDownload(
        reply,
        { stream: file.stream, contentType: file.contentType, sizeBytes: file.sizeBytes },
        app.config.EXPORT_WRITE_TIMEOUT_SECONDS * 1000,
      );
    },
  );
};
