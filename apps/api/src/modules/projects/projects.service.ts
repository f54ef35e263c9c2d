import type {
  MembersBody,
  ProjectCreateBody,
  ProjectPeopleBody,
  ProjectUpdateBody,
  TaskCreateBody,
  TaskUpdateBody,
} from '@sundial/core';
import { BUDGET_ALERT_PERCENTS, PICKER_PAGE } from '@sundial/core';
import type { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertCan, assertFeature, mayEditProject, projectViewerOf } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { type ConstraintTable, forbidden, mapConstraints, notFound, validationError } from '../../platform/errors.js';
import { idempotent } from '../../platform/idempotency.js';
import { newId } from '../../platform/ids.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import {
  presentProject,
  presentTask,
  type projectDetailView,
  type projectListItemView,
  type taskDetailView,
} from './projects.presenter.js';
import {
  type ProjectListFilter,
  type ProjectRow,
  projectsRepository as repo,
  type SectionValues,
} from './projects.repository.js';

const viewerOf = projectViewerOf;

type Sections = Pick<ProjectUpdateBody, 'description' | 'budget' | 'billableDefault' | 'keywordsEnabled' | 'keywords'>;

/** The edit-panel sections of a body, as columns; only what the body carries. */
function sectionValues(body: Sections): SectionValues {
  const v: SectionValues = {};
  if (body.description !== undefined) v.description = body.description?.trim() ? body.description : null;
  if (body.budget !== undefined) {
    v.budget_type = body.budget?.type ?? null;
    v.budget_amount = body.budget?.amount ?? null;
    v.budget_resets_monthly = body.budget?.resetsMonthly ?? false;
    // Left out, a budget keeps its thresholds; taking the budget off puts back the default for the next one.
    if (body.budget?.alertPercents) v.budget_alert_percents = body.budget.alertPercents;
    else if (body.budget === null) v.budget_alert_percents = [...BUDGET_ALERT_PERCENTS];
  }
  if (body.billableDefault !== undefined) v.billable_default = body.billableDefault;
  if (body.keywordsEnabled !== undefined) v.keywords_enabled = body.keywordsEnabled;
  if (body.keywords !== undefined) v.keywords = JSON.stringify([...new Set(body.keywords)]);
  return v;
}

/** Setting a budget needs budgeting (Basic); taking one off, and every other section, does not. */
function assertBudgetOnPlan(actor: Actor, body: Pick<Sections, 'budget'>): void {
  if (body.budget) assertFeature(actor, 'budgets');
}

const PROJECT_TAKEN = 'A project with this name already exists for this client.';
const TASK_TAKEN = 'A task with this title already exists here.';
const PROJECT_CONSTRAINTS: ConstraintTable = { projects_sibling_name_key: { message: PROJECT_TAKEN, field: 'name' } };
const TASK_CONSTRAINTS: ConstraintTable = { tasks_sibling_name_key: { message: TASK_TAKEN, field: 'name' } };

