import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { ssoMessages } from '@sundial/core';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import { agentDownloadsRoutes } from './modules/agent-downloads/agent-downloads.routes.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { approvalsRoutes } from './modules/approvals/approvals.routes.js';
import { attendanceRoutes } from './modules/attendance/attendance.routes.js';
import { auditLogRoutes } from './modules/audit-log/audit-log.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { calendarsRoutes } from './modules/calendars/calendars.routes.js';
import { clientInvoicesRoutes } from './modules/client-invoices/client-invoices.routes.js';
import { clientsRoutes } from './modules/clients/clients.routes.js';
import { agentRoutes, computerTimeRoutes } from './modules/computer-time/computer-time.routes.js';
import { demoRequestsRoutes } from './modules/demo-requests/demo-requests.routes.js';
import { devRoutes } from './modules/dev/dev.routes.js';
import { exportsRoutes } from './modules/exports/exports.routes.js';
import { groupsRoutes } from './modules/groups/groups.routes.js';
import { importsRoutes } from './modules/imports/imports.routes.js';
import { invitesRoutes } from './modules/invites/invites.routes.js';
import { meRoutes } from './modules/me/me.routes.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { projectsRoutes } from './modules/projects/projects.routes.js';
import { ratesRoutes } from './modules/rates/rates.routes.js';
import { reportSchedulesRoutes } from './modules/report-schedules/report-schedules.routes.js';
import { reportsRoutes } from './modules/reports/reports.routes.js';
import type { RegisteredSource } from './modules/reports/reports.sources.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { savedReportsRoutes } from './modules/saved-reports/saved-reports.routes.js';
import { scimRoutes, scimTokenRoutes } from './modules/scim/scim.routes.js';
import { ssoRoutes } from './modules/sso/sso.routes.js';
import { workspaceSsoRoutes } from './modules/sso/workspace-sso.routes.js';
import { tagsRoutes } from './modules/tags/tags.routes.js';
import { timeEntriesRoutes } from './modules/time-entries/time-entries.routes.js';
import { twoFactorRoutes } from './modules/two-factor/two-factor.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { workspacesRoutes } from './modules/workspaces/workspaces.routes.js';
import { requireAuth } from './platform/actor.js';
import { apiDescription } from './platform/api-docs.js';
import {
  assertSameOrigin,
  createRequestAuthenticator,
  hasBearer,
  sessionCookieName,
  type TokenAuthenticator,
} from './platform/auth.js';
import { AppError, installErrorHandler, notFound } from './platform/errors.js';
import { isUuid, newId } from './platform/ids.js';
import { createJobRunner } from './platform/jobs.js';
import { loggerOptions, RequestLogController } from './platform/logging.js';
import { createMailer, type Mailer } from './platform/mail.js';
import { paymentsRoutes } from './platform/payments/payments.routes.js';
import { SIGNATURE_HEADER } from './platform/payments/signature.js';
import { createReadiness } from './platform/readiness.js';
import { installRequestContext } from './platform/request-context.js';
import { BODY_LIMIT_BYTES, installInputGuard } from './platform/request-input.js';
import { projectingSerializerCompiler } from './platform/response-serializer.js';
import { installSecurityHeaders } from './platform/security-headers.js';
import { installCompression, serveWebApp } from './platform/web-app.js';
import { createServices, type Services } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    services: Services;
  }
  interface FastifyContextConfig {
    /** Reachable without a session. */
    public?: boolean;
    /** Posted by another site's page by design (a SAML identity provider's form); proves itself otherwise. */
    crossSite?: boolean;
    /** Reachable by a session limited to setting up two-factor authentication (a workspace requires it). */
    allowDuringEnrolment?: boolean;
    /** Reachable in a workspace that requires SSO by a session that did not come through it (leaving it). */
    allowWithoutSso?: boolean;
    /** The desktop agent's own: a device token only (and a device token opens nothing else). */
    device?: boolean;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (stdout when unset); tests read the log through it. */
  logStream?: NodeJS.WritableStream;
  /**
   * Where e-mails are printed as readable blocks without SMTP_URL (stderr outside tests unless
   * LOG_JSON_ONLY); tests read them through it.
   */
  mailPrintStream?: NodeJS.WritableStream;
  /** Who may sign a request with `Authorization: Bearer` (API keys, device tokens); none by default. */
  tokenAuthenticators?: readonly TokenAuthenticator[];
  /** The job runner's clock; tests move it to make retries and schedules due without waiting. */
  now?: () => Date;
  /** Sources of report facts besides time, reported at /reports/sources/:source (none yet but in tests). */
  reportSources?: readonly RegisteredSource[];
}

