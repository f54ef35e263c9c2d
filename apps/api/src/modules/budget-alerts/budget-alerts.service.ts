import { budgetPeriod, reachedThresholds, workspaceHasFeature } from '@sundial/core';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import type { EventBus } from '../../platform/events.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { budgetAlertMessage } from './budget-alerts.mails.js';
import { type BudgetRow, budgetAlertsRepository as repo } from './budget-alerts.repository.js';

/** Looks at the budgets of the projects and tasks of entries that changed. */
export const evaluateBudgetsJob = defineJob(
  'budgets.evaluate',
  z.object({ workspaceId: z.uuid(), entryIds: z.array(z.uuid()) }),
);

const monthBounds = (period: string): [Date, Date] => {
  const start = new Date(`${period}-01T00:00:00Z`);
  return [start, new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1))];
};

/**
 * Budget alerts (feature `budgets`): the time-entries service publishes an event per person whose
 * entries changed; in that transaction one job is queued (nothing else is added to the write). The
 * job reads the budgets of the affected projects and tasks, and records each (budget, period,
 * threshold) reached, of the budget's own thresholds, once (unique key), which notifies the project's managers and the workspace's
 * owners and admins in the app and by e-mail, in the same transaction.
 */
export function createBudgetAlertsService(deps: {
  db: Db;
  events: EventBus;
  jobs: JobRunner;
  notifications: NotificationsService;
  billing: { billing: boolean };
  publicUrl: string;
}) {
  const { db, jobs, notifications } = deps;

  async function alert(workspaceId: string, workspaceName: string, b: BudgetRow, now: Date): Promise<number> {
    if (b.budget_alert_percents.length === 0) return 0;
    const period = budgetPeriod(b.budget_resets_monthly, now);
    const [from, to] = period === 'total' ? [undefined, undefined] : monthBounds(period);
    const used = await repo.used(db, workspaceId, b, from, to);
    const budget = b.budget_type === 'hours' ? b.budget_amount * 60 : b.budget_amount;
    let sent = 0;
    // Each threshold has its own key: adding or removing one never re-sends one already recorded.
    for (const threshold of reachedThresholds(used, budget, b.budget_alert_percents)) {
      await db.transaction().execute(async (tx) => {
        const key = { workspaceId, projectId: b.project_id, taskId: b.task_id, period, threshold, used, budget };
        if (!(await repo.record(tx, key))) return;
        const link = `${deps.publicUrl}/homepage/projects`;
        const what = b.task_name ? `Task "${b.task_name}" of "${b.project_name}"` : `Project "${b.project_name}"`;
        const words = budgetAlertMessage({
          workspaceName,
          what,
          threshold,
          type: b.budget_type,
          used,
          budget,
          period,
          link,
        });
        await notifications.deliver(tx, {
          workspaceId,
          kind: 'budget_alert',
          to: await repo.recipients(tx, workspaceId, b.project_id),
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

  /** Evaluates the budgets the entries are on; answers how many alerts went out. */
  async function evaluate(workspaceId: string, entryIds: string[], now: Date): Promise<number> {
    const workspace = await repo.workspace(db, workspaceId);
    if (!workspace || !workspaceHasFeature(workspace, 'budgets', now, deps.billing)) return 0;
    let sent = 0;
    for (const b of await repo.budgetsOf(db, workspaceId, entryIds))
      sent += await alert(workspaceId, workspace.name, b, now);
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
