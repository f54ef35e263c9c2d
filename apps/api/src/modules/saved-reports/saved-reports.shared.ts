import { savedReportMessages as msg, type ReportLinkView, type SavedReportView } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { ReportLinkRow } from '../../db/tables/saved-reports.js';
import { allows } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { ExportsService } from '../exports/exports.service.js';
import type { RatesService } from '../rates/rates.service.js';
import type { ReportsService } from '../reports/reports.service.js';
import { usersService } from '../users/users.service.js';
import type { WorkspacesService } from '../workspaces/workspaces.service.js';
import { savedReportsRepository as repo, type SavedReportWithOwner } from './saved-reports.repository.js';

/**
 * What the parts of the saved-reports service share: who sees, changes and manages a saved report,
 * the creator a link runs as, and the terms and state of a link, page or CSV.
 */

export interface SavedReportsDeps {
  db: Db;
  reports: Pick<ReportsService, 'summary' | 'matrix' | 'detailed'>;
  workspaces: Pick<WorkspacesService, 'getMembership'>;
  rates: Pick<RatesService, 'settings'>;
  exports: Pick<ExportsService, 'export'>;
  viewsPerMinute: number;
}

/** How many public views one address may ask for in a minute (a guess at a secret costs one each). */
export const VIEW_WINDOW_MS = 60_000;

export const linkGone = () => new AppError('link_not_found', msg.linkGone, { status: 404 });

export function linkStatus(
  link: Pick<ReportLinkRow, 'revoked_at' | 'expires_at'>,
  now: Date,
): ReportLinkView['status'] {
  if (link.revoked_at) return 'revoked';
  if (link.expires_at && new Date(link.expires_at) <= now) return 'expired';
  return 'active';
}

export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** What a page link and a CSV link show alike: their report, terms and state. */
export function presentTerms(
  link: Pick<ReportLinkRow, 'id' | 'saved_report_id' | 'include_costs' | 'expires_at' | 'revoked_at' | 'created_at'>,
  now: Date,
) {
  return {
    id: link.id,
    savedReportId: link.saved_report_id,
    includeCosts: link.include_costs,
    expiresAt: iso(link.expires_at),
    revokedAt: iso(link.revoked_at),
    createdAt: new Date(link.created_at).toISOString(),
    status: linkStatus(link, now),
  };
}

/**
 * A link's terms, the same for page and CSV links: costs only for those who may share them, and
 * an expiry (or none) that is still ahead. Returns the expiry.
 */
export function linkExpiry(
  actor: Actor,
  body: { includeCosts: boolean; expiresAt: string | null },
  now: Date,
): Date | null {
  if (body.includeCosts && !allows(actor.membership, 'saved_reports:share_costs'))
    throw new AppError('forbidden', msg.costsForAdmins, { status: 403 });
  const expiresAt = body.expiresAt === null ? null : new Date(body.expiresAt);
  if (expiresAt && expiresAt <= now) throw validationError({ expiresAt: msg.expiryPast });
  return expiresAt;
}

export function present(actor: Actor, row: SavedReportWithOwner): SavedReportView {
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

export function assertOwner(actor: Actor, row: SavedReportWithOwner) {
  if (row.owner_user_id !== actor.userId) throw new AppError('forbidden', msg.onlyOwner, { status: 403 });
}

/** Its owner, or owners and admins for one shared with the workspace: who may delete it and revoke its links. */
export function assertManages(actor: Actor, row: SavedReportWithOwner) {
  if (row.owner_user_id === actor.userId) return;
  if (row.visibility === 'workspace' && allows(actor.membership, 'saved_reports:manage_shared')) return;
  throw new AppError('forbidden', msg.deleteRefused, { status: 403 });
}

/** Finding saved reports as an actor sees them, and a link's creator as the engine sees them now. */
export function savedReportAccess(deps: Pick<SavedReportsDeps, 'db' | 'workspaces'>) {
  const { db } = deps;
  return {
    /** The saved report if the actor sees it (their own, or shared with the workspace); else 404. */
    async getVisible(actor: Actor, id: string, tx: Db = db): Promise<SavedReportWithOwner> {
      const row = isUuid(id) ? await repo.find(tx, actor.membership.workspace.id, id) : undefined;
      if (!row || (row.owner_user_id !== actor.userId && row.visibility !== 'workspace')) throw notFound(msg.notFound);
      return row;
    },

    /** The creator as the report engine sees them today; undefined when they are no longer an active member. */
    async creatorActor(workspaceId: string, userId: string): Promise<Actor | undefined> {
      const user = await usersService.findById(db, userId);
      if (!user) return undefined;
      const membership = await deps.workspaces.getMembership(workspaceId, userId).catch(() => undefined);
      if (membership?.status !== 'active') return undefined;
      return { user, userId, membership, via: 'token' };
    },
  };
}

export type SavedReportAccess = ReturnType<typeof savedReportAccess>;

/**
 * Whether a report refused its money: the creator may not see it (money_forbidden), or the
 * workspace's plan has no billing rates (plan_limit_reached; a Free workspace's links show time only).
 */
export const moneyRefused = (error: unknown): boolean =>
  error instanceof AppError && (error.code === 'money_forbidden' || error.code === 'plan_limit_reached');
