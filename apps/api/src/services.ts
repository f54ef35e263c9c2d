import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Config } from './config.js';
import { type Db, heavyWorkFor, isEmbedded } from './db/connection.js';
import { analyzeAll, analyzeTables, ROLLUP_TABLES } from './db/statistics.js';
import { createApiKeysService } from './modules/api-keys/api-keys.service.js';
import { createApprovalReminders } from './modules/approvals/approvals.reminders.js';
import { createApprovalsService } from './modules/approvals/approvals.service.js';
import { createAttendanceService } from './modules/attendance/attendance.service.js';
import { createAuditLogService } from './modules/audit-log/audit-log.service.js';
import { scheduleAuthPurge } from './modules/auth/auth.repository.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createBillingService } from './modules/billing/billing.service.js';
import { createBudgetAlertsService } from './modules/budget-alerts/budget-alerts.service.js';
import { createCalendarsService } from './modules/calendars/calendars.service.js';
import { createClientInvoicesService } from './modules/client-invoices/client-invoices.service.js';
import { createClientsService } from './modules/clients/clients.service.js';
import { createComputerTimeService } from './modules/computer-time/computer-time.service.js';
import { createExportJobsService } from './modules/exports/export-jobs.service.js';
import { createExportsService } from './modules/exports/exports.service.js';
import { createGroupsService } from './modules/groups/groups.service.js';
import { createImportsService } from './modules/imports/imports.service.js';
import { createInvitesService } from './modules/invites/invites.service.js';
import { createProfileService } from './modules/me/me.service.js';
import { createMembersService } from './modules/members/members.service.js';
import { createNotificationsService } from './modules/notifications/notifications.service.js';
import { createProjectsService } from './modules/projects/projects.service.js';
import { createRatesService } from './modules/rates/rates.service.js';
import { createReportSchedulesService } from './modules/report-schedules/report-schedules.service.js';
import { createReportsService, rebuildRollupsJob } from './modules/reports/reports.service.js';
import type { RegisteredSource } from './modules/reports/reports.sources.js';
import { createRolesService } from './modules/roles/roles.service.js';
import { createSavedReportsService } from './modules/saved-reports/saved-reports.service.js';
import { createScimService } from './modules/scim/scim.service.js';
import { createDomainProofResolver } from './modules/sso/domain-proof.js';
import { createOidcRelyingParty } from './modules/sso/oidc.js';
import { scheduleSsoPurge } from './modules/sso/sso.repository.js';
import { createSsoService } from './modules/sso/sso.service.js';
import { createWorkspaceSsoService } from './modules/sso/workspace-sso.service.js';
import { createTagsService } from './modules/tags/tags.service.js';
import { createTimeEntriesService } from './modules/time-entries/time-entries.service.js';
import { createAccountSessionsService } from './modules/two-factor/sessions.service.js';
import { createTwoFactorService } from './modules/two-factor/two-factor.service.js';
import { createWebhooksService } from './modules/webhooks/webhooks.service.js';
import { workspacesRepository } from './modules/workspaces/workspaces.repository.js';
import { createWorkspacesService } from './modules/workspaces/workspaces.service.js';
import { auditEvents } from './platform/audit.js';
import { createSessionAuthenticator } from './platform/auth.js';
import { createBackgroundQueue } from './platform/background.js';
import { createEventBus } from './platform/events.js';
import { defineJob, type JobRunner } from './platform/jobs.js';
import { createLiveUpdates } from './platform/live-updates.js';
import type { Mailer } from './platform/mail.js';
import { createPayments, type DeliverPaymentEvent } from './platform/payments/index.js';
import { schedulePlatformPurges } from './platform/purges.js';
import { createSecretBox, loadSecretsKey } from './platform/secrets.js';
import { createSessionStore } from './platform/sessions.js';

export interface ServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  /** The durable job runner; services queue work on it and declare their scheduled jobs. */
  jobs: JobRunner;
  /** Where failures of background work are logged. */
  log?: FastifyBaseLogger;
  /** How the payment gateway's signed events reach the webhook route (app.ts: through the app). */
  deliverPaymentEvent: DeliverPaymentEvent;
  /** The clock of date rules (billing periods); tests move it. */
  now?: () => Date;
  /** Sources of report facts besides time (reports.sources.ts); none yet but in tests. */
  reportSources?: readonly RegisteredSource[];
}

/** Forgets old time-entry idempotency keys and empties the trash past its undo window. */
const pruneTimeEntriesJob = defineJob('time-entries.prune', z.object({}));
/** ANALYZE of the whole embedded database (PGlite, where autovacuum does not run). */
const analyzeJob = defineJob('db.analyze', z.object({}));

