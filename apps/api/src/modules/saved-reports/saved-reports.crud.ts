import {
  type CreateSavedReportBody,
  createSavedReportBody,
  savedReportMessages as msg,
  type SavedReportView,
  type UpdateSavedReportBody,
  updateSavedReportBody,
} from '@sundial/core';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { mapConstraints } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { savedReportsRepository as repo } from './saved-reports.repository.js';
import {
  assertManages,
  assertOwner,
  present,
  type SavedReportAccess,
  type SavedReportsDeps,
} from './saved-reports.shared.js';

const CONSTRAINTS = {
  saved_reports_owner_name: { message: msg.nameTaken, field: 'name', code: 'name_taken' },
} as const;

/** Saved reports themselves: listed, saved, renamed or re-shared, and deleted with their links. */
export function createSavedReportsCrud(deps: Pick<SavedReportsDeps, 'db'>, { getVisible }: SavedReportAccess) {
  const { db } = deps;
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
  };
}
