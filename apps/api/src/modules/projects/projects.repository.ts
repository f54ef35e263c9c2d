import { sql } from 'kysely';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/connection.js';
import type { BudgetType, Project, Task } from '../../db/tables/projects.js';
import {
  assignedTo,
  heldBy,
  type ProjectEb,
  type ProjectViewer,
  reachableProjects,
} from '../../platform/access.repository.js';
import { newId } from '../../platform/ids.js';
import { nameOrCreatedOrder, pageAfter } from '../../platform/keyset.js';

export interface ProjectRow extends Project {
  client_name: string | null;
  owner_email: string | null;
  owner_name: string | null;
  /** null when the query did not count (the pickers). */
  task_count: number | null;
  /** null when the query did not count (the pickers). */
  tracked_seconds: number | null;
  /** The highest budget alert threshold recorded for the budget as it is, in its current period; null: none (or not counted). */
  budget_reached: number | null;
  /** The viewer holds a "Can manage" grant on the project (directly or through a group). */
  granted: boolean;
}

/** Which projects a query shows: platform/access.ts decides, from the role. */
export type Viewer = ProjectViewer;

export interface SectionValues {
  description?: string | null;
  budget_type?: BudgetType | null;
  budget_amount?: number | null;
  budget_resets_monthly?: boolean;
  budget_alert_percents?: number[];
  billable_default?: boolean;
  keywords_enabled?: boolean;
  keywords?: string;
}

/**
 * "Mine": projects the person owns (created), is assigned to, or has tracked time on. A public
 * project is open to every member without an assignment, so tracking on it is how a member joins
 * it; the list is already cut to the projects the viewer reaches.
 */
function ownedAssignedOrTracked(eb: ProjectEb, viewer: Viewer) {
  return eb.or([
    eb('p.owner_user_id', '=', viewer.userId),
    assignedTo(eb, viewer.userId),
    eb.exists(
      eb
        .selectFrom('time_entries as te')
        .select(sql`1`.as('one'))
        .where('te.workspace_id', '=', viewer.workspaceId)
        .where('te.user_id', '=', viewer.userId)
        .whereRef('te.project_id', '=', 'p.id'),
    ),
  ]);
}

const baseProjects = reachableProjects;

/**
 * The list's columns. Counts (active tasks, tracked seconds from project_time_totals, kept by
 * triggers) only when the caller shows them: the pickers do not.
 */
function withDetails(q: ReturnType<typeof baseProjects>, viewer: Viewer, opts: { counts: boolean } = { counts: true }) {
  return q
    .leftJoin('clients as c', (j) => j.onRef('c.id', '=', 'p.client_id').onRef('c.workspace_id', '=', 'p.workspace_id'))
    .leftJoin('users as u', 'u.id', 'p.owner_user_id')
    .selectAll('p')
    .select((eb) => [
      'c.name as client_name',
      'u.email as owner_email',
      'u.name as owner_name',
      opts.counts
        ? eb
            .selectFrom('tasks as t')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('t.project_id', '=', 'p.id')
            .where('t.archived_at', 'is', null)
            .as('task_count')
        : sql<number | null>`null`.as('task_count'),
      opts.counts
        ? eb
            .selectFrom('project_time_totals as tt')
            .select(sql<number>`tt.tracked_seconds::float8`.as('s'))
            .whereRef('tt.project_id', '=', 'p.id')
            .as('tracked_seconds')
        : sql<number | null>`null`.as('tracked_seconds'),
      // What the budget-alerts job recorded for this budget (same amount) in its current period
      // (this month in the report time zone for a monthly budget, as the alerts count it): fee and monthly budgets are not summed on a read.
      opts.counts
        ? eb
            .selectFrom('budget_alerts as ba')
            .select(sql<number>`max(ba.threshold)::int`.as('r'))
            .whereRef('ba.project_id', '=', 'p.id')
            .where('ba.task_id', 'is', null)
            .where(
              sql<boolean>`ba.period = case when p.budget_resets_monthly then to_char(now() at time zone coalesce((select ts.report_time_zone from time_settings ts where ts.workspace_id = p.workspace_id), 'UTC'), 'YYYY-MM') else 'total' end`,
            )
            .where(
              sql<boolean>`ba.budget = case p.budget_type when 'hours' then p.budget_amount * 60 else p.budget_amount end`,
            )
            .as('budget_reached')
        : sql<number | null>`null`.as('budget_reached'),
      assignedTo(eb, viewer.userId, true).as('granted'),
    ]);
}

