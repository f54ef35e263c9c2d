import {
  billingDetailsSchema,
  billingDetailsView,
  billingQuoteView,
  billingView,
  cardChangeView,
  checkoutBody,
  checkoutView,
  creditNoteBody,
  invoiceListView,
  invoiceView,
  paymentMethodBody,
  quoteBody,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { attachmentDisposition } from '../../platform/downloads.js';
import { idempotencyKeyOf } from '../../platform/idempotency.js';
import { errorBody, errorResponses, workspaceId, workspaceParams as wsParams } from '../../platform/schemas.js';

const tags = ['billing'];
const base = '/workspaces/:workspaceId/billing';
const invoiceParams = z.object({ workspaceId, invoiceId: z.uuid({ error: 'Invoice not found.' }) });
const checkoutParams = z.object({ workspaceId, checkoutId: z.uuid({ error: 'Checkout not found.' }) });
const cardChangeParams = z.object({ workspaceId, changeId: z.uuid({ error: 'Card change not found.' }) });
/** 402: the card was declined (payment_declined, with the gateway's message to show). */
const payResponses = { ...errorResponses, 402: errorBody };
const checkoutAnswers = { 200: checkoutView, 202: checkoutView, ...payResponses };
const cardAnswers = { 200: cardChangeView, 202: cardChangeView, ...payResponses };

export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { billing } = app.services;

  app.get(
    base,
    {
      schema: {
        tags,
        summary:
          'The billing page: plan, trial days left (the banner’s figure), licenses and seats in use, the subscription ' +
          '(period, status, scheduled change, saved card), billing details and the price of each plan per cycle (Owners and Admins)',
        params: wsParams,
        response: { 200: billingView, ...errorResponses },
      },
    },
    async (request) => billing.overview(actorOf(request)),
  );

  app.post(
    `${base}/quote`,
    {
      schema: {
        tags,
        summary:
          'What buying these terms costs now: net, VAT by `billingAddress` (the address being filled in) or else the ' +
          'saved billing details, gross, and from a paid subscription the prorated lines of an immediate change ' +
          '(the credit for unused time included), or nothing for a change at the period’s end (Owners and Admins). ' +
          'A checkout after saving that address charges exactly this gross.',
        params: wsParams,
        body: quoteBody,
        response: { 200: billingQuoteView, ...errorResponses },
      },
    },
    async (request) => billing.quote(actorOf(request), request.body),
  );

  app.put(
    `${base}/details`,
    {
      schema: {
        tags,
        summary: 'Save the invoice information and billing address used on future invoices (Owners and Admins)',
        params: wsParams,
        body: billingDetailsSchema,
        response: { 200: billingDetailsView, ...errorResponses },
      },
    },
    async (request) => billing.saveDetails(actorOf(request), request.body),
  );

  app.post(
    `${base}/checkout`,
    {
      schema: {
        tags,
        summary: 'Buy or change the subscription (Owners and Admins); requires an Idempotency-Key header',
        description:
          'An immediate change (a first plan, more licenses, a higher plan, monthly to annual) is charged now on the ' +
          'card of `paymentToken` (from POST /payments/sandbox/tokens; saved for renewals) or the saved card: 200 ' +
          '`succeeded` with the paid invoice, 202 `requires_action` with `nextActionUrl` (the second step; the ' +
          'browser comes back to /homepage/payment?checkout=<checkoutId>, then POST …/checkout/<id>/confirm), or 402 ' +
          '`payment_declined` with the message to show (nothing charged, nothing changed). A change with a decrease ' +
          'waits for the period’s end: 200 `scheduled`, nothing charged. The same Idempotency-Key answers the same ' +
          'checkout again and never charges twice; with another body it is 422 `idempotency_key_reused`. 422 ' +
          '`billing_details_required` before PUT …/billing/details.',
        params: wsParams,
        body: checkoutBody,
        response: checkoutAnswers,
      },
    },
    async (request, reply) => {
      const answer = await billing.checkout(actorOf(request), request.body, idempotencyKeyOf(request));
      return reply.status(answer.status).send(answer.body);
    },
  );

  app.post(
    `${base}/checkout/:checkoutId/confirm`,
    {
      schema: {
        tags,
        summary:
          'After the second step: completes the checkout if the payment went through (200, with the invoice), ' +
          '202 while it still waits, 402 if it failed (Owners and Admins)',
        params: checkoutParams,
        response: checkoutAnswers,
      },
    },
    async (request, reply) => {
      const answer = await billing.confirm(actorOf(request), request.params.checkoutId);
      return reply.status(answer.status).send(answer.body);
    },
  );

  app.put(
    `${base}/payment-method`,
    {
      schema: {
        tags,
        summary: 'Replace the saved card that renewals charge (Owners and Admins)',
        description:
          'The card of `paymentToken` (from POST /payments/sandbox/tokens) is saved for off-session renewals after ' +
          'a $1.00 verification, voided at once: 200 `saved`, 202 `requires_action` with `nextActionUrl` (the ' +
          'bank’s second step; the browser comes back to /homepage/billing?card=<changeId>, then POST ' +
          '…/payment-method/<changeId>/confirm), or 402 `payment_declined` (the saved card stays). The same token ' +
          'answers the same change again. When the workspace is past due, its open renewal is charged on the new ' +
          'card at once: `renewal` says how that went. 409 `no_subscription` without a paid subscription.',
        params: wsParams,
        body: paymentMethodBody,
        response: cardAnswers,
      },
    },
    async (request, reply) => {
      const answer = await billing.replaceCard(actorOf(request), request.body);
      return reply.status(answer.status).send(answer.body);
    },
  );

  app.post(
    `${base}/payment-method/:changeId/confirm`,
    {
      schema: {
        tags,
        summary:
          'After the card’s second step: saves the card if the bank said yes (200), 202 while it waits, 402 if ' +
          'not (Owners and Admins)',
        params: cardChangeParams,
        response: cardAnswers,
      },
    },
    async (request, reply) => {
      const answer = await billing.confirmCard(actorOf(request), request.params.changeId);
      return reply.status(answer.status).send(answer.body);
    },
  );

  app.post(
    `${base}/cancel`,
    {
      schema: {
        tags,
        summary: 'Cancel at the end of the paid period, then Free (Owners and Admins); answers the billing page',
        params: wsParams,
        response: { 200: billingView, ...errorResponses },
      },
    },
    async (request) => billing.cancel(actorOf(request)),
  );

  app.post(
    `${base}/change-to-free`,
    {
      schema: {
        tags,
        summary:
          'Change plan to Free: a paid plan at the end of its period (the same as cancel), a trial now, with ' +
          'Free’s limits from then on and all data kept; on Free already, nothing changes (Owners and Admins)',
        params: wsParams,
        response: { 200: billingView, ...errorResponses },
      },
    },
    async (request) => billing.changeToFree(actorOf(request)),
  );

  app.post(
    `${base}/reactivate`,
    {
      schema: {
        tags,
        summary: 'Keep a subscription set to end, before its period ends (Owners and Admins)',
        params: wsParams,
        response: { 200: billingView, ...errorResponses },
      },
    },
    async (request) => billing.reactivate(actorOf(request)),
  );

  app.get(
    `${base}/invoices`,
    {
      schema: {
        tags,
        summary: 'Invoices and credit notes, newest first (Owners and Admins)',
        params: wsParams,
        response: { 200: invoiceListView, ...errorResponses },
      },
    },
    async (request) => billing.invoices(actorOf(request)),
  );

  app.get(
    `${base}/invoices/:invoiceId/pdf`,
    {
      schema: {
        tags,
        summary: 'The invoice or credit note as an A4 PDF (application/pdf, attachment) (Owners and Admins)',
        params: invoiceParams,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const file = await billing.invoicePdf(actorOf(request), request.params.invoiceId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachmentDisposition(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.pdf as never);
    },
  );

  app.post(
    `${base}/invoices/:invoiceId/credit-note`,
    {
      schema: {
        tags,
        summary:
          'Issue a credit note on a paid invoice and refund it on the card: `amountCents` gross (all that is left ' +
          'when left out), never more than is left to credit (Owners and Admins)',
        params: invoiceParams,
        body: creditNoteBody,
        response: { 201: invoiceView, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await billing.creditNote(actorOf(request), request.params.invoiceId, request.body)),
  );
};