export function createProjectsService(db: Db, timeEntries: TimeEntriesService) {
  async function loadProject(dbOrTx: Db, actor: Actor, id: string) {
    const row = await repo.find(dbOrTx, viewerOf(actor), id);
    if (!row) throw notFound('Project not found.');
    return row;
  }

  /** A visible project the actor may edit (404 when invisible, 403 when only visible). */
  async function loadEditable(dbOrTx: Db, actor: Actor, id: string) {
    const row = await loadProject(dbOrTx, actor, id);
    if (!mayEditProject(actor.membership.permissions, row)) throw forbidden();
    return row;
  }

  const present = (actor: Actor, row: ProjectRow) =>
    presentProject(row, mayEditProject(actor.membership.permissions, row));

  async function loadTask(dbOrTx: Db, actor: Actor, id: string) {
    const task = await repo.findTask(dbOrTx, actor.membership.workspace.id, id);
    // A task is visible exactly when its project is.
    if (!task || !(await repo.find(dbOrTx, viewerOf(actor), task.project_id))) throw notFound('Task not found.');
    return task;
  }

  async function assertClient(tx: Db, workspaceId: string, clientId: string | null | undefined) {
    if (clientId && !(await repo.clientExists(tx, workspaceId, clientId))) {
      throw validationError({ clientId: 'Client not found.' });
    }
  }

  async function detail(tx: Db, actor: Actor, id: string): Promise<ProjectDetail> {
    const row = await loadProject(tx, actor, id);
    const people = await repo.members(tx, actor.membership.workspace.id, id, null);
    return { ...present(actor, row), people };
  }

  async function taskDetail(tx: Db, actor: Actor, id: string): Promise<TaskDetail> {
    const task = await loadTask(tx, actor, id);
    const people = await repo.members(tx, actor.membership.workspace.id, task.project_id, id);
    return { ...presentTask(task), people };
  }

  async function replacePeople(
    tx: Db,
    actor: Actor,
    projectId: string,
    taskId: string | null,
    body: MembersBody & Pick<ProjectPeopleBody, 'managerUserIds' | 'managerGroupIds'>,
  ) {
    const workspaceId = actor.membership.workspace.id;
    const assignable = await repo.assignable(tx, workspaceId);
    const roles = new Map(assignable.users.map((u) => [u.id, u.role]));
    const groupIds = new Set(assignable.groups.map((g) => g.id));
    if (body.userIds.some((id) => !roles.has(id))) throw validationError({ userIds: 'Unknown member.' });
    if (body.groupIds.some((id) => !groupIds.has(id))) throw validationError({ groupIds: 'Unknown group.' });
    const managerUserIds = body.managerUserIds ?? [];
    const managerGroupIds = body.managerGroupIds ?? [];
    if (managerUserIds.some((id) => !body.userIds.includes(id))) {
      throw validationError({ managerUserIds: 'Only people assigned to the project can manage it.' });
    }
    if (managerUserIds.some((id) => roles.get(id) === 'guest')) {
      throw validationError({ managerUserIds: 'Guests cannot manage projects.' });
    }
    if (managerGroupIds.some((id) => !body.groupIds.includes(id))) {
      throw validationError({ managerGroupIds: 'Only groups assigned to the project can manage it.' });
    }
    await repo.replaceMembers(tx, {
      workspaceId,
      projectId,
      taskId,
      userIds: body.userIds,
      groupIds: body.groupIds,
      managers: new Set([...managerUserIds, ...managerGroupIds]),
    });
  }

  return {
    /** Visible projects; with a search, each says which of its tasks matched (so the list can open them). */
    async list(actor: Actor, filter: ProjectListFilter): Promise<{ items: ProjectListItem[]; total: number }> {
      assertCan(actor, 'projects:view');
      const { rows, total } = await repo.list(db, viewerOf(actor), filter);
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
        await mapConstraints(PROJECT_CONSTRAINTS, () =>
          repo.update(tx, workspaceId, id, {
            ...(body.name !== undefined ? { name: body.name.trim() } : {}),
            ...(body.clientId !== undefined ? { client_id: body.clientId } : {}),
            ...(body.color !== undefined ? { color: body.color } : {}),
            ...(body.isPublic !== undefined ? { is_public: body.isPublic } : {}),
            ...sectionValues(body),
          }),
        );
        await audit(tx, { action: 'project.updated', actorUserId: actor.userId, workspaceId, subjectId: id });
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
        await timeEntries.deleteOnProject(tx, { workspaceId, actorUserId: actor.userId }, id);
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

    async setPeople(actor: Actor, id: string, body: ProjectPeopleBody) {
      assertCan(actor, 'projects:view');
      return db.transaction().execute(async (tx) => {
        await loadProject(tx, actor, id);
        assertCan(actor, 'projects:manage');
        await replacePeople(tx, actor, id, null, body);
        const workspaceId = actor.membership.workspace.id;
        await audit(tx, { action: 'project.people_updated', actorUserId: actor.userId, workspaceId, subjectId: id });
        return detail(tx, actor, id);
      });
    },

    async assignable(actor: Actor) {
      assertCan(actor, 'projects:manage');
      return repo.assignable(db, actor.membership.workspace.id);
    },

    /**
     * Enable Keyword: the projects (and tasks) whose keywords occur in a time entry's note, as
     * whole words, case-insensitively; tasks first, then projects.
     */
    async suggest(actor: Actor, note: string) {
      assertCan(actor, 'projects:view');
      const words = ` ${note.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
      const hit = (keywords: unknown) =>
        (Array.isArray(keywords) ? (keywords as string[]) : []).find((k) => {
          const needle = k
            .toLowerCase()
            .replace(/[^\p{L}\p{N}]+/gu, ' ')
            .trim();
          return needle !== '' && words.includes(` ${needle} `);
        });
      const { projects, tasks } = await repo.withKeywords(db, viewerOf(actor));
      const names = new Map(projects.map((p) => [p.id, p.name]));
      const items: {
        projectId: string;
        projectName: string;
        taskId: string | null;
        taskName: string | null;
        keyword: string;
      }[] = [];
      for (const t of tasks) {
        const keyword = hit(t.keywords);
        if (keyword) {
          items.push({
            projectId: t.project_id,
            projectName: names.get(t.project_id) ?? '',
            taskId: t.id,
            taskName: t.name,
            keyword,
          });
        }
      }
      for (const p of projects) {
        const keyword = p.keywords_enabled ? hit(p.keywords) : undefined;
        if (keyword) items.push({ projectId: p.id, projectName: p.name, taskId: null, taskName: null, keyword });
      }
      return items;
    },

    /**
     * The time-entry pickers: active projects the actor sees, each with its active tasks, in one
     * answer: the first PICKER_PAGE by name, those matching `search`, or those of `ids`.
     * `complete` says nothing matching was left out.
     */
    async picker(actor: Actor, f: { search?: string; ids?: string[] }) {
      assertCan(actor, 'projects:view');
      const viewer = viewerOf(actor);
      const rows = await repo.pickerList(db, viewer, { ...f, limit: PICKER_PAGE + 1 });
      const shown = rows.slice(0, PICKER_PAGE);
      const tasks = await repo.activeTasksOf(
        db,
        viewer.workspaceId,
        shown.map((r) => r.id),
      );
      const tasksOf = new Map<string, typeof tasks>();
      for (const task of tasks) tasksOf.set(task.project_id, [...(tasksOf.get(task.project_id) ?? []), task]);
      return {
        items: shown.map((row) => {
          const { trackedSeconds: _notRead, taskCount: _notCounted, ...project } = present(actor, row);
          return { ...project, tasks: (tasksOf.get(row.id) ?? []).map(presentTask) };
        }),
        complete: rows.length <= PICKER_PAGE,
      };
    },

    /**
     * The hour and fee budgets of the projects the actor sees (active ones; narrowed to the given
     * projects and clients), and of their tasks, for the Estimates report. Amounts as stored:
     * minutes for hours, cents for fees. A task's `taskIds` are it and every task below it.
     */
    async budgets(actor: Actor, f: { projectIds?: string[]; clientIds?: string[] }): Promise<BudgetLine[]> {
      assertCan(actor, 'projects:view');
      return budgetLines(await repo.budgets(db, viewerOf(actor), f));
    },

    /**
     * The budgets of the given active projects of a workspace and of their tasks, as `budgets`
     * gives them, for work done without a person asking (the budget alerts job).
     */
    async workspaceBudgets(workspaceId: string, projectIds: string[]): Promise<BudgetLine[]> {
      if (!projectIds.length) return [];
      const everything = { workspaceId, userId: '', seesAll: true, seesPublic: true };
      return budgetLines(await repo.budgets(db, everything, { projectIds }));
    },

    // ---- tasks

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
        await mapConstraints(TASK_CONSTRAINTS, () =>
          repo.updateTask(tx, workspaceId, id, {
            ...(body.name !== undefined ? { name: body.name.trim() } : {}),
            ...(moving ? { project_id: projectId, parent_task_id: parentTaskId } : {}),
            ...sectionValues(body),
          }),
        );
        await audit(tx, { action: 'task.updated', actorUserId: actor.userId, workspaceId, subjectId: id });
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
        await timeEntries.detachTasks(tx, { workspaceId, actorUserId: actor.userId }, subtree);
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

    async setTaskPeople(actor: Actor, id: string, body: MembersBody) {
      assertCan(actor, 'projects:view');
      return db.transaction().execute(async (tx) => {
        const task = await loadTask(tx, actor, id);
        assertCan(actor, 'projects:manage');
        await replacePeople(tx, actor, task.project_id, id, body);
        const workspaceId = actor.membership.workspace.id;
        await audit(tx, { action: 'task.people_updated', actorUserId: actor.userId, workspaceId, subjectId: id });
        return taskDetail(tx, actor, id);
      });
    },
  };
}

type ProjectDetail = z.infer<typeof projectDetailView>;
type ProjectListItem = z.infer<typeof projectListItemView>;
type TaskDetail = z.infer<typeof taskDetailView>;
export type ProjectsService = ReturnType<typeof createProjectsService>;

/** A project's budget and its budgeted tasks' as lines, a task's with its subtree. */
function budgetLines({ projects, tasks }: Awaited<ReturnType<typeof repo.budgets>>): BudgetLine[] {
  const lines: BudgetLine[] = [];
  for (const p of projects) {
    const project = { projectId: p.id, projectName: p.name, projectColor: p.color, clientName: p.client_name };
    if (p.budget_type && p.budget_amount !== null)
      lines.push({
        ...project,
        taskId: null,
        taskName: null,
        taskIds: [],
        type: p.budget_type,
        amount: Number(p.budget_amount),
        resetsMonthly: p.budget_resets_monthly,
        alertPercents: p.budget_alert_percents,
      });
    for (const t of tasks.filter((t) => t.project_id === p.id))
      lines.push({
        ...project,
        taskId: t.id,
        taskName: t.parent_name ? `${t.parent_name} / ${t.name}` : t.name,
        taskIds: t.subtree ?? [t.id],
        type: t.budget_type,
        amount: Number(t.budget_amount),
        resetsMonthly: t.budget_resets_monthly,
        alertPercents: t.budget_alert_percents,
      });
  }
  return lines;
}

/** One budget of a project or task (see ProjectsService.budgets). */
export interface BudgetLine {
  projectId: string;
  projectName: string;
  projectColor: string;
  clientName: string | null;
  taskId: string | null;
  taskName: string | null;
  /** The task and every task below it (their time counts against its budget); [] for a project. */
  taskIds: string[];
  type: 'hours' | 'fee';
  /** Minutes (hours budgets) or cents (fee budgets). */
  amount: number;
  resetsMonthly: boolean;
  /** Its alert thresholds (whole percentages): the lowest below 100 is where it shows "Near budget". */
  alertPercents: number[];
}