/** Wires every service once; routes reach them through `app.services`. */
export function createServices({
  db,
  config,
  mailer,
  jobs,
  log,
  deliverPaymentEvent,
  now,
  reportSources = [],
}: ServiceDeps) {
  const sessions = createSessionStore(db, {
    idleMinutes: config.SESSION_IDLE_MINUTES,
    absoluteHours: config.SESSION_ABSOLUTE_HOURS,
  });
  const events = createEventBus(db);
  const secrets = createSecretBox(
    loadSecretsKey({
      key: config.secretsKey,
      nodeEnv: config.NODE_ENV,
      dataDir: config.DATA_DIR,
      onCreated: (file) =>
        log?.warn({ file }, 'made a secrets key; set SECRETS_KEY when several processes share a database'),
    }),
    config.secretsKeysPrevious,
  );
  auditEvents(events);
  const liveUpdates = createLiveUpdates(events);
  const timeEntries = createTimeEntriesService(db, events);
  const workspaces = createWorkspacesService(db, { seedTimeSettings: timeEntries.seedSettings }, config.billing);
  const projects = createProjectsService(db, timeEntries);
  const background = createBackgroundQueue(log);
  const twoFactor = createTwoFactorService({
    db,
    secrets,
    sessions,
    mailer,
    billing: config.billing,
    publicUrl: config.publicUrl,
    ...(now ? { now } : {}),
  });
  const auth = createAuthService({ db, config, mailer, sessions, workspaces, background, twoFactor });
  const oidc = createOidcRelyingParty();
  const sso = createSsoService({ db, config, auth, oidc, twoFactor });
  const invites = createInvitesService({ db, config, mailer, sessions, auth });
  scheduleSsoPurge(jobs, db);
  scheduleAuthPurge(jobs, db);
  const reports = createReportsService(db, timeEntries, projects, {
    rollups: config.REPORT_ROLLUPS,
    sources: reportSources,
    analyzeAfterRows: config.ANALYZE_AFTER_ROWS,
  });
  jobs.register(rebuildRollupsJob, async () => {
    // A rebuild rewrites every rollup row of its workspaces: their statistics are new (0016).
    if ((await reports.rebuildStaleRollups()) > 0) await analyzeTables(db, ROLLUP_TABLES);
    await reports.foldRollups();
  });
  jobs.schedule(rebuildRollupsJob, '* * * * *', {});
  // PGlite has no autovacuum: its planner statistics are refreshed hourly (docs/decisions/0016).
  if (isEmbedded(db)) {
    jobs.register(analyzeJob, () => analyzeAll(db));
    jobs.schedule(analyzeJob, '47 * * * *', {});
  }
  const rates = createRatesService(db, timeEntries);
  const heavy = heavyWorkFor(db);
  const logoOf = async (workspaceId: string) => (await workspaces.logo(workspaceId))?.data ?? null;
  const exports = createExportsService({
    reports,
    rates,
    pageRows: config.EXPORT_PAGE_ROWS,
    pgliteHeldCursor: config.EXPORT_PGLITE_READ === 'cursor',
    jobMinRows: config.EXPORT_JOB_MIN_ROWS,
    databaseCsv: config.EXPORT_DATABASE_CSV,
    copyParts: config.EXPORT_COPY_PARTS,
    copySplitRows: config.EXPORT_COPY_SPLIT_ROWS,
    logoOf,
    ...(heavy ? { heavy } : {}),
    downloads: {
      perUser: config.EXPORTS_PER_USER,
      perWorkspace: config.EXPORTS_PER_WORKSPACE,
      perProcess: config.EXPORTS_PER_PROCESS,
    },
  });
  const savedReports = createSavedReportsService({
    db,
    reports,
    workspaces,
    rates,
    exports,
    viewsPerMinute: config.RATE_LIMIT_SHARE_VIEWS_PER_IP,
  });
  const reportSchedules = createReportSchedulesService({
    db,
    jobs,
    mailer,
    savedReports,
    exports,
    workspaces,
    publicUrl: config.publicUrl,
    ...(log ? { log } : {}),
  });
  reportSchedules.registerJobs();
  const payments = createPayments({
    db,
    jobs,
    gateway: config.PAYMENTS_GATEWAY,
    stripe: config.stripe,
    webhookSecret: config.paymentsWebhookSecret,
    publicUrl: config.publicUrl,
    deliver: deliverPaymentEvent,
  });
  const billing = createBillingService({
    db,
    payments,
    workspaces,
    seller: config.seller,
    mode: config.billing,
    mailer,
    jobs,
    publicUrl: config.publicUrl,
    ...(now ? { now } : {}),
    ...(log ? { log } : {}),
  });
  billing.registerJobs();
  const notifications = createNotificationsService({ db, mailer });
  const approvalReminders = createApprovalReminders({
    db,
    jobs,
    mailer,
    publicUrl: config.publicUrl,
    billing: config.billing,
  });
  approvalReminders.registerJobs();
  const apiKeys = createApiKeysService({
    db,
    mailer,
    jobs,
    publicUrl: config.publicUrl,
    limits: {
      perKey: config.API_KEY_REQUESTS_PER_MINUTE,
      reportsPerKey: config.API_KEY_REPORTS_PER_MINUTE,
      perWorkspace: config.API_WORKSPACE_KEY_REQUESTS_PER_MINUTE,
    },
    ...(now ? { now } : {}),
    onMeterError: (error) => log?.warn({ err: error }, 'could not share the API keys’ request counts'),
  });
  apiKeys.registerJobs();
  const auditLog = createAuditLogService({ db, jobs });
  auditLog.registerJobs();
  const webhooks = createWebhooksService({
    db,
    jobs,
    mailer,
    secrets,
    auditLog,
    allowPrivateTargets: config.allowPrivateTargets,
    deliveriesPerSecond: config.WEBHOOK_DELIVERIES_PER_SECOND,
    ...(now ? { now } : {}),
    ...(log ? { log } : {}),
  });
  webhooks.registerJobs();
  const calendars = createCalendarsService({
    db,
    timeEntries,
    workspaces,
    publicUrl: config.publicUrl,
    feedReadsPerMinute: config.RATE_LIMIT_CALENDAR_FEED_PER_IP,
    secrets,
    jobs,
    allowPrivateTargets: config.allowPrivateTargets,
    ...(now ? { now } : {}),
    ...(log ? { log } : {}),
  });
  calendars.registerJobs();
  const computerTime = createComputerTimeService({
    db,
    jobs,
    publicUrl: config.publicUrl,
    pairingsPerHour: config.RATE_LIMIT_AGENT_PAIRING_PER_IP,
    timeEntries,
    ...(now ? { now } : {}),
  });
  computerTime.registerJobs();
  const attendance = createAttendanceService({ db, timeEntries });
  const budgetAlerts = createBudgetAlertsService({
    db,
    events,
    jobs,
    notifications,
    reports,
    billing: config.billing,
    publicUrl: config.publicUrl,
  });
  budgetAlerts.register();
  schedulePlatformPurges(jobs, { db, sessions });
  jobs.register(pruneTimeEntriesJob, () => timeEntries.pruneIdempotencyKeys());
  jobs.schedule(pruneTimeEntriesJob, '13 * * * *', {});
  return {
    db,
    mailer,
    jobs,
    background,
    sessions,
    /** Seals secrets kept in the database (platform/secrets.ts). */
    secrets,
    /** The session cookie's authenticator; the platform asks the users and memberships tables through this lookup. */
    sessionAuthenticator: createSessionAuthenticator({
      sessions,
      config,
      findSignedIn: (secret, options) => workspacesRepository.findSignedIn(db, secret, options),
    }),
    workspaces,
    auth,
    /** Signing in through identity providers: social OpenID Connect and workspace SSO (modules/sso). */
    sso,
    workspaceSso: createWorkspaceSsoService({
      db,
      config,
      secrets,
      oidc,
      sso,
      dns: createDomainProofResolver({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS }),
    }),
    /** Two-factor authentication (issue 18) and the user's own sessions. */
    twoFactor,
    accountSessions: createAccountSessionsService({ db, sessions }),
    profile: createProfileService({ db, workspaces }),
    members: createMembersService({ db, billing: config.billing, workspaces }),
    groups: createGroupsService({ db }),
    approvals: createApprovalsService({ db, notifications, publicUrl: config.publicUrl }),
    approvalReminders,
    /** Personal API keys and their bearer authenticator (issue 34). */
    apiKeys,
    /** The audit log people read, and its hash chain (issue 34). */
    auditLog,
    /** Signed webhooks fed by the audit log (issue 34). */
    webhooks,
    /** The private feed of one's time, and the calendars one subscribes to. */
    calendars,
    /** The desktop agent's pairing and device tokens, and the activity it uploads (issue 35). */
    computerTime,
    attendance,
    roles: createRolesService({ db }),
    projects,
    clients: createClientsService(db),
    reports,
    savedReports,
    exports,
    reportSchedules,
    exportJobs: createExportJobsService({
      db,
      exports,
      workspaces,
      jobs,
      mailer,
      publicUrl: config.publicUrl,
      chunkBytes: config.EXPORT_JOB_CHUNK_BYTES,
    }),
    tags: createTagsService(db, timeEntries),
    notifications,
    budgetAlerts,
    rates,
    clientInvoices: createClientInvoicesService({
      db,
      timeEntries,
      mailer,
      logoOf,
      ...(now ? { now } : {}),
    }),
    imports: createImportsService(
      db,
      timeEntries,
      jobs,
      { maxBytes: config.IMPORT_MAX_BYTES, maxRows: config.IMPORT_MAX_ROWS },
      { analyzeAfterRows: config.ANALYZE_AFTER_ROWS, workspaces },
    ),
    events,
    liveUpdates,
    payments,
    billing,
    timeEntries,
    invites,
    scim: createScimService({ db, invites, billing: config.billing, publicUrl: config.publicUrl }),
  };
}

export type Services = ReturnType<typeof createServices>;
