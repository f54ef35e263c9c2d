import { z } from 'zod';
import { BUDGET_TYPES } from './projects.js';

/**
 * What the API answers about projects, tasks, clients and tags. The API presents these and
 * declares them as response schemas; the web infers its types from them (no hand-written copy).
 */
export const budgetView = z
  .object({
    type: z.enum(BUDGET_TYPES),
    amount: z.number().int(),
    resetsMonthly: z.boolean(),
    /** Sorted whole percentages; [] sends no alerts. */
    alertPercents: z.array(z.number().int()),
  })
  .nullable();
export type BudgetView = z.infer<typeof budgetView>;

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
  /**
   * The highest budget alert threshold (of those it has or had) the project's budget reached in its current period
   * (this UTC month for a monthly budget), as the budget alerts recorded it; null when none.
   */
  budgetReached: z.number().int().nullable(),
  /** The caller may edit this project and its tasks (projects:manage, or a "Can manage" grant). */
  canEdit: z.boolean(),
  ...sectionsView,
});
export type ProjectView = z.infer<typeof projectView>;
export const projectDetailView = projectView.extend({ people: peopleView });
export type ProjectDetailView = z.infer<typeof projectDetailView>;
/** In the list: the tasks whose names matched the search (empty without one). */
export const projectListItemView = projectView.extend({ matchingTaskIds: z.array(z.uuid()) });
export type ProjectListItemView = z.infer<typeof projectListItemView>;

export const taskView = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  parentTaskId: z.uuid().nullable(),
  name: z.string(),
  ...sectionsView,
});
export type TaskView = z.infer<typeof taskView>;
export const taskDetailView = taskView.extend({ people: peopleView });
export type TaskDetailView = z.infer<typeof taskDetailView>;

/**
 * The time-entry pickers' answer: active projects the caller sees, with their active tasks (no
 * counts or totals: the pickers do not show them). `complete`: these are all the projects that match; when
 * false, the pickers search on the server for the rest.
 */
export const pickerProjectView = projectView
  .omit({ trackedSeconds: true, taskCount: true, budgetReached: true })
  .extend({ tasks: z.array(taskView) });
export type PickerProjectView = z.infer<typeof pickerProjectView>;
export const projectPickerView = z.object({ items: z.array(pickerProjectView), complete: z.boolean() });
export type ProjectPickerView = z.infer<typeof projectPickerView>;

export const assignableView = z.object({
  users: z.array(z.object({ id: z.uuid(), email: z.string(), name: z.string(), role: z.string() })),
  groups: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type AssignableView = z.infer<typeof assignableView>;

/** Enable Keyword: a project (or task) whose keyword occurs in a time entry's note. */
export const projectSuggestionView = z.object({
  projectId: z.uuid(),
  projectName: z.string(),
  taskId: z.uuid().nullable(),
  taskName: z.string().nullable(),
  keyword: z.string(),
});
export type ProjectSuggestionView = z.infer<typeof projectSuggestionView>;

export const clientView = z.object({
  id: z.uuid(),
  name: z.string(),
  address: z.string().nullable(),
  currency: z.string().nullable(),
  note: z.string().nullable(),
  archived: z.boolean(),
  projectCount: z.number().int(),
  createdAt: z.string(),
});
export type ClientView = z.infer<typeof clientView>;

export const tagView = z.object({ id: z.uuid(), tagListId: z.uuid(), name: z.string(), archived: z.boolean() });
export type TagView = z.infer<typeof tagView>;
/** entryCount: time entries carrying the tag (what deleting it touches); null for those who may not manage tags. */
export const tagDetailView = tagView.extend({ entryCount: z.number().int().nullable() });
export type TagDetailView = z.infer<typeof tagDetailView>;
export const tagListView = z.object({
  id: z.uuid(),
  name: z.string(),
  archived: z.boolean(),
  tags: z.array(tagView),
  /** Advanced tags: see schemas/tag-rules.ts. */
  exclusive: z.boolean(),
  projectIds: z.array(z.uuid()),
  requiredProjectIds: z.array(z.uuid()),
});
export type TagListView = z.infer<typeof tagListView>;
export const tagSettingsView = z.object({ tagsRequired: z.boolean() });
export type TagSettingsView = z.infer<typeof tagSettingsView>;
