import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Each project and task budget carries its own alert thresholds (whole percentages, sorted, as
 * packages/core's budgetSchema validates them); existing budgets keep the alerts they had, 80 % and
 * 100 %. An empty list means the budget sends no alerts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table projects add column budget_alert_percents int[] not null default '{80,100}';
    alter table tasks add column budget_alert_percents int[] not null default '{80,100}';
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table tasks drop column budget_alert_percents;
    alter table projects drop column budget_alert_percents;
    `,
  );
}
