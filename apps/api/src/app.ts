import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { clientsRoutes } from './modules/clients/clients.routes.js';
import { demoRequestsRoutes } from './modules/demo-requests/demo-requests.routes.js';
import { devRoutes } from './modules/dev/dev.routes.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { importsRoutes } from './modules/imports/imports.routes.js';
import { invitesRoutes } from './modules/invites/invites.routes.js';
import { meRoutes } from './modules/me/me.routes.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { projectsRoutes } from './modules/projects/projects.routes.js';
import { tagsRoutes } from './modules/tags/tags.routes.js';
import { timeEntriesRoutes } from './modules/time-entries/time-entries.routes.js';
import { workspacesRoutes } from './modules/workspaces/workspaces.routes.js';
import { assertSameOrigin, loadAuth, requireAuth } from './platform/auth.js';
import { installErrorHandler, notFound } from './platform/errors.js';
import { isUuid, newId } from './platform/ids.js';
import { createJobRunner } from './platform/jobs.js';
import { loggerOptions } from './platform/logging.js';
import { createMailer, type Mailer } from './platform/mail.js';
import { BODY_LIMIT_BYTES, installInputGuard } from './platform/request-input.js';
import { installSecurityHeaders } from './platform/security-headers.js';
import { createServices, type Services } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    services: Services;
  }
  interface FastifyContextConfig {
    /** Reachable without a session. */
    public?: boolean;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (stdout when unset); tests read the log through it. */
  logStream?: NodeJS.WritableStream;
  /** The job runner's clock; tests move it to make retries and schedules due without waiting. */
  now?: () => Date;
}

/** Builds the whole HTTP application around a migrated database; used by main and by tests. */
export async function buildApp({ config, db, mailer, logger, logStream, now }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.LOG_LEVEL, logStream),
    genReqId: () => newId(),
    requestIdHeader: 'x-request-id',
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installInputGuard(app);

  const jobs = createJobRunner({ db, log: app.log, pollMs: config.JOBS_POLL_MS, now });
  const services = createServices({
    db,
    config,
    log: app.log,
    jobs,
    mailer: mailer ?? createMailer({ db, log: app.log, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, jobs }),
  });
  app.decorate('config', config);
  app.decorate('services', services);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installSecurityHeaders(app, { publicUrl: config.publicUrl, webDist: config.webDist });
  // Every process runs due jobs unless JOBS_ENABLED=false; on close the job under way finishes
  // and what is still queued waits in the database for the next process.
  if (config.JOBS_ENABLED) app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => {
    await services.background.drain();
    await jobs.stop();
  });

  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sundial API',
        version: '1.0.0',
        description:
          'Time tracking, projects and reporting. Every failure answers `{ error: { code, message, fields? } }`. ' +
          'Sign in through /api/v1/auth/login; the session cookie authenticates every other call.',
      },
      servers: [{ url: '/' }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ error: { code: 'not_ready', message: 'The database does not answer.' } });
    }
  });

  await app.register(
    async (api) => {
      // Who is asking, before the body is even validated: 401 comes before 422, and a workspace
      // the user is not a member of is a 404, whatever else is wrong with the request.
      api.addHook('onRequest', async (request) => {
        assertSameOrigin(request);
        await loadAuth(request, services, config);
        if (request.routeOptions.config.public) return;
        const { user } = requireAuth(request);
        const workspaceId = (request.params as { workspaceId?: string }).workspaceId;
        if (workspaceId !== undefined) {
          if (!isUuid(workspaceId)) throw notFound('Workspace not found.');
          request.membership = await services.workspaces.getMembership(workspaceId, user.id);
        }
      });
      await api.register(authRoutes);
      await api.register(meRoutes);
      await api.register(workspacesRoutes);
      await api.register(demoRequestsRoutes);
      await api.register(membersRoutes);
      await api.register(invitesRoutes);
      await api.register(groupsRoutes);
      await api.register(projectsRoutes);
      await api.register(clientsRoutes);
      await api.register(tagsRoutes);
      await api.register(importsRoutes);
      await api.register(timeEntriesRoutes);
    },
    { prefix: '/api/v1' },
  );

  // The outbox holds reset and invite links: only a development server on this machine shows it,
  // never one with a public address, even if NODE_ENV was left unset there.
  if (config.NODE_ENV !== 'production' && isLocalUrl(config.publicUrl)) await app.register(devRoutes);
  await serveWebApp(app, config.webDist, config.publicUrl);
  return app;
}

function isLocalUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
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
async function serveWebApp(app: FastifyInstance, webDist: string, publicUrl: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) return;
  await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
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
