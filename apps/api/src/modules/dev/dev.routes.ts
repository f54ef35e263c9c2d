import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { notFound } from '../../platform/errors.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const linkify = (text: string) => escapeHtml(text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Whether the request comes from this machine itself: its socket is a loopback connection and
 * no proxy forwarded it (a reverse proxy on the same machine connects over loopback too, on
 * behalf of anyone).
 */
export function isFromThisMachine(request: FastifyRequest): boolean {
  const { headers } = request;
  if (headers['x-forwarded-for'] || headers.forwarded || headers['x-real-ip']) return false;
  return LOOPBACK.test(request.socket.remoteAddress ?? '');
}

/** The name a request's Host header gives (no port, lower case), or undefined when it is no host. */
function hostNameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * /dev/mail: the outbox as a page, so a developer without SMTP can follow e-mailed links. It
 * holds reset and invite links, so it answers only a browser on this machine: to anyone else the
 * page does not exist, whatever address the server listens on. And only under this machine's own
 * names (localhost, 127.0.0.1, [::1], PUBLIC_URL's host): a page of another site whose name its
 * DNS re-points at 127.0.0.1 (DNS rebinding) reaches us from the developer's own browser, but
 * with its own name as Host.
 */
export const devRoutes: FastifyPluginAsync = async (app) => {
  const localNames = new Set(['localhost', '127.0.0.1', '[::1]', new URL(app.config.publicUrl).hostname]);
  app.get('/dev/mail', { schema: { hide: true } }, async (request, reply) => {
    const host = hostNameOf(request.headers.host);
    if (!isFromThisMachine(request) || !host || !localNames.has(host))
      throw notFound(`No route for GET ${request.url.split('?')[0]}.`);
    const mails = await app.services.db
      .selectFrom('outbox')
      .select(['id', 'to_address', 'subject', 'text_body', 'created_at', 'sent_at', 'error'])
      .orderBy('created_at', 'desc')
      .limit(50)
      .execute();
    const items = mails
      .map(
        (m) =>
          `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to_address)} · ${new Date(m.created_at).toISOString()}${
            m.sent_at ? ' · sent' : m.error ? ` · failed: ${escapeHtml(m.error)}` : ' · kept in outbox'
          }</p><pre>${linkify(m.text_body)}</pre></article>`,
      )
      .join('\n');
    return reply
      .type('text/html')
      .send(
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>Outbox · Sundial</title><style>body{font:15px system-ui;max-width:760px;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ddd;padding:.5rem 0}pre{white-space:pre-wrap}</style><h1>Outbox (development)</h1>${items || '<p>No mail yet.</p>'}</html>`,
      );
  });
};
