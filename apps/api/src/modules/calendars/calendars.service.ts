import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.js';
import type { MembershipWithWorkspace } from '../../platform/actor.js';
import type { JobRunner } from '../../platform/jobs.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { createCalendarFeed } from './calendars.feed.js';
import { createCalendarSubscriptions } from './calendars.subscriptions.js';

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
  secrets: SecretBox;
  jobs: JobRunner;
  /** OUTBOUND_ALLOW_PRIVATE_TARGETS: subscribed calendars may be on the operator's own network. */
  allowPrivateTargets: boolean;
  now?: () => Date;
  log?: FastifyBaseLogger;
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
    ...createCalendarSubscriptions({
      db: deps.db,
      timeEntries: deps.timeEntries,
      secrets: deps.secrets,
      jobs: deps.jobs,
      allowPrivateTargets: deps.allowPrivateTargets,
      now,
      ...(deps.log ? { log: deps.log } : {}),
    }),
  };
}

export type CalendarsService = ReturnType<typeof createCalendarsService>;
