import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp } from '../tables.js';

type Json<T> = ColumnType<T, string | undefined, string>;

export interface ClientsTable {
  id: string;
  workspace_id: string;
  name: string;
  address: string | null;
  currency: string | null;
  note: string | null;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type BudgetType = 'hours' | 'fee';

export interface ProjectsTable {
  id: string;
  workspace_id: string;
  client_id: string | null;
  owner_user_id: string | null;
  name: string;
  color: Generated<string>;
  is_public: Generated<boolean>;
  description: string | null;
  budget_type: BudgetType | null;
  /** minutes for 'hours', cents for 'fee' */
  budget_amount: ColumnType<string | null, number | null | undefined, number | null>;
  budget_resets_monthly: Generated<boolean>;
  /** Sorted whole percentages at which the budget alerts; [] none (default 80 and 100). */
  budget_alert_percents: Generated<number[]>;
  billable_default: Generated<boolean>;
  keywords_enabled: Generated<boolean>;
  keywords: Json<string[]>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TasksTable {
  id: string;
  workspace_id: string;
  project_id: string;
  parent_task_id: string | null;
  name: string;
  description: string | null;
  budget_type: BudgetType | null;
  budget_amount: ColumnType<string | null, number | null | undefined, number | null>;
  budget_resets_monthly: Generated<boolean>;
  /** Sorted whole percentages at which the budget alerts; [] none (default 80 and 100). */
  budget_alert_percents: Generated<number[]>;
  billable_default: Generated<boolean>;
  keywords_enabled: Generated<boolean>;
  keywords: Json<string[]>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProjectMembersTable {
  id: string;
  workspace_id: string;
  project_id: string;
  task_id: string | null;
  user_id: string | null;
  group_id: string | null;
  /** Project-level grant: this member (or group) may edit the project and its tasks. */
  can_manage: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface TagListsTable {
  id: string;
  workspace_id: string;
  name: string;
  /** Advanced tags: an entry carries at most one tag of this list. */
  exclusive: Generated<boolean>;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Advanced tags: the projects a tag list is restricted to (none: every project). */
export interface TagListProjectsTable {
  workspace_id: string;
  tag_list_id: string;
  project_id: string;
}

/** Advanced tags: a stopped entry of the project carries at least one tag of the list. */
export interface ProjectRequiredTagListsTable {
  workspace_id: string;
  project_id: string;
  tag_list_id: string;
}

export interface TagsTable {
  id: string;
  workspace_id: string;
  tag_list_id: string;
  name: string;
  archived_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Tables of the projects feature: clients, projects, tasks, assignments, tags. */
/** Seconds tracked to each project, kept by triggers on time_entries (never written by the app). */
export interface ProjectTimeTotalsTable {
  project_id: string;
  workspace_id: string;
  /** bigint: read it cast to a number. */
  tracked_seconds: ColumnType<string, never, never>;
}

export interface ProjectsTables {
  clients: ClientsTable;
  projects: ProjectsTable;
  project_time_totals: ProjectTimeTotalsTable;
  tasks: TasksTable;
  project_members: ProjectMembersTable;
  tag_lists: TagListsTable;
  tag_list_projects: TagListProjectsTable;
  project_required_tag_lists: ProjectRequiredTagListsTable;
  tags: TagsTable;
}

export type Client = Selectable<ClientsTable>;
export type Project = Selectable<ProjectsTable>;
export type Task = Selectable<TasksTable>;
export type TagList = Selectable<TagListsTable>;
export type Tag = Selectable<TagsTable>;
