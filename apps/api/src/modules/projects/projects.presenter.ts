import { z } from 'zod';
import type { Task } from '../../db/tables/projects.js';
import type { ProjectRow } from './projects.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export const budgetView = z
  .object({ type: z.enum(['hours', 'fee']), amount: z.number().int(), resetsMonthly: z.boolean() })
  .nullable();

/** canManage: the assignment carries the project-level "Can manage" grant (always false on tasks). */
export const peopleView = z.object({
  users: z.array(z.object({ id: z.uuid(), email: z.string(), name: z.string(), canManage: z.boolean() })),
  groups: z.array(z.object({ id: z.uuid(), name: z.string(), canManage: z.boolean() })),
});
export type PeopleView = z.infer<typeof peopleView>;

const sectionsView = {
  description: z.string().nullable(),
  budget: budgetView,
  billableDefault: z.boolean(),
  keywordsEnabled: z.boolean(),
  keywords: z.array(z.string()),
  archived: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const projectView = z.object({
  id: z.uuid(),
  name: z.string(),
  color: z.string(),
  clientId: z.uuid().nullable(),
  clientName: z.string().nullable(),
  ownerUserId: z.uuid().nullable(),
  ownerEmail: z.string().nullable(),
  /** The owner's name, '' when they have not given one. */
  ownerName: z.string().nullable(),
  isPublic: z.boolean(),
  taskCount: z.number().int(),
  /** Seconds of finished time entries on the project. */
  trackedSeconds: z.number().int(),
  /** The caller may edit this project and its tasks (projects:manage, or a "Can manage" grant). */
  canEdit: z.boolean(),
  ...sectionsView,
});
export type ProjectView = z.infer<typeof projectView>;
export const projectDetailView = projectView.extend({ people: peopleView });
/** In the list: the tasks whose names matched the search (empty without one). */
export const projectListItemView = projectView.extend({ matchingTaskIds: z.array(z.uuid()) });

export const taskView = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  parentTaskId: z.uuid().nullable(),
  name: z.string(),
  ...sectionsView,
});
export const taskDetailView = taskView.extend({ people: peopleView });

export const assignableView = z.object({
  users: z.array(z.object({ id: z.uuid(), email: z.string(), name: z.string(), role: z.string() })),
  groups: z.array(z.object({ id: z.uuid(), name: z.string() })),
});

function sections(row: ProjectRow | Task) {
  return {
    description: row.description,
    budget:
      row.budget_type && row.budget_amount !== null
        ? { type: row.budget_type, amount: Number(row.budget_amount), resetsMonthly: row.budget_resets_monthly }
        : null,
    billableDefault: row.billable_default,
    keywordsEnabled: row.keywords_enabled,
    keywords: Array.isArray(row.keywords) ? row.keywords : [],
    archived: row.archived_at !== null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function presentProject(row: ProjectRow, canEdit: boolean): ProjectView {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    clientId: row.client_id,
    clientName: row.client_name,
    ownerUserId: row.owner_user_id,
    ownerEmail: row.owner_email,
    ownerName: row.owner_name,
    isPublic: row.is_public,
    taskCount: Number(row.task_count ?? 0),
    trackedSeconds: Number(row.tracked_seconds ?? 0),
    canEdit,
    ...sections(row),
  };
}

export function presentTask(row: Task): z.infer<typeof taskView> {
  return {
    id: row.id,
    projectId: row.project_id,
    parentTaskId: row.parent_task_id,
    name: row.name,
    ...sections(row),
  };
}