export interface ProjectListFilter {
  search?: string;
  archived: 'true' | 'false' | 'all';
  clientId?: string;
  mine?: boolean;
  sort: 'name' | 'created';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** Go on after the row this cursor names (keyset paging). */
  cursor?: string;
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** The project's name, or the name of one of its tasks (active ones only when asked), holds `search`. */
function nameOrTaskHolds(eb: ProjectEb, f: { workspaceId: string; search: string; activeTasksOnly: boolean }) {
  const { search, activeTasksOnly } = f;
  const pattern = likePattern(search);
  return eb.or([
    eb('p.name', 'ilike', pattern),
    eb.exists(
      eb
        .selectFrom('tasks as st')
        .select(sql`1`.as('one'))
        // The workspace as a value: the planner may run this once for all projects (a hashed
        // subplan), and then it walks this workspace's tasks (tasks_project_idx), not every tenant's.
        .where('st.workspace_id', '=', f.workspaceId)
        .whereRef('st.project_id', '=', 'p.id')
        .where('st.name', 'ilike', pattern)
        .$if(activeTasksOnly, (t) => t.where('st.archived_at', 'is', null)),
    ),
  ]);
}

export const projectsRepository = {
  /**
   * The projects and tasks an import creates, with the ids its plan chose, in the import's
   * transaction; tasks in plan order, so each chunk's parent tasks exist.
   */
  async insertImported(
    tx: Db,
    by: { workspaceId: string; ownerUserId: string },
    projects: readonly { id: string; name: string; client_id: string | null }[],
    tasks: readonly { id: string; name: string; project_id: string; parent_task_id: string | null }[],
  ): Promise<void> {
    const now = new Date();
    const common = {
      workspace_id: by.workspaceId,
      description: null,
      budget_type: null,
      budget_amount: null,
      created_at: now,
      updated_at: now,
      archived_at: null,
    };
    await inChunks(projects, (c) =>
      tx
        .insertInto('projects')
        .values(c.map((x) => ({ ...x, ...common, owner_user_id: by.ownerUserId })))
        .execute(),
    );
    await inChunks(tasks, (c) =>
      tx
        .insertInto('tasks')
        .values(c.map((x) => ({ ...x, ...common })))
        .execute(),
    );
  },

  async list(
    db: Db,
    viewer: Viewer,
    f: ProjectListFilter,
  ): Promise<{ rows: ProjectRow[]; total: number; nextCursor: string | null }> {
    let q = baseProjects(db, viewer);
    if (f.archived === 'false') q = q.where('p.archived_at', 'is', null);
    if (f.archived === 'true') q = q.where('p.archived_at', 'is not', null);
    if (f.clientId) q = q.where('p.client_id', '=', f.clientId);
    if (f.mine) q = q.where((eb) => ownedAssignedOrTracked(eb, viewer));
    const search = f.search;
    if (search) {
      q = q.where((eb) =>
        nameOrTaskHolds(eb, { workspaceId: viewer.workspaceId, search, activeTasksOnly: f.archived === 'false' }),
      );
    }
    const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const order = nameOrCreatedOrder('p', f.sort, f.order);
    const cursor = f.cursor;
    const rows = await withDetails(cursor ? q.where(order.after(cursor, f.offset)) : q, viewer)
      .select(order.select)
      .orderBy(order.orderBy)
      .limit(f.limit + 1)
      .offset(f.offset)
      .execute();
    const page = pageAfter(rows, f.limit);
    return { rows: page.rows as ProjectRow[], total: total.n, nextCursor: page.nextCursor };
  },

  /**
   * The pickers' projects: active, visible to the viewer, by name; those of `ids` only, or those
   * matching `search`. No totals. Reads up to `limit` rows (ask one more to learn there are more).
   */
  async pickerList(
    db: Db,
    viewer: Viewer,
    f: { search?: string; ids?: string[]; limit: number },
  ): Promise<ProjectRow[]> {
    let q = baseProjects(db, viewer).where('p.archived_at', 'is', null);
    if (f.ids && f.ids.length > 0) q = q.where('p.id', 'in', f.ids);
    const search = f.search;
    if (search)
      q = q.where((eb) => nameOrTaskHolds(eb, { workspaceId: viewer.workspaceId, search, activeTasksOnly: true }));
    const rows = await withDetails(q, viewer, { counts: false })
      .orderBy(sql`lower(p.name)`)
      .orderBy('p.id')
      .limit(f.limit)
      .execute();
    return rows as ProjectRow[];
  },

  /** The tasks of `projectIds` whose names hold `search`: what a search found in each project. */
  async matchingTasks(
    db: Db,
    workspaceId: string,
    projectIds: string[],
    f: { search: string; archived: 'true' | 'false' | 'all' },
  ): Promise<{ id: string; project_id: string }[]> {
    if (projectIds.length === 0) return [];
    return db
      .selectFrom('tasks')
      .select(['id', 'project_id'])
      .where('workspace_id', '=', workspaceId)
      .where('project_id', 'in', projectIds)
      .where('name', 'ilike', likePattern(f.search))
      .$if(f.archived === 'false', (q) => q.where('archived_at', 'is', null))
      .orderBy(sql`lower(name)`)
      .execute();
  },

  async find(db: Db, viewer: Viewer, id: string): Promise<ProjectRow | undefined> {
    const row = await withDetails(baseProjects(db, viewer), viewer).where('p.id', '=', id).executeTakeFirst();
    return row as ProjectRow | undefined;
  },

  async insert(
    db: Db,
    values: SectionValues & {
      id: string;
      workspace_id: string;
      name: string;
      client_id: string | null;
      owner_user_id: string;
      color?: string;
      is_public?: boolean;
    },
  ): Promise<void> {
    await db
      .insertInto('projects')
      .values({ ...values, archived_at: null, created_at: new Date(), updated_at: new Date() })
      .execute();
  },

  async update(
    db: Db,
    workspaceId: string,
    id: string,
    values: SectionValues & {
      name?: string;
      client_id?: string | null;
      color?: string;
      is_public?: boolean;
      archived_at?: Date | null;
    },
  ): Promise<void> {
    await db
      .updateTable('projects')
      .set({ ...values, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /**
   * Deletes the project and, first, the time tracked to it (entries would otherwise only lose their
   * project); returns those entries.
   */
  /** Deletes the project with its tasks and assignments (its time entries are the time-entries service's). */
  async delete(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('projects').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  async clientExists(db: Db, workspaceId: string, clientId: string): Promise<boolean> {
    const row = await db
      .selectFrom('clients')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', clientId)
      .executeTakeFirst();
    return Boolean(row);
  },

  /** Visible, active projects and their tasks that have keywords switched on. */
  async withKeywords(db: Db, viewer: Viewer) {
    const projects = await baseProjects(db, viewer)
      .select(['p.id', 'p.name', 'p.keywords', 'p.keywords_enabled'])
      .where('p.archived_at', 'is', null)
      .execute();
    const ids = projects.map((p) => p.id);
    const tasks =
      ids.length === 0
        ? []
        : await db
            .selectFrom('tasks')
            .select(['id', 'name', 'project_id', 'keywords'])
            .where('workspace_id', '=', viewer.workspaceId)
            .where('project_id', 'in', ids)
            .where('keywords_enabled', '=', true)
            .where('archived_at', 'is', null)
            .execute();
    return { projects, tasks };
  },

  /** The active tasks of the given projects, in one query (the time-entry pickers). */
  async activeTasksOf(db: Db, workspaceId: string, projectIds: string[]): Promise<Task[]> {
    if (projectIds.length === 0) return [];
    return db
      .selectFrom('tasks')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('project_id', 'in', projectIds)
      .where('archived_at', 'is', null)
      .orderBy('name')
      .execute();
  },

  // ---- tasks

  async listTasks(
    db: Db,
    workspaceId: string,
    projectId: string,
    f: { archived: 'true' | 'false' | 'all'; mineUserId?: string },
  ): Promise<Task[]> {
    let q = db
      .selectFrom('tasks as t')
      .selectAll('t')
      .where('t.workspace_id', '=', workspaceId)
      .where('t.project_id', '=', projectId);
    if (f.archived === 'false') q = q.where('t.archived_at', 'is', null);
    if (f.archived === 'true') q = q.where('t.archived_at', 'is not', null);
    const userId = f.mineUserId;
    if (userId) {
      q = q.where((eb) =>
        eb.or([
          // The project's owner has every task of it.
          eb.exists(
            eb
              .selectFrom('projects as op')
              .select(sql`1`.as('one'))
              .whereRef('op.workspace_id', '=', 't.workspace_id')
              .whereRef('op.id', '=', 't.project_id')
              .where('op.owner_user_id', '=', userId),
          ),
          eb.exists(
            eb
              .selectFrom('project_members as pm')
              .select(sql`1`.as('one'))
              .whereRef('pm.project_id', '=', 't.project_id')
              // Assigned to the task itself, or to the whole project.
              .where((w) => w.or([w('pm.task_id', 'is', null), w('pm.task_id', '=', w.ref('t.id'))]))
              .where((w) => heldBy(w, userId)),
          ),
          // Tracked on: how a member takes up a task of a public project (see ownedAssignedOrTracked).
          eb.exists(
            eb
              .selectFrom('time_entries as te')
              .select(sql`1`.as('one'))
              .whereRef('te.workspace_id', '=', 't.workspace_id')
              .where('te.user_id', '=', userId)
              .whereRef('te.task_id', '=', 't.id'),
          ),
        ]),
      );
    }
    return q.orderBy(sql`lower(t.name)`).orderBy('t.id').execute();
  },

  findTask(db: Db, workspaceId: string, id: string): Promise<Task | undefined> {
    return db
      .selectFrom('tasks')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async insertTask(
    db: Db,
    values: SectionValues & {
      id: string;
      workspace_id: string;
      project_id: string;
      parent_task_id: string | null;
      name: string;
    },
  ): Promise<void> {
    await db
      .insertInto('tasks')
      .values({ ...values, archived_at: null, created_at: new Date(), updated_at: new Date() })
      .execute();
  },

  async updateTask(
    db: Db,
    workspaceId: string,
    id: string,
    values: SectionValues & {
      name?: string;
      project_id?: string;
      parent_task_id?: string | null;
      archived_at?: Date | null;
    },
  ): Promise<void> {
    await db
      .updateTable('tasks')
      .set({ ...values, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /** Deletes the task with its sub-tasks; returns the time entries that lose their task (they stay on the project). */
  /** The task and its sub-tasks, at any depth. */
  async taskSubtree(db: Db, workspaceId: string, task: { id: string; project_id: string }): Promise<string[]> {
    const parents = await this.taskParents(db, workspaceId, task.project_id);
    const inSubtree = (id: string | null | undefined): boolean =>
      id === task.id || (id != null && inSubtree(parents.get(id)));
    const subtree = [...parents.keys()].filter(inSubtree);
    return subtree.length > 0 ? subtree : [task.id];
  },

  /** Deletes the task with its sub-tasks (their time entries keep the project, lose the task). */
  async deleteTask(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('tasks').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /**
   * The budgets of the active projects the viewer reaches (narrowed to `projectIds` / `clientIds`
   * when given): each budgeted project, and each budgeted active task with every task below it.
   */
  async budgets(db: Db, viewer: Viewer, f: { projectIds?: string[]; clientIds?: string[] }) {
    const projects = await baseProjects(db, viewer)
      .leftJoin('clients as c', (j) =>
        j.onRef('c.id', '=', 'p.client_id').onRef('c.workspace_id', '=', 'p.workspace_id'),
      )
      .select([
        'p.id',
        'p.name',
        'p.color',
        'c.name as client_name',
        'p.budget_type',
        'p.budget_amount',
        'p.budget_resets_monthly',
        'p.budget_alert_percents',
      ])
      .where('p.archived_at', 'is', null)
      .$if(!!f.projectIds?.length, (q) => q.where('p.id', 'in', f.projectIds ?? []))
      .$if(!!f.clientIds?.length, (q) => q.where('p.client_id', 'in', f.clientIds ?? []))
      .orderBy('p.name')
      .execute();
    const ids = projects.map((p) => p.id);
    if (!ids.length) return { projects, tasks: [] };
    const tasks = await sql<{
      id: string;
      project_id: string;
      name: string;
      parent_name: string | null;
      budget_type: BudgetType;
      budget_amount: string | number;
      budget_resets_monthly: boolean;
      budget_alert_percents: number[];
      subtree: string[];
    }>`with recursive below as (
        select t.id as root, t.id from tasks t
        where t.workspace_id = ${viewer.workspaceId} and t.project_id in (${sql.join(ids)})
          and t.budget_type is not null and t.budget_amount is not null and t.archived_at is null
        union all
        select b.root, c.id from below b
        join tasks c on c.workspace_id = ${viewer.workspaceId} and c.parent_task_id = b.id
      )
      select t.id, t.project_id, t.name, pt.name as parent_name, t.budget_type, t.budget_amount,
        t.budget_resets_monthly, t.budget_alert_percents, (select array_agg(b.id::text) from below b where b.root = t.id) as subtree
      from tasks t
      left join tasks pt on pt.workspace_id = t.workspace_id and pt.id = t.parent_task_id
      where t.workspace_id = ${viewer.workspaceId} and t.id in (select root from below)
      order by t.name`.execute(db);
    return { projects, tasks: tasks.rows };
  },

  /** Parent links of every task of a project, to walk ancestors. */
  async taskParents(db: Db, workspaceId: string, projectId: string): Promise<Map<string, string | null>> {
    const rows = await db
      .selectFrom('tasks')
      .select(['id', 'parent_task_id'])
      .where('workspace_id', '=', workspaceId)
      .where('project_id', '=', projectId)
      .execute();
    return new Map(rows.map((r) => [r.id, r.parent_task_id]));
  },

  // ---- people

  async members(db: Db, workspaceId: string, projectId: string, taskId: string | null) {
    const rows = await db
      .selectFrom('project_members as pm')
      .leftJoin('users as u', 'u.id', 'pm.user_id')
      .leftJoin('groups as g', 'g.id', 'pm.group_id')
      .select(['pm.user_id', 'pm.group_id', 'pm.can_manage', 'u.email', 'u.name as user_name', 'g.name as group_name'])
      .where('pm.workspace_id', '=', workspaceId)
      .where('pm.project_id', '=', projectId)
      .$if(taskId === null, (q) => q.where('pm.task_id', 'is', null))
      .$if(taskId !== null, (q) => q.where('pm.task_id', '=', taskId))
      .orderBy('u.email')
      .orderBy('g.name')
      .execute();
    return {
      users: rows.flatMap((r) =>
        r.user_id ? [{ id: r.user_id, email: r.email ?? '', name: r.user_name ?? '', canManage: r.can_manage }] : [],
      ),
      groups: rows.flatMap((r) =>
        r.group_id ? [{ id: r.group_id, name: r.group_name ?? '', canManage: r.can_manage }] : [],
      ),
    };
  },

  /** Takes a user off every project and task of the workspace (they left it). */
  async removeUserFromAll(db: Db, workspaceId: string, userId: string): Promise<void> {
    await db
      .deleteFrom('project_members')
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  async replaceMembers(
    db: Db,
    input: {
      workspaceId: string;
      projectId: string;
      taskId: string | null;
      userIds: string[];
      groupIds: string[];
      /** Those of userIds / groupIds holding the "Can manage" grant (project-level only). */
      managers?: Set<string>;
    },
  ): Promise<void> {
    await db
      .deleteFrom('project_members')
      .where('workspace_id', '=', input.workspaceId)
      .where('project_id', '=', input.projectId)
      .$if(input.taskId === null, (q) => q.where('task_id', 'is', null))
      .$if(input.taskId !== null, (q) => q.where('task_id', '=', input.taskId))
      .execute();
    const rows = [
      ...[...new Set(input.userIds)].map((userId) => ({
        user_id: userId,
        group_id: null,
        can_manage: input.managers?.has(userId) ?? false,
      })),
      ...[...new Set(input.groupIds)].map((groupId) => ({
        user_id: null,
        group_id: groupId,
        can_manage: input.managers?.has(groupId) ?? false,
      })),
    ];
    if (rows.length === 0) return;
    await db
      .insertInto('project_members')
      .values(
        rows.map((r) => ({
          id: newId(),
          workspace_id: input.workspaceId,
          project_id: input.projectId,
          task_id: input.taskId,
          ...r,
        })),
      )
      .execute();
  },

  /** Task assignments an import creates (none of them exists yet: its plan skipped those). */
  async insertImportedAssignments(
    tx: Db,
    workspaceId: string,
    rows: readonly { project_id: string; task_id: string; user_id: string }[],
  ): Promise<void> {
    await inChunks(rows, (c) =>
      tx
        .insertInto('project_members')
        .values(c.map((r) => ({ ...r, id: newId(), workspace_id: workspaceId, group_id: null })))
        .execute(),
    );
  },

  /** Active members and groups of the workspace, for the People picker. */
  async assignable(db: Db, workspaceId: string) {
    const users = await db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email', 'u.name', 'm.role'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.status', '=', 'active')
      .orderBy('u.email')
      .execute();
    const groups = await db
      .selectFrom('groups')
      .select(['id', 'name'])
      .where('workspace_id', '=', workspaceId)
      .orderBy(sql`lower(name)`)
      .execute();
    return { users, groups };
  },
};
