import type { TaskCreateBody, TaskUpdateBody } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit, changesOf } from '../../platform/audit.js';
import { type ConstraintTable, mapConstraints, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { presentTask } from './projects.presenter.js';
import { projectsRepository as repo } from './projects.repository.js';
import {
  assertBudgetOnPlan,
  loadEditable,
  loadProject,
  loadTask,
  sectionValues,
  taskDetail,
} from './projects.shared.js';

const TASK_TAKEN = 'A task with this title already exists here.';
const TASK_CONSTRAINTS: ConstraintTable = { tasks_sibling_name_key: { message: TASK_TAKEN, field: 'name' } };

/** A project's tasks and sub-tasks: listed, read, created, edited or moved, archived and deleted. */
export function createTasks(db: Db, timeEntries: TimeEntriesService) {
  return {
    async listTasks(actor: Actor, projectId: string, f: { archived: 'true' | 'false' | 'all'; mine?: boolean }) {
      assertCan(actor, 'projects:view');
      await loadProject(db, actor, projectId);
      const rows = await repo.listTasks(db, actor.membership.workspace.id, projectId, {
        archived: f.archived,
        mineUserId: f.mine ? actor.userId : undefined,
      });
      return rows.map(presentTask);
    },

    getTask(actor: Actor, id: string) {
      assertCan(actor, 'projects:view');
      return taskDetail(db, actor, id);
    },

    async createTask(actor: Actor, projectId: string, body: TaskCreateBody) {
      assertCan(actor, 'projects:view');
      assertBudgetOnPlan(actor, body);
      const workspaceId = actor.membership.workspace.id;
      const id = newId();
      return db.transaction().execute(async (tx) => {
        await loadEditable(tx, actor, projectId);
        if (body.parentTaskId) {
          const parent = await repo.findTask(tx, workspaceId, body.parentTaskId);
          if (!parent || parent.project_id !== projectId) {
            throw validationError({ parentTaskId: 'The parent task is not in this project.' });
          }
        }
        await mapConstraints(TASK_CONSTRAINTS, () =>
          repo.insertTask(tx, {
            id,
            workspace_id: workspaceId,
            project_id: projectId,
            parent_task_id: body.parentTaskId ?? null,
            name: body.name.trim(),
            ...sectionValues(body),
          }),
        );
        await audit(tx, { action: 'task.created', actorUserId: actor.userId, workspaceId, subjectId: id });
        return taskDetail(tx, actor, id);
      });
    },

    async updateTask(actor: Actor, id: string, body: TaskUpdateBody) {
      assertCan(actor, 'projects:view');
      assertBudgetOnPlan(actor, body);
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const task = await loadTask(tx, actor, id);
        await loadEditable(tx, actor, task.project_id);
        const moving = body.projectId !== undefined || body.parentTaskId !== undefined;
        const projectId = body.projectId ?? task.project_id;
        // Moving to another project without naming a parent makes it a top-level task there.
        const parentTaskId =
          body.parentTaskId !== undefined
            ? body.parentTaskId
            : projectId === task.project_id
              ? task.parent_task_id
              : null;
        if (moving) {
          if (projectId !== task.project_id) await loadEditable(tx, actor, projectId);
          if (parentTaskId) {
            const parents = await repo.taskParents(tx, workspaceId, projectId);
            if (!parents.has(parentTaskId))
              throw validationError({ parentTaskId: 'The parent task is not in this project.' });
            // Not under itself or one of its own sub-tasks.
            for (let at: string | null | undefined = parentTaskId; at; at = parents.get(at)) {
              if (at === id) throw validationError({ parentTaskId: 'A task cannot be moved under itself.' });
            }
          }
        }
        const values = {
          ...(body.name !== undefined ? { name: body.name.trim() } : {}),
          ...(moving ? { project_id: projectId, parent_task_id: parentTaskId } : {}),
          ...sectionValues(body),
        };
        await mapConstraints(TASK_CONSTRAINTS, () => repo.updateTask(tx, workspaceId, id, values));
        await audit(tx, {
          action: 'task.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: task.name, changes: changesOf(task, values) },
        });
        return taskDetail(tx, actor, id);
      });
    },

    async setTaskArchived(actor: Actor, id: string, archived: boolean) {
      assertCan(actor, 'projects:view');
      const workspaceId = actor.membership.workspace.id;
      return db.transaction().execute(async (tx) => {
        const task = await loadTask(tx, actor, id);
        await loadEditable(tx, actor, task.project_id);
        await repo.updateTask(tx, workspaceId, id, { archived_at: archived ? new Date() : null });
        const action = archived ? 'task.archived' : 'task.restored';
        await audit(tx, { action, actorUserId: actor.userId, workspaceId, subjectId: id });
        return taskDetail(tx, actor, id);
      });
    },

    /** Deletes the task with its sub-tasks. */
    async removeTask(actor: Actor, id: string): Promise<void> {
      assertCan(actor, 'projects:view');
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const task = await loadTask(tx, actor, id);
        await loadEditable(tx, actor, task.project_id);
        const subtree = await repo.taskSubtree(tx, workspaceId, task);
        await timeEntries.detachTasks(tx, timeEntries.writerOf(actor), subtree);
        await repo.deleteTask(tx, workspaceId, task.id);
        await audit(tx, {
          action: 'task.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name: task.name },
        });
      });
    },
  };
}
