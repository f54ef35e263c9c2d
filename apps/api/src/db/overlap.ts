import { type RawBuilder, sql } from 'kysely';

/**
 * The one rule for which finished entries (never a running one: its end is null) belong to a
 * range that starts at `from` (the caller keeps `e.start_at < to` and reads running entries on
 * its own): those that end after `from`, and an instant entry (end = start) that starts at `from`
 * or later. An instant entry belongs to the day it starts in, everywhere: the timesheet's day
 * list, the reports, the rollups (which file every entry under its start day); `end > from` alone
 * dropped a 0-second entry at local midnight from both days' lists (issue 30). Such an entry
 * started at most the workspace's longest stored entry (time_entry_extents, in exact seconds: a
 * calendar day of interval is 23 or 25 hours across a daylight-saving change) before `from`: a
 * lower bound for the start_at index. Entry aliased `e`.
 */
export function finishedFrom(workspaceId: string, from: Date): RawBuilder<boolean> {
  return sql<boolean>`((e.end_at > ${from} or (e.end_at = e.start_at and e.start_at >= ${from}::timestamptz))
    and e.start_at >= ${from}::timestamptz - make_interval(secs => coalesce((select x.longest_seconds from time_entry_extents x where x.workspace_id = ${workspaceId}), 0)))`;
}
