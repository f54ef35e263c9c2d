import type { ProjectCreateBody, ProjectUpdateBody } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { type ConstraintTable, mapConstraints, validationError } from '../../platform/errors.js';
import { idempotent } from '../../platform/idempotency.js';
import { newId } from '../../platform/ids.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { type ProjectListFilter, projectsRepository as repo } from './projects.repository.js';
import {
  assertBudgetOnPlan,
  detail,
  loadEditable,
  loadProject,
  type ProjectDetail,
  type ProjectListItem,
  present,
  sectionValues,
  viewerOf,
} from './projects.shared.js';

const PROJECT_TAKEN = 'A project with this name already exists for this client.';
const PROJECT_CONSTRAINTS: ConstraintTable = { projects_sibling_name_key: { message: PROJECT_TAKEN, field: 'name' } };

async function assertClient(tx: Db, workspaceId: string, clientId: string | null | undefined) {
  if (clientId && !(await repo.clientExists(tx, workspaceId, clientId))) {
    throw validationError({ clientId: 'Client not found.' });
  }
}

/** Projects themselves: listed, read, created, edited, archived and deleted with their time. */
export function createProjectsCrud(db: Db, timeEntries: TimeEntriesService) {
  return {
    /** Visible projects; with a search, each says which of its tasks matched (so the list can open them). */
    async list(
      actor: Actor,
      filter: ProjectListFilter,
    ): Promise<{ items: ProjectListItem[]; total: number; nextCursor: string | null }> {
      assertCan(actor, 'projects:view');
      const { rows, total, nextCursor } = await repo.list(db, viewerOf(actor), filter);
      const matches = filter.search
        ? await repo.matchingTasks(
            db,
            actor.membership.workspace.id,
            rows.map((r) => r.id),
            { search: filter.search, archived: filter.archived },
          )
        : [];
      return {
        items: rows.map((row) => ({
          ...present(actor, row),
          matchingTaskIds: matches.filter((m) => m.project_id === row.id).map((m) => m.id),
        })),
        total,
        nextCursor,
      };
    },

    get(actor: Actor, id: string) {
      assertCan(actor, 'projects:view');
      return detail(db, actor, id);
    },

    /** Creates a project; a retry with the same Idempotency-Key gets the first answer again. */
    async create(actor: Actor, body: ProjectCreateBody, key?: string): Promise<ProjectDetail> {
      assertCan(actor, 'projects:manage');
      assertBudgetOnPlan(actor, body);
      const workspaceId = actor.membership.workspace.id;
      const id = newId();
      const request = { key, workspaceId, userId: actor.userId, operation: 'projects.create', body };
      const result = await db.transaction().execute((tx) =>
        idempotent(tx, request, async () => {
          await assertClient(tx, workspaceId, body.clientId);
          await mapConstraints(PROJECT_CONSTRAINTS, () =>
            repo.insert(tx, {
              id,
              workspace_id: workspaceId,
              name: body.name.trim(),
              client_id: body.clientId ?? null,
              owner_user_id: actor.userId,
              color: body.color,
              is_public: body.isPublic,
              ...sectionValues(body),
            }),
          );
          await audit(tx, { action: 'project.created', actorUserId: actor.userId, workspaceId, subjectId: id });
          return { status: 201, body: await detail(tx, actor, id) };
        }),
      );
      return result.body;
    },

    async update(actor: Actor, id: string, body: ProjectUpdateBody) {
      assertCan(actor, 'projects:view');
      assertBudgetOnPlan(actor, body);
      return db.transaction().execute(async (tx) => {
        const row = await loadEditable(tx, actor, id);
        // Public or private decides who sees the project: a people change, not an edit.
        if (body.isPublic !== undefined && body.isPublic !== row.is_public) {
          assertCan(actor, 'projects:manage');
        }
        const workspaceId = actor.membership.workspace.id;
        await assertClient(tx, workspaceId, body.clientId);
        const values = {
          ...(body.name !== undefined ? { name: body.name.trim() } : {}),
          ...(body.clientId !== undefined ? { client_id: body.clientId } : {}),
          ...(body.color !== undefined ? { color: body.color } : {}),
          ...(body.isPublic !== undefined ? { is_public: body.isPublic } : {}),
          ...sectionValues(body),
        };
        await mapConstraints(PROJECT_CONSTRAINTS, () => repo.update(tx, workspaceId, id, values));
        await audit(tx, {
          action: 'project.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: row.name, changes: changesOf(row, values) },
        });
        return detail(tx, actor, id);
      });
    },

    async setArchived(actor: Actor, id: string, archived: boolean) {
      assertCan(actor, 'projects:view');
      return db.transaction().execute(async (tx) => {
        await loadEditable(tx, actor, id);
        const workspaceId = actor.membership.workspace.id;
        await repo.update(tx, workspaceId, id, { archived_at: archived ? new Date() : null });
        await audit(tx, {
          action: archived ? 'project.archived' : 'project.restored',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
        });
        return detail(tx, actor, id);
      });
    },

    /** Deletes the project with its tasks, assignments and time entries; open timesheets hear of the entries. */
    async remove(actor: Actor, id: string): Promise<void> {
      assertCan(actor, 'projects:view');
      await db.transaction().execute(async (tx) => {
        const row = await loadProject(tx, actor, id);
        assertCan(actor, 'projects:manage');
        const workspaceId = actor.membership.workspace.id;
        await timeEntries.deleteOnProject(tx, timeEntries.writerOf(actor), id);
        await repo.delete(tx, workspaceId, id);
        await audit(tx, {
          action: 'project.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: row.name },
        });
      });
    },
  };
}
