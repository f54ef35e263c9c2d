import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { projectsRepository as repo } from './projects.repository.js';
import { viewerOf } from './projects.shared.js';

/** The hour and fee budgets of projects and their tasks, for the Estimates report and the budget alerts. */
export function createBudgets(db: Db) {
  return {
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
  };
}

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
