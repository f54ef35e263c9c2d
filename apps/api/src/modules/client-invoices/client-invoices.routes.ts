import {
  clientInvoiceListView,
  clientInvoicePreviewView,
  clientInvoiceSettingsBody,
  clientInvoiceSettingsView,
  clientInvoiceView,
  createClientInvoiceBody,
  listClientInvoicesQuery,
  markClientInvoicePaidBody,
  previewClientInvoiceBody,
  sendClientInvoiceBody,
  updateClientInvoiceBody,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { attachmentDisposition } from '../../platform/downloads.js';
import { errorResponses, workspaceId, workspaceParams as wsParams } from '../../platform/schemas.js';

const tags = ['client invoices'];
const base = '/workspaces/:workspaceId/client-invoices';
const invoiceParams = z.object({ workspaceId, invoiceId: z.uuid({ error: 'Invoice not found.' }) });
const one = { 200: clientInvoiceView, ...errorResponses };

export const clientInvoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { clientInvoices } = app.services;

  app.get(
    '/workspaces/:workspaceId/client-invoice-settings',
    {
      schema: {
        tags,
        summary: 'The invoice number pattern, next number, address and payment details (Owners and Admins, Pro)',
        params: wsParams,
        response: { 200: clientInvoiceSettingsView, ...errorResponses },
      },
    },
    async (request) => clientInvoices.settings(actorOf(request)),
  );

  app.put(
    '/workspaces/:workspaceId/client-invoice-settings',
    {
      schema: {
        tags,
        summary: 'Change the invoice settings (Owners and Admins, Pro)',
        params: wsParams,
        body: clientInvoiceSettingsBody,
        response: { 200: clientInvoiceSettingsView, ...errorResponses },
      },
    },
    async (request) => clientInvoices.updateSettings(actorOf(request), request.body),
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary: 'Client invoices, newest first, with counts and totals per status (Owners and Admins, Pro)',
        params: wsParams,
        querystring: listClientInvoicesQuery,
        response: { 200: clientInvoiceListView, ...errorResponses },
      },
    },
    async (request) => clientInvoices.list(actorOf(request), request.query),
  );

  app.post(
    `${base}/preview`,
    {
      schema: {
        tags,
        summary: "The lines an invoice of a client's unbilled billable time would have; writes nothing",
        params: wsParams,
        body: previewClientInvoiceBody,
        response: { 200: clientInvoicePreviewView, ...errorResponses },
      },
    },
    async (request) => clientInvoices.preview(actorOf(request), request.body),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        summary: "A draft invoice from a client's unbilled billable time (its entries are linked and locked)",
        params: wsParams,
        body: createClientInvoiceBody,
        response: { 201: clientInvoiceView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await clientInvoices.create(actorOf(request), request.body)),
  );

  app.get(
    `${base}/:invoiceId`,
    {
      schema: { tags, summary: 'An invoice with its lines, totals and entries', params: invoiceParams, response: one },
    },
    async (request) => clientInvoices.get(actorOf(request), request.params.invoiceId),
  );

  app.patch(
    `${base}/:invoiceId`,
    {
      schema: {
        tags,
        summary: "Change a draft's fixed-price lines, discount, taxes, notes or due day",
        params: invoiceParams,
        body: updateClientInvoiceBody,
        response: one,
      },
    },
    async (request) => clientInvoices.update(actorOf(request), request.params.invoiceId, request.body),
  );

  app.delete(
    `${base}/:invoiceId`,
    {
      schema: {
        tags,
        summary: 'Delete a draft, freeing its time',
        params: invoiceParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await clientInvoices.remove(actorOf(request), request.params.invoiceId);
      return reply.status(204).send(null);
    },
  );

  const step = (path: string, summary: string, run: typeof clientInvoices.issue) =>
    app.post(
      `${base}/:invoiceId/${path}`,
      { schema: { tags, summary, params: invoiceParams, response: one } },
      async (request) => run(actorOf(request), request.params.invoiceId),
    );
  step('issue', 'Issue a draft: it gets the next number and its time is invoiced', clientInvoices.issue);
  step('mark-sent', 'Mark an issued invoice sent', clientInvoices.markSent);
  step('void', 'Void an issued or sent invoice: it keeps its number, its time is free again', clientInvoices.void);

  app.post(
    `${base}/:invoiceId/mark-paid`,
    {
      schema: {
        tags,
        summary: 'Mark an issued or sent invoice paid on a day',
        params: invoiceParams,
        body: markClientInvoicePaidBody,
        response: one,
      },
    },
    async (request) => clientInvoices.markPaid(actorOf(request), request.params.invoiceId, request.body.paidOn),
  );

  app.get(
    `${base}/:invoiceId/pdf`,
    {
      schema: {
        tags,
        summary: "The invoice as an A4 PDF with the workspace's logo, address and payment details (application/pdf)",
        params: invoiceParams,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const file = await clientInvoices.pdf(actorOf(request), request.params.invoiceId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.pdf as never);
    },
  );

  app.post(
    `${base}/:invoiceId/send`,
    {
      schema: {
        tags,
        summary: 'E-mail the issued invoice as a PDF to the client, and mark it sent',
        params: invoiceParams,
        body: sendClientInvoiceBody,
        response: one,
      },
    },
    async (request) => clientInvoices.send(actorOf(request), request.params.invoiceId, request.body),
  );
};
