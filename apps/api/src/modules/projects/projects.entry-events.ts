import type { TimeEntryEvent } from '@sundial/core';
import type { Db } from '../../db/connection.js';
import type { TimeEntryHub } from '../time-entries/time-entries.events.js';

/** A time entry touched by a write of projects, tasks, tags or imports. */
export interface TouchedEntry {
  id: string;
  user_id: string;
}

/**
 * Tells open timesheets that time entries changed because a project or task was deleted, a tag
 * was merged or deleted, or a file was imported. Call it inside the writing transaction, with
 * its `tx`: the hub NOTIFYs there, and the database delivers a NOTIFY only when that transaction
 * commits (never for one rolled back), so listeners always read the committed state.
 */
export async function announceEntries(
  hub: TimeEntryHub,
  tx: Db,
  type: TimeEntryEvent['type'],
  workspaceId: string,
  entries: TouchedEntry[],
): Promise<void> {
  const byUser = new Map<string, string[]>();
  for (const e of entries) byUser.set(e.user_id, [...(byUser.get(e.user_id) ?? []), e.id]);
  for (const [userId, entryIds] of byUser) await hub.publish(tx, { type, workspaceId, userId, entryIds });
}
