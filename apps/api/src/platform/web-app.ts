import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.js';

/** Fast levels for what is compressed per response (JSON, HTML); the build precompresses assets at the best. */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

/**
 * Brotli or gzip for every compressible response (JSON, HTML, text), as the client accepts.
 * Server-sent events are left alone (the plugin never compresses text/event-stream), and so are
 * responses that already carry an encoding (the precompressed assets).
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlibOptions: { level: GZIP_LEVEL },
  });
}

/**
 * The prerendered public site (apps/web/dist/site/, written by the web build): URL path -> body,
 * with the site's real address in place of the origin token the build leaves in canonical links,
 * Open Graph tags, the sitemap, robots.txt and the RSS feed.
 */
function loadPublicSite(siteDir: string, publicUrl: string): Map<string, { type: string; body: string }> {
  const pages = new Map<string, { type: string; body: string }>();
  if (!fs.existsSync(siteDir)) return pages;
  const types: Record<string, string> = { '.html': 'text/html', '.xml': 'application/xml', '.txt': 'text/plain' };
  for (const name of fs.readdirSync(siteDir, { recursive: true, encoding: 'utf8' })) {
    const type = types[path.extname(name)];
    if (!type) continue;
    const urlPath = `/${name.split(path.sep).join('/')}`.replace(/\.html$/, '').replace(/^\/index$/, '/');
    const body = fs.readFileSync(path.join(siteDir, name), 'utf8').replaceAll('__SUNDIAL_ORIGIN__', publicUrl);
    pages.set(urlPath, { type: `${type}; charset=utf-8`, body });
  }
  return pages;
}

/**
 * In production one process serves the built web app beside the API: the public site's
 * prerendered pages at their paths, files that exist, and the single-page app for the rest.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string, publicUrl: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) return;
  // The catch-all below serves files itself (serve: false) so that it alone sets Cache-Control:
  // hashed assets are immutable for a year, everything else is revalidated. `.br`/`.gz` files the
  // build wrote beside an asset are sent when the client accepts them.
  await app.register(fastifyStatic, { root: webDist, serve: false, cacheControl: false, preCompressed: true });
  const html = fs.readFileSync(index, 'utf8');
  const site = loadPublicSite(path.join(webDist, 'site'), publicUrl);
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (urlPath.startsWith('/api/')) throw notFound(`No route for ${request.method} ${urlPath}.`);
    const page = site.get(urlPath.length > 1 ? urlPath.replace(/\/$/, '') : urlPath);
    if (page) return reply.type(page.type).header('cache-control', 'no-cache').send(page.body);
    const missingPublicPage = site.get('/404');
    if (missingPublicPage && /^\/(blog|calculators|site)\//.test(urlPath)) {
      return reply
        .status(404)
        .type(missingPublicPage.type)
        .header('cache-control', 'no-cache')
        .send(missingPublicPage.body);
    }
    const file = path.join(webDist, urlPath);
    if (file.startsWith(webDist) && urlPath !== '/' && fs.existsSync(file) && fs.statSync(file).isFile()) {
      const cacheable = urlPath.startsWith('/assets/');
      reply.header('cache-control', cacheable ? 'public, max-age=31536000, immutable' : 'no-cache');
      return reply.sendFile(urlPath.slice(1));
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(html);
  });
}
