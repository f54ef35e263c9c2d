import type { RateSettings, RateView } from '@sundial/core';
import { DEFAULT_RATE_SETTINGS } from '@sundial/core';
import type { RateRow, RateSettingsRow } from '../../db/tables/rates.js';

/** A rate; without its cost rate for a reader who may not see costs (`costs: false`). */
export function presentRate(row: RateRow, costs = true): RateView {
  return {
    id: row.id,
    level: row.level,
    userId: row.user_id,
    projectId: row.project_id,
    taskId: row.task_id,
    effectiveFrom: row.effective_from,
    billableCents: row.billable_cents,
    ...(costs ? { costCents: row.cost_cents } : {}),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export function presentRateSettings(row: RateSettingsRow | undefined): RateSettings {
  if (!row) return DEFAULT_RATE_SETTINGS;
  return {
    currency: row.currency,
    managersSeeCosts: row.managers_see_costs,
    membersSeeOwnBillable: row.members_see_own_billable,
  };
}
