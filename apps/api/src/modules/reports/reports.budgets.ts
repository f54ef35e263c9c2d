import {
  budgetNearPercent,
  budgetPercent,
  budgetStatus,
  dayBounds,
  dayKey,
  type EstimatesReportQuery,
  type EstimatesReportView,
  type EstimateView,
  estimateTotals,
  MAX_REPORT_DAYS,
  NO_ROUNDING,
  resolvePreset,
  shiftDay,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertFeature } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import type { BudgetLine, ProjectsService } from '../projects/projects.service.js';
import { reportsRepository as repo } from './reports.repository.js';
import type { ReportScope } from './reports.scope.js';
import { compileReport, type EngineFilter, type LevelRow } from './reports.time-source.js';

/** One budget in one period, as `budgetFigures` counts it (seconds for hours, cents for fees). */
export interface BudgetFigure {
  line: BudgetLine;
  /** The month ('2026-11') of a monthly budget, null for one over the project's life. */
  month: string | null;
  budget: number;
  used: number;
}

/** Budgets against what the engine counts: the Estimates report, the dashboard's and the alerts' figures. */
export function createBudgets(
  db: Db,
  { resolve, moneyCovered, rangeOf, rollupsPay }: ReportScope,
  projects: Pick<ProjectsService, 'budgets' | 'workspaceBudgets'>,
  options: { rollups: boolean },
) {
  /**
   * The one budget computation (the Estimates report, the dashboard, the budget alerts): each
   * budget against what the engine counts for it in `f` (hours: tracked seconds, rounded as the
   * filter rounds; fees: billable cents), ONE statement grouped by project, task and month. A
   * budget over the project's life counts everything up to the range's last day; a monthly-reset
   * budget has one figure per month of the range (in the filter's zone), each counting its month.
   * A task's budget counts its subtasks. `budget` is in seconds for hours, cents for fees.
   */
  async function budgetFigures(f: EngineFilter, lines: BudgetLine[]): Promise<BudgetFigure[]> {
    if (!lines.length) return [];
    const months = monthsOf(f.fromDay, f.toDay);
    // Everything up to the range's end: ten years back, or the first month's start if earlier.
    const monthStart = `${months[0]}-01`;
    const tenYears = shiftDay(f.toDay, -(MAX_REPORT_DAYS - 1));
    const fromDay = monthStart < tenYears ? monthStart : tenYears;
    const life: EngineFilter = {
      ...f,
      fromDay,
      fromAt: new Date(dayBounds(fromDay, f.timeZone).startMs),
      projects: [...new Set(lines.map((l) => l.projectId))],
      withoutProject: false,
    };
    const rows = await repo.run(
      db,
      compileReport(life, {
        sets: [['project'], ['project', 'task'], ['project', 'month'], ['project', 'task', 'month']],
        dimensions: ['project', 'task', 'month'],
        countEntries: false,
      }),
    );
    const figure = (row: LevelRow, type: BudgetLine['type']) =>
      type === 'hours' ? Number(row.tracked) : Number(row.billable_cents);
    const usedOf = (line: BudgetLine, month: string | null) => {
      const level = (line.taskId ? 1 : 0) + (month ? 2 : 0);
      return rows
        .filter(
          (r) =>
            r.level === level &&
            r.k1 === line.projectId &&
            (!line.taskId || (r.k2 !== null && line.taskIds.includes(r.k2))) &&
            (!month || r.k3 === month),
        )
        .reduce((sum, r) => sum + figure(r, line.type), 0);
    };
    return lines.flatMap((line) =>
      (line.resetsMonthly ? months : [null]).map((month) => ({
        line,
        month,
        budget: line.type === 'hours' ? line.amount * 60 : line.amount,
        used: usedOf(line, month),
      })),
    );
  }

  return {
    /**
     * Estimates: each hour and fee budget of the projects and tasks the actor sees against what
     * the engine counts for it (`budgetFigures`), with the report's filters and scope. Fee budgets
     * need the billable amounts of everyone in the report, else their figures are left out
     * (moneyHidden). The totals add each kind's budgets once (`estimateTotals`).
     */
    async estimates(actor: Actor, q: EstimatesReportQuery, now = new Date()): Promise<EstimatesReportView> {
      assertFeature(actor, 'budgets');
      const f = await resolve(actor, q, now);
      const lines = await projects.budgets(actor, { projectIds: q.projects, clientIds: q.clients });
      const hasFee = lines.some((l) => l.type === 'fee');
      const seesFees = hasFee ? (await moneyCovered(actor, f)).billable : true;
      const figures = await budgetFigures(f, lines);
      const items: EstimateView[] = figures.map(({ line, month, budget, used }) => {
        const base = {
          projectId: line.projectId,
          projectName: line.projectName,
          projectColor: line.projectColor,
          clientName: line.clientName,
          taskId: line.taskId,
          taskName: line.taskName,
          type: line.type,
          resetsMonthly: line.resetsMonthly,
          month,
        };
        if (line.type === 'fee' && !seesFees)
          return { ...base, budget: null, used: null, remaining: null, percent: null, status: 'hidden' };
        return {
          ...base,
          budget,
          used,
          remaining: budget - used,
          percent: budgetPercent(used, budget),
          status: budgetStatus(used, budget, budgetNearPercent(line.alertPercents)),
        };
      });
      return {
        range: rangeOf(f),
        items,
        totals: estimateTotals(figures, seesFees),
        moneyHidden: hasFee && !seesFees,
      };
    },

    /**
     * The workspace's budgets of these projects as its owners' dashboard shows them (the Estimates
     * report of this month in the report time zone, everyone's time, the stored rounding): each with
     * its period ('total', or the month of a monthly budget). The budget alerts count with it.
     */
    async workspaceBudgets(workspaceId: string, projectIds: string[], now = new Date()): Promise<BudgetFigure[]> {
      const lines = await projects.workspaceBudgets(workspaceId, projectIds);
      if (!lines.length) return [];
      const stored = await repo.reportSettings(db, workspaceId);
      const timeZone = stored?.timeZone ?? 'UTC';
      const { from, to } = resolvePreset('thisMonth', dayKey(now, timeZone), 'monday');
      const f: EngineFilter = {
        workspaceId,
        fromAt: new Date(dayBounds(from, timeZone).startMs),
        toAt: new Date(dayBounds(to, timeZone).endMs),
        fromDay: from,
        toDay: to,
        timeZone,
        weekStart: 'monday',
        rounding: stored?.rounding ?? NO_ROUNDING,
        now,
        scope: null,
        tagMode: 'any',
        rollups: options.rollups && stored?.rollupsReady !== false && (await rollupsPay(workspaceId, from, to)),
        allPeople: true,
      };
      return budgetFigures(f, lines);
    },
  };
}

/** The months ("2026-11") from the month of `from` to the month of `to`. */
function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    months.push(key);
    if (key >= last) return months;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
}
