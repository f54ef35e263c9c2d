import { type TimeEntryView, type TimeSettings, workSeconds } from '@sundial/core';
import type { TimeSettingsRow } from '../../db/tables/time-entries.js';
import type { EntryWithRelations } from './time-entries.repository.js';

const iso = (d: Date) => d.toISOString();

export function presentEntry(e: EntryWithRelations, now = new Date()): TimeEntryView {
  const breaks = e.breaks.map((b) => ({ start: iso(b.start_at), end: b.end_at ? iso(b.end_at) : null }));
  const isRunning = e.end_at === null;
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
    durationSeconds:
      e.duration_seconds ??
      workSeconds(
        {
          id: e.id,
          start: e.start_at,
          end: e.end_at,
          breaks: e.breaks.map((b) => ({ start: b.start_at, end: b.end_at })),
        },
        now,
      ),
    createdAt: iso(e.created_at),
    updatedAt: iso(e.updated_at),
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
  };
}
