import { timingSafeEqual } from 'node:crypto';
import {
  barInterval,
  type CreatedReportCsvLinkView,
  type CreatedReportLinkView,
  type CreateReportCsvLinkBody,
  type CreateReportLinkBody,
  type CreateSavedReportBody,
  createReportCsvLinkBody,
  createReportLinkBody,
  createSavedReportBody,
  detailedReportQuery,
  isCsvLinkable,
  isLinkShareable,
  isReportKind,
  MONEY_MEASURES,
  matrixReportQuery,
  savedReportMessages as msg,
  REPORT_KINDS,
  type ReportCsvLinkStateView,
  type ReportCsvLinkView,
  type ReportKindSpec,
  type ReportLinkView,
  type ReportMeasure,
  reportCsvPath,
  reportQuery,
  type SavedReportView,
  SHARED_DETAILED_PAGE,
  type SharedReportView,
  type UpdateSavedReportBody,
  updateSavedReportBody,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { ReportCsvLinkRow, ReportLinkRow } from '../../db/tables/saved-reports.js';
import { allows, assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, mapConstraints, notFound, validationError } from '../../platform/errors.js';
import { hashSecret, isUuid, newId, newSecret } from '../../platform/ids.js';
import { rateLimiter } from '../../platform/rate-limits.js';
import type { ExportFile, ExportsService } from '../exports/exports.service.js';
import type { RatesService } from '../rates/rates.service.js';
import type { ReportsService } from '../reports/reports.service.js';
import { usersService } from '../users/users.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { savedReportsRepository as repo, type SavedReportWithOwner } from './saved-reports.repository.js';

const CONSTRAINTS = {
  saved_reports_owner_name: { message: msg.nameTaken, field: 'name', code: 'name_taken' },
} as const;
const CSV_CONSTRAINTS = {
  report_csv_links_one_active: { message: msg.csvLinkBusy, code: 'csv_link_busy' },
} as const;

/** How many public views one address may ask for in a minute (a guess at a secret costs one each). */
const VIEW_WINDOW_MS = 60_000;

const linkGone = () => new AppError('link_not_found', msg.linkGone, { status: 404 });

function linkStatus(link: Pick<ReportLinkRow, 'revoked_at' | 'expires_at'>, now: Date): ReportLinkView['status'] {
  if (link.revoked_at) return 'revoked';
  if (link.expires_at && new Date(link.expires_at) <= now) return 'expired';
  return 'active';
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function presentLink(link: ReportLinkRow, now = new Date()): ReportLinkView {
  return {
    id: link.id,
    savedReportId: link.saved_report_id,
    includeCosts: link.include_costs,
    expiresAt: iso(link.expires_at),
    revokedAt: iso(link.revoked_at),
    createdAt: new Date(link.created_at).toISOString(),
    lastViewedAt: iso(link.last_viewed_at),
    status: linkStatus(link, now),
  };
}

function presentCsvLink(link: ReportCsvLinkRow, now = new Date()): ReportCsvLinkView {
  return {
    id: link.id,
    savedReportId: link.saved_report_id,
    includeCosts: link.include_costs,
    expiresAt: iso(link.expires_at),
    revokedAt: iso(link.revoked_at),
    createdAt: new Date(link.created_at).toISOString(),
    lastFetchedAt: iso(link.last_fetched_at),
    status: linkStatus(link, now),
  };
}

/**
 * The export of a saved report: its engine, its query with the page's defaults filled in (as the
 * page and the page link read them), as CSV without a byte-order mark (Google Sheets needs none).
 */
function csvParams(kind: keyof typeof REPORT_KINDS, query: string, name: string): URLSearchParams {
  const spec: ReportKindSpec = REPORT_KINDS[kind];
  if (spec.engine === 'estimates') throw new AppError('not_shareable', msg.estimatesNotShared, { status: 422 });
  const params = new URLSearchParams(query);
  for (const key of ['cursor', 'chart', 'kind', 'format', 'bom', 'title']) params.delete(key);
  if (spec.engine === 'summary') {
    if (!params.get('groupBy')) params.set('groupBy', spec.groupBy.join(','));
    if (!params.get('measures')) params.set('measures', spec.measures.join(','));
  }
  if (spec.engine === 'matrix') {
    if (!params.get('rows')) params.set('rows', spec.rows);
    if (!params.get('columns')) params.set('columns', spec.columns);
  }
  params.set('kind', spec.engine);
  params.set('format', 'csv');
  params.set('title', name.slice(0, 80));
  return params;
}

/** Whether two secrets' hashes match, in time that does not depend on where they differ. */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Saved reports and their public links. A saved report is its owner's; the owner alone changes
 * it and shares it by link; one shared with the workspace is listed to every member (who then see
 * it with their own access), and owners and admins may delete it and revoke its links. A public
 * link runs the report as its creator with the creator's access of the moment it is viewed: a
 * creator who left or was disabled takes the link down with them, and a lowered role shows less.
 */
/**
 * A link's terms, the same for page and CSV links: costs only for those who may share them, and
 * an expiry (or none) that is still ahead. Returns the expiry.
 */
function linkExpiry(actor: Actor, body: { includeCosts: boolean; expiresAt: string | null }, now: Date): Date | null {
  if (body.includeCosts && !allows(actor.membership, 'saved_reports:share_costs'))
    throw new AppError('forbidden', msg.costsForAdmins, { status: 403 });
  const expiresAt = body.expiresAt === null ? null : new Date(body.expiresAt);
  if (expiresAt && expiresAt <= now) throw validationError({ expiresAt: msg.expiryPast });
  return expiresAt;
}

export function createSavedReportsService(deps: {
  db: Db;
  reports: Pick<ReportsService, 'summary' | 'matrix' | 'detailed'>;
  workspaces: Pick<WorkspacesService, 'getMembership'>;
  rates: Pick<RatesService, 'settings'>;
  exports: Pick<ExportsService, 'export'>;
  viewsPerMinute: number;
}) {
  const { db } = deps;

  function present(actor: Actor, row: SavedReportWithOwner): SavedReportView {
    const own = row.owner_user_id === actor.userId;
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      query: row.query,
      visibility: row.visibility,
      ownerUserId: row.owner_user_id,
      ownerName: row.owner_name,
      canEdit: own,
      canDelete: own || (row.visibility === 'workspace' && allows(actor.membership, 'saved_reports:manage_shared')),
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  /** The saved report if the actor sees it (their own, or shared with the workspace); else 404. */
  async function getVisible(actor: Actor, id: string, tx: Db = db): Promise<SavedReportWithOwner> {
    const row = isUuid(id) ? await repo.find(tx, actor.membership.workspace.id, id) : undefined;
    if (!row || (row.owner_user_id !== actor.userId && row.visibility !== 'workspace')) throw notFound(msg.notFound);
    return row;
  }

  function assertOwner(actor: Actor, row: SavedReportWithOwner) {
    if (row.owner_user_id !== actor.userId) throw new AppError('forbidden', msg.onlyOwner, { status: 403 });
  }

  /** Its owner, or owners and admins for one shared with the workspace: who may delete it and revoke its links. */
  function assertManages(actor: Actor, row: SavedReportWithOwner) {
    if (row.owner_user_id === actor.userId) return;
    if (row.visibility === 'workspace' && allows(actor.membership, 'saved_reports:manage_shared')) return;
    throw new AppError('forbidden', msg.deleteRefused, { status: 403 });
  }

  /** The creator as the report engine sees them today; undefined when they are no longer an active member. */
  async function creatorActor(workspaceId: string, userId: string): Promise<Actor | undefined> {
    const user = await usersService.findById(db, userId);
    if (!user) return undefined;
    const membership = await deps.workspaces.getMembership(workspaceId, userId).catch(() => undefined);
    if (membership?.status !== 'active') return undefined;
    return { user, userId, membership, via: 'token' };
  }

  return {
    async list(actor: Actor): Promise<{ items: SavedReportView[] }> {
      const rows = await repo.list(db, actor.membership.workspace.id, actor.userId);
      return { items: rows.map((row) => present(actor, row)) };
    },

    async get(actor: Actor, id: string): Promise<SavedReportView> {
      return present(actor, await getVisible(actor, id));
    },

    /** Saves a report page's view under a name unique among the actor's own (409 name_taken). */
    async create(actor: Actor, input: CreateSavedReportBody): Promise<SavedReportView> {
      const body = createSavedReportBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      const id = newId();
      return db.transaction().execute(async (tx) => {
        await mapConstraints(CONSTRAINTS, () =>
          repo.insert(tx, {
            id,
            workspace_id: workspaceId,
            owner_user_id: actor.userId,
            name: body.name,
            kind: body.kind,
            query: body.query,
            visibility: body.visibility,
          }),
        );
        await audit(tx, {
          action: 'saved_report.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { kind: body.kind, visibility: body.visibility },
        });
        return present(actor, await getVisible(actor, id, tx));
      });
    },

    /** Renames, re-saves or re-shares one of the actor's own saved reports (403 for others' shared ones). */
    async update(actor: Actor, id: string, input: UpdateSavedReportBody): Promise<SavedReportView> {
      const body = updateSavedReportBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        assertOwner(actor, await getVisible(actor, id, tx));
        await mapConstraints(CONSTRAINTS, () =>
          repo.update(tx, workspaceId, id, {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.query !== undefined ? { query: body.query } : {}),
            ...(body.visibility !== undefined ? { visibility: body.visibility } : {}),
          }),
        );
        return present(actor, await getVisible(actor, id, tx));
      });
    },

    /** Deletes a saved report and its links: its owner, or owners and admins when it is shared. */
    async remove(actor: Actor, id: string): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const row = await getVisible(actor, id, tx);
        assertManages(actor, row);
        await repo.remove(tx, workspaceId, id);
        await audit(tx, {
          action: 'saved_report.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: row.name, ownerUserId: row.owner_user_id },
        });
      });
    },

    async listLinks(actor: Actor, id: string, now = new Date()): Promise<{ items: ReportLinkView[] }> {
      const row = await getVisible(actor, id);
      assertManages(actor, row);
      const links = await repo.listLinks(db, actor.membership.workspace.id, id);
      return { items: links.map((link) => presentLink(link, now)) };
    },

    /**
     * A new public link to one of the actor's saved reports; its secret is in the answer only (the
     * table keeps its sha-256). Costs and margins need saved_reports:share_costs.
     */
    async createLink(
      actor: Actor,
      id: string,
      input: CreateReportLinkBody,
      now = new Date(),
    ): Promise<CreatedReportLinkView> {
      const body = createReportLinkBody.parse(input);
      const expiresAt = linkExpiry(actor, body, now);
      const workspaceId = actor.membership.workspace.id;
      const secret = newSecret();
      return db.transaction().execute(async (tx) => {
        const row = await getVisible(actor, id, tx);
        assertOwner(actor, row);
        if (!isLinkShareable(row.kind)) throw new AppError('not_shareable', msg.estimatesNotShared, { status: 422 });
        const link = await repo.insertLink(tx, {
          id: newId(),
          workspace_id: workspaceId,
          saved_report_id: id,
          created_by_user_id: actor.userId,
          secret_hash: hashSecret(secret),
          include_costs: body.includeCosts,
          expires_at: expiresAt,
        });
        await audit(tx, {
          action: 'report_link.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: link.id,
          detail: { savedReportId: id, includeCosts: body.includeCosts, expiresAt: iso(expiresAt) },
        });
        return { ...presentLink(link, now), secret };
      });
    },

    /** Revokes a link (again: no change): the owner, or owners and admins for a shared report. */
    async revokeLink(actor: Actor, id: string, linkId: string, now = new Date()): Promise<ReportLinkView> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        assertManages(actor, await getVisible(actor, id, tx));
        const link = isUuid(linkId) ? await repo.findLink(tx, workspaceId, id, linkId) : undefined;
        if (!link) throw notFound(msg.linkNotFound);
        if (!link.revoked_at) {
          await repo.revokeLink(tx, workspaceId, linkId, now);
          await audit(tx, {
            action: 'report_link.revoked',
            actorUserId: actor.userId,
            workspaceId,
            subjectId: linkId,
            detail: { savedReportId: id },
          });
        }
        return presentLink({ ...link, revoked_at: link.revoked_at ?? now }, now);
      });
    },

    /**
     * The public page of a link: the report, run now as the link's creator with their access of
     * now, without costs and margins unless the link includes them. Unknown, wrong-secret, expired
     * and revoked links, and links whose creator is no longer an active member, all answer the same
     * 404, so a guess learns nothing. Each address has `viewsPerMinute` tries a minute (each page of
     * a Detailed report, `cursor` the previous page's `nextCursor`, is one view).
     */
    async view(
      linkId: string,
      secret: string | undefined,
      client: { ip: string },
      options: { cursor?: string } = {},
      now = new Date(),
    ) {
      await rateLimiter.hit(db, {
        bucket: `share:ip:${client.ip}`,
        limit: deps.viewsPerMinute,
        windowMs: VIEW_WINDOW_MS,
        message: (wait) => `Too many views of shared reports from your network: try again in ${wait}.`,
      });
      const link = isUuid(linkId) ? await repo.findPublicLink(db, linkId) : undefined;
      const given = hashSecret(secret ?? '');
      const matches = sameHash(link?.secret_hash ?? hashSecret(newSecret()), given);
      if (!link || !secret || !matches || linkStatus(link, now) !== 'active') throw linkGone();
      const saved = await repo.find(db, link.workspace_id, link.saved_report_id);
      const actor = await creatorActor(link.workspace_id, link.created_by_user_id);
      if (!saved || !actor || !isReportKind(saved.kind)) throw linkGone();
      const report = await runAs(actor, saved.kind, saved.query, link.include_costs, options.cursor);
      await repo.touchLink(db, link.workspace_id, link.id, now);
      const { currency } = await deps.rates.settings(actor);
      return {
        name: saved.name,
        kind: saved.kind,
        workspaceName: actor.membership.workspace.name,
        currency,
        ...report,
      } satisfies SharedReportView;
    },

    /** The report's CSV link made last, working or not (never its token); null when it had none. */
    async getCsvLink(actor: Actor, id: string, now = new Date()): Promise<ReportCsvLinkStateView> {
      const row = await getVisible(actor, id);
      assertManages(actor, row);
      const link = await repo.latestCsvLink(db, actor.membership.workspace.id, id);
      return { link: link ? presentCsvLink(link, now) : null };
    },

    /**
     * A new CSV link to one of the actor's saved reports, for spreadsheet imports (IMPORTDATA): its
     * token is in the answer only (the table keeps its sha-256) and the CSV link made before stops
     * working. Costs and margins need saved_reports:share_costs, as on a page link.
     */
    async createCsvLink(
      actor: Actor,
      id: string,
      input: CreateReportCsvLinkBody,
      now = new Date(),
    ): Promise<CreatedReportCsvLinkView> {
      // A CSV link is an export (Google Sheets imports it): Basic.
      assertFeature(actor, 'export');
      const body = createReportCsvLinkBody.parse(input);
      const expiresAt = linkExpiry(actor, body, now);
      const workspaceId = actor.membership.workspace.id;
      const token = newSecret();
      return db.transaction().execute(async (tx) => {
        const row = await getVisible(actor, id, tx);
        assertOwner(actor, row);
        if (!isCsvLinkable(row.kind)) throw new AppError('not_shareable', msg.estimatesNotShared, { status: 422 });
        const replaced = await repo.revokeCsvLinks(tx, workspaceId, id, now);
        const link = await mapConstraints(CSV_CONSTRAINTS, () =>
          repo.insertCsvLink(tx, {
            id: newId(),
            workspace_id: workspaceId,
            saved_report_id: id,
            created_by_user_id: actor.userId,
            token_hash: hashSecret(token),
            include_costs: body.includeCosts,
            expires_at: expiresAt,
          }),
        );
        await audit(tx, {
          action: 'report_csv_link.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: link.id,
          detail: { savedReportId: id, includeCosts: body.includeCosts, expiresAt: iso(expiresAt), replaced },
        });
        return { ...presentCsvLink(link, now), token, path: reportCsvPath(token) };
      });
    },

    /** Revokes the report's CSV link (again: no change); the owner, or owners and admins for a shared report. */
    async revokeCsvLink(actor: Actor, id: string, now = new Date()): Promise<ReportCsvLinkStateView> {
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        assertManages(actor, await getVisible(actor, id, tx));
        const revoked = await repo.revokeCsvLinks(tx, workspaceId, id, now);
        for (const linkId of revoked)
          await audit(tx, {
            action: 'report_csv_link.revoked',
            actorUserId: actor.userId,
            workspaceId,
            subjectId: linkId,
            detail: { savedReportId: id },
          });
        const link = await repo.latestCsvLink(tx, workspaceId, id);
        if (!link) throw notFound(msg.csvLinkNotFound);
        return { link: presentCsvLink(link, now) };
      });
    },

    /**
     * The public CSV of a CSV link (`<token>.csv`): the saved report exported now as the link's
     * creator with their access of now, without costs and margins unless the link includes them.
     * Unknown, revoked and expired tokens, and links whose creator is no longer an active member,
     * all answer the same 404. Each address has `viewsPerMinute` fetches a minute.
     */
    async csv(file: string, client: { ip: string }, now = new Date()): Promise<ExportFile> {
      await rateLimiter.hit(db, {
        bucket: `sheets:ip:${client.ip}`,
        limit: deps.viewsPerMinute,
        windowMs: VIEW_WINDOW_MS,
        message: (wait) => `Too many fetches of report CSV links from your network: try again in ${wait}.`,
      });
      const token = file.endsWith('.csv') ? file.slice(0, -4) : '';
      // The same lookup for every answer, even a malformed name: a miss costs what a revoked link costs.
      const link = await repo.findWorkingCsvLink(db, hashSecret(token), now);
      if (!link || !token) throw linkGone();
      const saved = await repo.find(db, link.workspace_id, link.saved_report_id);
      const actor = await creatorActor(link.workspace_id, link.created_by_user_id);
      if (!saved || !actor || !isReportKind(saved.kind) || !isCsvLinkable(saved.kind)) throw linkGone();
      const params = csvParams(saved.kind, saved.query, saved.name);
      const withoutCosts = !link.include_costs;
      let file_: ExportFile;
      try {
        file_ = await deps.exports.export(actor, params, { withoutCosts, download: true });
      } catch (error) {
        // Money the creator may no longer see is left out, as the page link leaves it out.
        if (!moneyRefused(error)) throw error;
        const kept = (params.get('measures') ?? '')
          .split(',')
          .filter((m) => m && !MONEY_MEASURES.includes(m as ReportMeasure));
        params.set('measures', kept.length ? kept.join(',') : 'trackedSeconds');
        file_ = await deps.exports.export(actor, params, { withoutCosts, download: true });
      }
      await repo.touchCsvLink(db, link.workspace_id, link.id, now);
      return file_;
    },
  };

  /** Runs a saved report as `actor`; money it may not see, or costs the link leaves out, are dropped. */
  async function runAs(
    actor: Actor,
    kind: keyof typeof REPORT_KINDS,
    query: string,
    includeCosts: boolean,
    cursor?: string,
  ): Promise<Pick<SharedReportView, 'report' | 'moneyHidden'>> {
    const spec = REPORT_KINDS[kind];
    const params = Object.fromEntries(new URLSearchParams(query));
    if (spec.engine === 'detailed') return runDetailed(actor, params, includeCosts, cursor);
    const wanted = (params.measures ?? '').split(',').filter(Boolean) as ReportMeasure[];
    const allowed = (measures: ReportMeasure[]) =>
      includeCosts ? measures : measures.filter((m) => m !== 'costAmount' && m !== 'margin');
    const run = async (measures: ReportMeasure[]): Promise<SharedReportView['report']> => {
      if (spec.engine === 'summary') {
        const q = reportQuery.parse({ ...params, groupBy: params.groupBy ?? spec.groupBy.join(','), measures });
        const view = await deps.reports.summary(actor, q);
        // The Summary page's bars: tracked time per day, week or month of the same filters.
        const interval = barInterval(view.range.from, view.range.to);
        const series = await deps.reports.summary(
          actor,
          reportQuery.parse({ ...params, groupBy: interval, measures: ['trackedSeconds'] }),
        );
        const points = series.groups.map((g) => ({ key: g.key.key ?? '', seconds: g.measures.trackedSeconds ?? 0 }));
        return { engine: 'summary', view, bars: { interval, points } };
      }
      if (spec.engine === 'matrix') {
        const q = matrixReportQuery.parse({
          ...params,
          rows: params.rows ?? spec.rows,
          columns: params.columns ?? spec.columns,
          measures,
        });
        return { engine: 'matrix', rows: q.rows, columns: q.columns, view: await deps.reports.matrix(actor, q) };
      }
      throw linkGone();
    };
    const first =
      spec.engine === 'summary'
        ? allowed(wanted.length ? wanted : [...spec.measures])
        : allowed(wanted.slice(0, 1)).length
          ? allowed(wanted.slice(0, 1))
          : (['trackedSeconds'] as ReportMeasure[]);
    const measures = first.length ? first : (['trackedSeconds'] as ReportMeasure[]);
    try {
      return { report: await run(measures), moneyHidden: false };
    } catch (error) {
      if (!moneyRefused(error)) throw error;
      const without = measures.filter((m) => !MONEY_MEASURES.includes(m));
      return { report: await run(without.length ? without : ['trackedSeconds']), moneyHidden: true };
    }
  }

  /**
   * One page of a saved Detailed report as `actor`, with the whole report's totals (the signed-in
   * page's figures); entries' costs are dropped unless the link includes them, their invoices always, and the totals leave
   * out the amounts the creator may not see for everyone in the report (moneyHidden).
   */
  async function runDetailed(
    actor: Actor,
    params: Record<string, string>,
    includeCosts: boolean,
    cursor: string | undefined,
  ): Promise<Pick<SharedReportView, 'report' | 'moneyHidden'>> {
    const { measures: _m, groupBy: _g, limit: _l, ...filters } = params;
    const q = detailedReportQuery.parse({ ...filters, cursor, limit: SHARED_DETAILED_PAGE });
    const view = await deps.reports.detailed(actor, q);
    // A shared link's readers are not the creator: the creator's invoices stay out of it.
    const items = view.items.map((e) => ({ ...e, invoice: null, ...(includeCosts ? {} : { costAmount: null }) }));
    const wanted = includeCosts ? [...DETAILED_TOTALS, 'costAmount' as const] : DETAILED_TOTALS;
    const totalsOf = (measures: ReportMeasure[]) =>
      deps.reports.summary(actor, reportQuery.parse({ ...filters, measures })).then((s) => s.totals);
    let moneyHidden = false;
    let totals: Awaited<ReturnType<typeof totalsOf>>;
    try {
      totals = await totalsOf(wanted);
    } catch (error) {
      if (!moneyRefused(error)) throw error;
      moneyHidden = true;
      totals = await totalsOf(wanted.filter((m) => !MONEY_MEASURES.includes(m)));
    }
    return {
      report: { engine: 'detailed', view: { ...view, items }, sort: q.sort, order: q.order, totals },
      moneyHidden,
    };
  }
}

/**
 * Whether a report refused its money: the creator may not see it (money_forbidden), or the
 * workspace's plan has no billing rates (plan_limit_reached; a Free workspace's links show time only).
 */
const moneyRefused = (error: unknown): boolean =>
  error instanceof AppError && (error.code === 'money_forbidden' || error.code === 'plan_limit_reached');

/** The engine's measures a shared Detailed report totals (costs only when the link includes them). */
const DETAILED_TOTALS: ReportMeasure[] = ['trackedSeconds', 'billableSeconds', 'billableAmount', 'entryCount'];

export type SavedReportsService = ReturnType<typeof createSavedReportsService>;
