import type { ProjectView, TaskView } from '@sundial/core';
import type { Task } from '../../db/tables/projects.js';
import type { ProjectRow } from './projects.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();

export {
  assignableView,
  budgetView,
  type PeopleView,
  peopleView,
  projectDetailView,
  projectListItemView,
  projectView,
  taskDetailView,
  taskView,
} from '@sundial/core';

function sections(row: ProjectRow | Task) {
  return {
    description: row.description,
    budget:
      row.budget_type && row.budget_amount !== null
        ? {
            type: row.budget_type,
            amount: Number(row.budget_amount),
            resetsMonthly: row.budget_resets_monthly,
            alertPercents: row.budget_alert_percents,
          }
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
    budgetReached: row.budget_reached === null ? null : Number(row.budget_reached),
    canEdit,
    ...sections(row),
  };
}

export function presentTask(row: Task): TaskView {
  return {
    id: row.id,
    projectId: row.project_id,
    parentTaskId: row.parent_task_id,
    name: row.name,
    ...sections(row),
  };
}
