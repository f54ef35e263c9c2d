import { type Feature, reachedThresholds, workspaceFeatures } from '@sundial/core';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { hearsOfBudget, memberAccess } from '../../platform/access.js';
import type { EventBus } from '../../platform/events.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { BudgetFigure, ReportsService } from '../reports/reports.service.js';
import { budgetAlertMessage } from './budget-alerts.mails.js';
import { budgetAlertsRepository as repo } from './budget-alerts.repository.js';

/** Looks at the budgets of the projects and tasks of entries that changed. */
export const evaluateBudgetsJob = defineJob(
  'budgets.evaluate',
  z.object({ workspaceId: z.uuid(), entryIds: z.array(z.uuid()) }),
);

/**
 * Budget alerts (feature `budgets`): the time-entries service publishes an event per person whose
 * entries changed; in that transaction one job is queued (nothing else is added to the write). The
 * job counts the budgets of the affected projects and tasks as the Estimates report and the dashboard
 * do (`ReportsService.workspaceBudgets`: subtasks, the workspace's rounding, the month in its report
 * time zone), and records each (budget, period, threshold) reached, of the budget's own thresholds, once (unique key), which notifies those who hear of the
 * project's budget (access.ts `hearsOfBudget`: its "Can manage" holders, owners and admins, by permissions in force) in the app and by e-mail, in the same transaction.
 */
export function createBudgetAlertsService(deps: {
  db: Db;
  events: EventBus;
  jobs: JobRunner;
  notifications: NotificationsService;
  reports: Pick<ReportsService, 'workspaceBudgets'>;
  billing: { billing: boolean };
  publicUrl: string;
}) {
  const { db, jobs, notifications } = deps;

  /** Who hears of the project's budget now, as access.ts decides it with each member's permissions in force. */
  async function recipients(tx: Db, workspaceId: string, projectId: string, features: readonly Feature[]) {
    return (await repo.audience(tx, workspaceId, projectId))
      .filter((m) => hearsOfBudget(memberAccess(workspaceId, m, features), { granted: m.granted }))
      .map((m) => ({ id: m.user_id, email: m.email }));
  }

  async function alert(
    workspace: { id: string; name: string; features: readonly Feature[] },
    figure: BudgetFigure,
  ): Promise<number> {
    const { id: workspaceId, name: workspaceName } = workspace;
    const { line: b, budget, used } = figure;
    const period = figure.month ?? 'total';
    let sent = 0;
    // Each threshold has its own key: adding or removing one never re-sends one already recorded.
    for (const threshold of reachedThresholds(used, budget, b.alertPercents)) {
      await db.transaction().execute(async (tx) => {
        const key = { workspaceId, projectId: b.projectId, taskId: b.taskId, period, threshold, used, budget };
        if (!(await repo.record(tx, key))) return;
        const link = `${deps.publicUrl}/homepage/projects`;
        const what = b.taskName ? `Task "${b.taskName}" of "${b.projectName}"` : `Project "${b.projectName}"`;
        const words = budgetAlertMessage({
          workspaceName,
          what,
          threshold,
          type: b.type,
          used,
          budget,
          period,
          link,
        });
        await notifications.deliver(tx, {
          workspaceId,
          kind: 'budget_alert',
          to: await recipients(tx, workspaceId, b.projectId, workspace.features),
          title: words.title,
          body: words.body,
          link: '/homepage/projects',
          mail: words.mail,
        });
        sent++;
      });
    }
    return sent;
  }

  /** Evaluates the budgets the entries are on (a task's parents' too); answers how many alerts went out. */
  async function evaluate(workspaceId: string, entryIds: string[], now: Date): Promise<number> {
    const workspace = await repo.workspace(db, workspaceId);
    const features = workspace ? workspaceFeatures(workspace, now, deps.billing) : [];
    if (!workspace || !features.includes('budgets')) return 0;
    const { projectIds, taskIds } = await repo.placesOf(db, workspaceId, entryIds);
    const touched = new Set(taskIds);
    let sent = 0;
    for (const figure of await deps.reports.workspaceBudgets(workspaceId, projectIds, now)) {
      // A budget of a project these entries are on, or of a task they are on or below; a monthly
      // one in its current month (the dashboard's).
      if (figure.line.taskId !== null && !figure.line.taskIds.some((id) => touched.has(id))) continue;
      sent += await alert({ id: workspaceId, name: workspace.name, features }, figure);
    }
    return sent;
  }

  return {
    evaluate,
    /** Wires the job and the event subscriber (once, from createServices). */
    register() {
      jobs.register(evaluateBudgetsJob, ({ workspaceId, entryIds }, { now }) =>
        evaluate(workspaceId, entryIds, now).then(() => undefined),
      );
      deps.events.onPublish(async (tx, event) => {
        // A deleted entry only lowers what a budget has used: nothing to cross.
        if (event.name === 'time_entry.deleted') return;
        await jobs.enqueue(tx, evaluateBudgetsJob, {
          workspaceId: event.workspaceId,
          entryIds: event.payload.entryIds,
        });
      });
    },
  };
}

export type BudgetAlertsService = ReturnType<typeof createBudgetAlertsService>;
