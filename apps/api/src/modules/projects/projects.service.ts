import type { Db } from '../../db/connection.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { createBudgets } from './projects.budgets.js';
import { createProjectsCrud } from './projects.crud.js';
import { createProjectPeople } from './projects.people.js';
import { createProjectPickers } from './projects.pickers.js';
import { projectsRepository as repo } from './projects.repository.js';
import { createTasks } from './projects.tasks.js';

export type { BudgetLine } from './projects.budgets.js';

/** The project members table's operations for other modules, inside the caller's transaction. */
export const projectMemberRecords = {
  /** Takes the user off every project and task of the workspace (a member removed). */
  removeFromAll: (db: Db, workspaceId: string, userId: string): Promise<void> =>
    repo.removeUserFromAll(db, workspaceId, userId),
};

/** The projects and tasks tables' operations for other modules, inside the caller's transaction. */
export const projectRecords = {
  /** The projects and tasks an import creates (ids chosen by its plan; parents before sub-tasks). */
  insertImported: (
    tx: Db,
    by: { workspaceId: string; ownerUserId: string },
    projects: Parameters<typeof repo.insertImported>[2],
    tasks: Parameters<typeof repo.insertImported>[3],
  ): Promise<void> => repo.insertImported(tx, by, projects, tasks),
  /** The task assignments an import creates (the same rows as a task's People, one user each). */
  assignImported: (
    tx: Db,
    workspaceId: string,
    rows: Parameters<typeof repo.insertImportedAssignments>[2],
  ): Promise<void> => repo.insertImportedAssignments(tx, workspaceId, rows),
};

/**
 * The projects service, put together from its parts: projects themselves, their tasks, the people
 * and groups assigned to (and managing) them, the time-entry form's pickers and keyword
 * suggestions, and the budgets the Estimates report and the budget alerts read.
 */
export function createProjectsService(db: Db, timeEntries: TimeEntriesService) {
  return {
    ...createProjectsCrud(db, timeEntries),
    ...createTasks(db, timeEntries),
    ...createProjectPeople(db),
    ...createProjectPickers(db),
    ...createBudgets(db),
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
