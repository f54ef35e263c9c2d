import {
  type CreatedReportCsvLinkView,
  type CreateReportCsvLinkBody,
  createReportCsvLinkBody,
  isCsvLinkable,
  isReportKind,
  MONEY_MEASURES,
  savedReportMessages as msg,
  REPORT_KINDS,
  type ReportCsvLinkStateView,
  type ReportCsvLinkView,
  type ReportKindSpec,
  type ReportMeasure,
  reportCsvPath,
} from '@sundial/core';
import type { ReportCsvLinkRow } from '../../db/tables/saved-reports.js';
import { assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, mapConstraints, notFound } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import { rateLimiter } from '../../platform/rate-limits.js';
import type { ExportFile } from '../exports/exports.service.js';
import { savedReportsRepository as repo } from './saved-reports.repository.js';
import {
  assertManages,
  assertOwner,
  iso,
  linkExpiry,
  linkGone,
  moneyRefused,
  presentTerms,
  type SavedReportAccess,
  type SavedReportsDeps,
  VIEW_WINDOW_MS,
} from './saved-reports.shared.js';

const CSV_CONSTRAINTS = {
  report_csv_links_one_active: { message: msg.csvLinkBusy, code: 'csv_link_busy' },
} as const;

const presentCsvLink = (link: ReportCsvLinkRow, now = new Date()): ReportCsvLinkView => ({
  ...presentTerms(link, now),
  lastFetchedAt: iso(link.last_fetched_at),
});

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

/**
 * A saved report's CSV link for spreadsheet imports (IMPORTDATA): one working at a time, made by
 * its owner, revoked by whoever manages it, and the CSV it serves, exported as its creator.
 */
export function createCsvLinks(deps: SavedReportsDeps, { getVisible, creatorActor }: SavedReportAccess) {
  const { db } = deps;
  return {
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
}
