import { amountCents, type TimeEntryView, type TimeLockView, type TimeSettings, workSeconds } from '@sundial/core';
import type { TimeSettingsRow } from '../../db/tables/time-entries.js';
import { type MoneyAccess, seesMoneyOf } from '../../platform/access.js';
import { isoString } from '../../platform/iso-dates.js';
import type { EntryWithRelations } from './time-entries.repository.js';

const iso = isoString;

/** Sees no rate or amount (the default: a caller shows money only after asking moneyAccessOf). */
export const NO_MONEY: MoneyAccess = { billableOf: new Set(), costOf: new Set() };

/** `locks`: the entries' locks for the viewer (`locksFor`); without them, a write's answer, null. */
export function presentEntry(
  e: EntryWithRelations,
  now = new Date(),
  money: MoneyAccess = NO_MONEY,
  locks?: ReadonlyMap<string, TimeLockView>,
): TimeEntryView {
  const breaks = e.breaks.map((b) => ({ start: iso(b.start_at), end: b.end_at ? iso(b.end_at) : null }));
  const isRunning = e.end_at === null;
  const durationSeconds =
    e.duration_seconds ??
    workSeconds(
      {
        id: e.id,
        start: e.start_at,
        end: e.end_at,
        breaks: e.breaks.map((b) => ({ start: b.start_at, end: b.end_at })),
      },
      now,
    );
  return {
    id: e.id,
    workspaceId: e.workspace_id,
    userId: e.user_id,
    projectId: e.project_id,
    taskId: e.task_id,
    tagIds: e.tag_ids,
    note: e.note,
    billable: e.billable,
    start: iso(e.start_at),
    end: e.end_at ? iso(e.end_at) : null,
    isRunning,
    isPaused: isRunning && breaks.some((b) => b.end === null),
    breaks,
    durationSeconds,
    createdAt: iso(e.created_at),
    updatedAt: iso(e.updated_at),
    ...moneyOf(e, durationSeconds, money),
    lock: locks?.get(e.id) ?? null,
  };
}

function moneyOf(
  e: Pick<EntryWithRelations, 'user_id' | 'billable' | 'billable_rate_cents' | 'cost_rate_cents'>,
  seconds: number,
  money: MoneyAccess,
) {
  const billableRate = seesMoneyOf(money.billableOf, e.user_id) ? e.billable_rate_cents : null;
  const costRate = seesMoneyOf(money.costOf, e.user_id) ? e.cost_rate_cents : null;
  return {
    billableRateCents: billableRate,
    billableAmountCents: billableRate === null ? null : e.billable ? amountCents(billableRate, seconds) : 0,
    costRateCents: costRate,
    costAmountCents: costRate === null ? null : amountCents(costRate, seconds),
  };
}

export function presentSettings(row: TimeSettingsRow): TimeSettings {
  return {
    requireProject: row.require_project,
    requireTask: row.require_task,
    requireTag: row.require_tag,
    requireNote: row.require_note,
    roundingMode: row.rounding_mode,
    roundingMinutes: row.rounding_minutes,
    maxEntryMinutes: row.max_entry_minutes,
    futureLimitMinutes: row.future_limit_minutes,
    reportTimeZone: row.report_time_zone,
  };
}
