import { timingSafeEqual } from 'node:crypto';
import {
  type CreatedReportLinkView,
  type CreateReportLinkBody,
  createReportLinkBody,
  isLinkShareable,
  isReportKind,
  savedReportMessages as msg,
  type ReportLinkView,
  type SharedReportView,
} from '@sundial/core';
import type { ReportLinkRow } from '../../db/tables/saved-reports.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { hashSecret, isUuid, newId, newSecret } from '../../platform/ids.js';
import { rateLimiter } from '../../platform/rate-limits.js';
import { savedReportsRepository as repo } from './saved-reports.repository.js';
import { createSharedRuns } from './saved-reports.run.js';
import {
  assertManages,
  assertOwner,
  iso,
  linkExpiry,
  linkGone,
  linkStatus,
  presentTerms,
  type SavedReportAccess,
  type SavedReportsDeps,
  VIEW_WINDOW_MS,
} from './saved-reports.shared.js';

const presentLink = (link: ReportLinkRow, now = new Date()): ReportLinkView => ({
  ...presentTerms(link, now),
  lastViewedAt: iso(link.last_viewed_at),
});

/** Whether two secrets' hashes match, in time that does not depend on where they differ. */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A saved report's public page links: made by its owner, listed and revoked by whoever manages
 * it, and the page such a link opens, run as its creator.
 */
export function createReportLinks(deps: SavedReportsDeps, { getVisible, creatorActor }: SavedReportAccess) {
  const { db } = deps;
  const { runAs } = createSharedRuns(deps);
  return {
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
     * a Detailed report, `cursor` the previous page's `nextCursor`, and each group of a folded
     * Summary opened, `within` its keys, is one view).
     */
    async view(
      linkId: string,
      secret: string | undefined,
      client: { ip: string },
      options: { cursor?: string | undefined; within?: string | undefined } = {},
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
      const report = await runAs(actor, saved.kind, saved.query, link.include_costs, options);
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
  };
}