/** Builds the whole HTTP application around a migrated database; used by main and by tests. */
export async function buildApp({
  config,
  db,
  mailer,
  logger,
  logStream,
  mailPrintStream,
  tokenAuthenticators,
  now,
  reportSources,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.LOG_LEVEL, logStream),
    genReqId: () => newId(),
    requestIdHeader: 'x-request-id',
    logController: new RequestLogController({ slowMs: config.LOG_SLOW_REQUEST_MS }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(config.NODE_ENV === 'production' ? projectingSerializerCompiler : serializerCompiler);
  installErrorHandler(app);
  installInputGuard(app);

  const jobs = createJobRunner({ db, log: app.log, pollMs: config.JOBS_POLL_MS, now });
  const services = createServices({
    db,
    config,
    log: app.log,
    jobs,
    ...(now ? { now } : {}),
    ...(reportSources ? { reportSources } : {}),
    mailer:
      mailer ??
      createMailer({
        db,
        log: app.log,
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        jobs,
        print: config.LOG_JSON_ONLY
          ? undefined
          : (mailPrintStream ?? (config.NODE_ENV === 'test' ? undefined : process.stderr)),
      }),
    // The sandbox gateway's events go through the webhook route itself, as a processor's would,
    // without a network hop: PUBLIC_URL may not be reachable from inside, and the process that
    // signed an event checks it (so a per-process secret works).
    deliverPaymentEvent: async (rawBody, signature) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/payments/events',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
        payload: rawBody,
      });
      if (response.statusCode !== 200)
        throw new Error(`payment event refused: ${response.statusCode} ${response.body}`);
    },
  });
  app.decorate('config', config);
  app.decorate('services', services);
  // First of all hooks: what the audit log keeps of each request (its address, the key that signed it).
  installRequestContext(app);
  const authenticator = createRequestAuthenticator({
    session: services.sessionAuthenticator,
    tokens: [services.apiKeys.authenticator, services.computerTime.authenticator, ...(tokenAuthenticators ?? [])],
  });
  // Hooks every response passes through take a callback, not a promise: no promise and no
  // microtask turn per request for what is synchronous work.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  installSecurityHeaders(app, {
    publicUrl: config.publicUrl,
    webDist: config.webDist,
    stripe: config.PAYMENTS_GATEWAY === 'stripe',
  });
  await installCompression(app);
  // Every process runs due jobs unless JOBS_ENABLED=false; on close the job under way finishes
  // and what is still queued waits in the database for the next process.
  if (config.JOBS_ENABLED) app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => {
    await services.background.drain();
    await services.apiKeys.close();
    services.webhooks.close();
    await jobs.stop();
    await services.events.close();
  });

  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sundial API',
        version: '1.0.0',
        description: apiDescription(config),
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal API key (sdl_…), made in Profile → API keys',
          },
          deviceToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A paired computer’s device token (sdd_…): the agent’s routes only',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName(config),
            description: 'The browser session',
          },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Ready only while the database answers promptly: a stuck database (its one PGlite connection
  // held, every pooled one taken, or a request already kept waiting too long) takes this process out
  // of the load balancer instead of hanging the probe. /healthz says only that the process runs.
  const readiness = createReadiness(db, config.READY_TIMEOUT_MS);
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const answer = await readiness();
    if (answer.ready) return { status: 'ready' };
    return reply.status(503).send({ error: { code: 'not_ready', message: answer.message } });
  });

  await app.register(
    async (api) => {
      // Who is asking, before the body is even validated: 401 comes before 422, and a workspace
      // the user is not a member of is a 404, whatever else is wrong with the request.
      api.addHook('onRequest', async (request, reply) => {
        // Fastify builds a fresh routeOptions object on every read: read the route's config once.
        const route = request.routeOptions.config;
        // A bearer call carries no ambient credential another site's page could ride on: no CSRF check.
        if (!route.crossSite && !hasBearer(request)) assertSameOrigin(request);
        const workspaceId = (request.params as { workspaceId?: string }).workspaceId;
        const wellFormed = workspaceId !== undefined && isUuid(workspaceId) ? workspaceId : undefined;
        // The session authenticator finds the membership with the session and user, in one query.
        request.auth = (await authenticator.authenticate(request, { workspaceId: wellFormed })) ?? undefined;
        // A device token opens the agent's routes only, and they open to nothing else (modules/computer-time).
        if (request.device || route.device) {
          requireAuth(request);
          services.computerTime.admit(request, route);
        }
        if (route.public) return;
        const { user, membership, enrolmentOnly, ssoUnproved } = requireAuth(request);
        // A workspace requires 2FA the user has not set up: until they do, only enrolment (and /me, sign-out).
        if (enrolmentOnly && !route.allowDuringEnrolment) {
          throw new AppError(
            'two_factor_enrolment_required',
            'Your workspace requires two-factor authentication: set it up to continue.',
            { status: 403 },
          );
        }
        if (workspaceId !== undefined) {
          if (!wellFormed) throw notFound('Workspace not found.');
          if (membership === null) throw notFound('Workspace not found.');
          // "Require SSO" closes this workspace, and only it, to a session its provider did not prove.
          if (ssoUnproved && !route.allowWithoutSso) {
            throw new AppError('sso_required', ssoMessages.ssoRequired, { status: 403 });
          }
          request.membership = membership ?? (await services.workspaces.getMembership(wellFormed, user.id));
        }
        // An API key reaches only the areas it was given, within its limits (modules/api-keys).
        if (request.apiKey) services.apiKeys.admit(request, reply);
      });
      await api.register(authRoutes);
      await api.register(ssoRoutes);
      await api.register(workspaceSsoRoutes);
      await api.register(meRoutes);
      await api.register(workspacesRoutes);
      await api.register(demoRequestsRoutes);
      await api.register(agentDownloadsRoutes);
      await api.register(membersRoutes);
      await api.register(invitesRoutes);
      await api.register(groupsRoutes);
      await api.register(projectsRoutes);
      await api.register(clientsRoutes);
      await api.register(tagsRoutes);
      await api.register(notificationsRoutes);
      await api.register(importsRoutes);
      await api.register(ratesRoutes);
      await api.register(clientInvoicesRoutes);
      await api.register(timeEntriesRoutes);
      await api.register(reportsRoutes);
      await api.register(savedReportsRoutes);
      await api.register(reportSchedulesRoutes);
      await api.register(exportsRoutes);
      await api.register(paymentsRoutes);
      await api.register(billingRoutes);
      await api.register(approvalsRoutes);
      await api.register(twoFactorRoutes);
      await api.register(apiKeysRoutes);
      await api.register(auditLogRoutes);
      await api.register(webhooksRoutes);
      await api.register(calendarsRoutes);
      await api.register(agentRoutes);
      await api.register(computerTimeRoutes);
      await api.register(attendanceRoutes);
      await api.register(rolesRoutes);
      await api.register(scimTokenRoutes);
    },
    { prefix: '/api/v1' },
  );

  // SCIM for identity providers: its own bearer token per workspace, never the session (modules/scim).
  await app.register(scimRoutes, { prefix: '/scim/v2' });

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
