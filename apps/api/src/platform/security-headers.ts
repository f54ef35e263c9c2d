import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/** What nothing but a browser page needs: JSON, files and errors may load and frame nothing. */
export const RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const HSTS = 'max-age=31536000; includeSubDomains';

/** The token the web build leaves where the site's address goes; serveWebApp swaps it the same way. */
const ORIGIN_TOKEN = '__SUNDIAL_ORIGIN__';

export interface SecurityHeadersOptions {
  /** The address people use; https turns on Strict-Transport-Security. */
  publicUrl: string;
  /** The built web app (index.html and the prerendered site/), read once for inline scripts. */
  webDist: string;
  /** PAYMENTS_GATEWAY=stripe: the payment page loads Stripe.js, its frames and its API. */
  stripe?: boolean;
}

/** What Stripe.js needs (Stripe's documented Content-Security-Policy for Elements and 3-D Secure). */
const STRIPE_ORIGINS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/**
 * The policy for every HTML page this server sends: the SPA, the prerendered public site, the
 * API docs and /dev/mail. Inline scripts run only when their hash is listed, so a script slipped
 * into a page does not. Styles stay 'unsafe-inline': Mantine writes its CSS variables into
 * <style> tags at run time and the public site inlines its stylesheet and uses style attributes;
 * a hash cannot cover either, and injected CSS cannot run code.
 */
export function htmlPolicy({
  documents,
  publicUrl,
  stripe = false,
}: {
  documents: string[];
  publicUrl: string;
  stripe?: boolean;
}): string {
  const hashes = new Set<string>();
  const origins = new Set<string>();
  const self = new URL(publicUrl).origin;
  for (const html of documents) {
    for (const script of inlineScripts(html))
      hashes.add(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    const analytics = analyticsOrigin(html, publicUrl);
    if (analytics && analytics !== self) origins.add(analytics);
  }
  // The operator's analytics script (site.json analyticsScriptUrl), loaded only after consent,
  // runs from its own origin and reports back to it.
  const external = [...origins].sort();
  const third = stripe ? STRIPE_ORIGINS : { script: [], frame: [], connect: [] };
  return [
    "default-src 'self'",
    ["script-src 'self'", ...[...hashes].sort(), ...external, ...third.script].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...external, ...third.connect].join(' '),
    ...(third.frame.length ? [["frame-src 'self'", ...third.frame].join(' ')] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The text of every script element the browser would run inline (no src, a JavaScript type). */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'module' && !type.includes('javascript') && !type.includes('ecmascript')) continue;
    scripts.push(match[2] ?? '');
  }
  return scripts;
}

function analyticsOrigin(html: string, publicUrl: string): string | undefined {
  const tag = /<meta\b[^>]*\bname="sundial-analytics"[^>]*>/i.exec(html)?.[0];
  const url = tag && /\bcontent="([^"]*)"/i.exec(tag)?.[1]?.replaceAll('&amp;', '&');
  if (!url) return undefined;
  try {
    return new URL(url, publicUrl).origin;
  } catch {
    return undefined;
  }
}

/** The HTML documents serveWebApp sends, as it sends them. */
function servedDocuments(webDist: string, publicUrl: string): string[] {
  const files = [path.join(webDist, 'index.html')];
  const siteDir = path.join(webDist, 'site');
  if (fs.existsSync(siteDir)) {
    for (const name of fs.readdirSync(siteDir, { recursive: true, encoding: 'utf8' })) {
      if (name.endsWith('.html')) files.push(path.join(siteDir, name));
    }
  }
  return files
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file, 'utf8').replaceAll(ORIGIN_TOKEN, publicUrl));
}

/**
 * The protections every response carries but its policy: no type sniffing, no framing by other
 * sites (clickjacking), no Referer carrying a reset or invite token from the page's URL to another
 * site, and Strict-Transport-Security when the public address is https. A route that writes its
 * own head (the live-updates stream) sends these with RESOURCE_POLICY itself.
 */
export function baseSecurityHeaders(publicUrl: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    ...(publicUrl.startsWith('https:') ? { 'strict-transport-security': HSTS } : {}),
  };
}

/**
 * Sets the browser protections on every response: a Content-Security-Policy (the page policy on
 * HTML, nothing allowed elsewhere), the base headers above, and `Cache-Control: no-store` unless the
 * route says how it may be cached (the web app's files do; the profile, sessions, 2FA seeds, tokens
 * and invite links must not be kept by a browser or a shared cache, so nothing is by default).
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  { publicUrl, webDist, stripe = false }: SecurityHeadersOptions,
): void {
  const pagePolicy = htmlPolicy({ documents: servedDocuments(webDist, publicUrl), publicUrl, stripe });
  const base = baseSecurityHeaders(publicUrl);
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(base);
    if (!reply.hasHeader('content-security-policy')) {
      const isHtml = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
      reply.header('content-security-policy', isHtml ? pagePolicy : RESOURCE_POLICY);
    }
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
