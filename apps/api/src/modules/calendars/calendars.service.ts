import type { Db } from '../../db/connection.js';
import type { MembershipWithWorkspace } from '../../platform/actor.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { createCalendarFeed } from './calendars.feed.js';

/**
 * Calendars both ways, put together from its parts: the private feed of one's time (Out) and the
 * calendars one subscribes to, whose events become time (In).
 */
export function createCalendarsService(deps: {
  db: Db;
  timeEntries: TimeEntriesService;
  workspaces: { getMembership(workspaceId: string, userId: string): Promise<MembershipWithWorkspace> };
  publicUrl: string;
  /** Feed reads a minute from one address. */
  feedReadsPerMinute: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return {
    ...createCalendarFeed({
      db: deps.db,
      timeEntries: deps.timeEntries,
      workspaces: deps.workspaces,
      publicUrl: deps.publicUrl,
      readsPerMinute: deps.feedReadsPerMinute,
      now,
    }),
  };
}

export type CalendarsService = ReturnType<typeof createCalendarsService>;
