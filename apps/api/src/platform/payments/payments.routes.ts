import { cardTokenBody, cardTokenView, formatMoney } from '@sundial/core';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rateLimiter } from '../rate-limits.js';
import { errorResponses } from '../schemas.js';
import type { SandboxActionView } from './sandbox.js';

const HOUR_MS = 3_600_000;
const actionParams = z.object({ actionId: z.string().min(1).max(100) });

/**
 * The payments layer's HTTP face, all public by design: the webhook a gateway delivers signed
 * events to (its signature is the authentication), and, with the sandbox gateway, the card
 * tokenisation a browser calls instead of a processor's and the second-step page. Card numbers
 * reach only the tokens route, whose body no log records (the request serializer in
 * platform/logging.ts logs method and URL only).
 */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { payments, db } = app.services;

  // The webhook reads its body as the raw bytes that were signed, not parsed JSON.
  await app.register(async (scope) => {
    const raw = scope.withTypeProvider<ZodTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    raw.post(
      '/payments/events',
      {
        config: { public: true },
        schema: {
          tags: ['payments'],
          summary: 'Receive a signed event from the payment gateway (Sundial-Signature or Stripe-Signature: t=…,v1=…)',
          response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }), ...errorResponses },
        },
      },
      async (request) => {
        const rawBody = typeof request.body === 'string' ? request.body : '';
        const signature = request.headers[payments.gateway.signatureHeader];
        const { duplicate } = await payments.receive(rawBody, signature?.toString());
        return { received: true as const, duplicate };
      },
    );
  });

  const sandbox = payments.sandbox;
  if (!sandbox) return;

  app.post(
    '/payments/sandbox/tokens',
    {
      config: { public: true },
      // Counted before the card is checked: trying numbers until one passes costs the same.
      preValidation: async (request) => {
        await rateLimiter.hit(db, {
          bucket: `card-tokens:ip:${request.ip}`,
          limit: app.config.RATE_LIMIT_CARD_TOKENS_PER_IP,
          windowMs: HOUR_MS,
          message: (wait) => `Too many cards were tried from your address. Please try again in ${wait}.`,
        });
      },
      schema: {
        tags: ['payments'],
        summary: 'Sandbox gateway: turn a card into a token (the number and CVC are never stored)',
        body: cardTokenBody,
        response: { 201: cardTokenView, ...errorResponses },
      },
    },
    async (request, reply) => {
      return reply.status(201).send(await sandbox.tokenise(request.body));
    },
  );

  await app.register(async (scope) => {
    const form = scope.withTypeProvider<ZodTypeProvider>();
    // The second-step page posts an HTML form.
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    form.get(
      '/payments/sandbox/actions/:actionId',
      {
        config: { public: true },
        schema: {
          tags: ['payments'],
          summary: 'Sandbox gateway: the second-step page (3-D Secure style), with Complete and Fail',
          params: actionParams,
          produces: ['text/html'],
          response: { 200: z.string(), ...errorResponses },
        },
      },
      async (request, reply) => {
        const view = await sandbox.action(request.params.actionId);
        return reply.type('text/html; charset=utf-8').send(actionPage(view));
      },
    );
    form.post(
      '/payments/sandbox/actions/:actionId',
      {
        config: { public: true },
        schema: {
          tags: ['payments'],
          summary: 'Sandbox gateway: answer the second step; the pending charge then succeeds or fails',
          params: actionParams,
          body: z.object({ outcome: z.enum(['complete', 'fail'], { error: 'Choose Complete or Fail.' }) }),
          response: { 200: z.string(), 303: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        const view = await sandbox.completeAction(request.params.actionId, request.body.outcome);
        if (view.returnPath) return reply.redirect(view.returnPath, 303);
        return reply.type('text/html; charset=utf-8').send(actionPage(view));
      },
    );
  });
};

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The sandbox's stand-in for a bank's authentication page: no script, no outside resources. */
function actionPage(view: SandboxActionView): string {
  const what = view.object === 'authorisation' ? 'Verify your card' : 'Confirm your payment';
  const amount = formatMoney(view.amountCents, view.currency);
  const body =
    view.state === 'pending'
      ? `<p>Sundial sandbox: your bank asks you to confirm ${escapeHtml(amount)} on ${escapeHtml(view.brand)} ending in ${escapeHtml(view.last4)}.</p>
<p>${escapeHtml(view.description)}</p>
<form method="post"><input type="hidden" name="outcome" value="complete"><button type="submit">Complete</button></form>
<form method="post"><input type="hidden" name="outcome" value="fail"><button type="submit">Fail</button></form>`
      : `<p>${view.state === 'completed' ? 'Authentication completed.' : 'Authentication failed.'} You can close this page and return to Sundial.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${what}</title></head>
<body><h1>${what}</h1>
${body}
</body></html>`;
}
