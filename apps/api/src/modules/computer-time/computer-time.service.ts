import type { Db } from '../../db/connection.js';
import type { JobRunner } from '../../platform/jobs.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { createActivity } from './computer-time.activity.js';
import { createAway } from './computer-time.away.js';
import { createCategories } from './computer-time.categories.js';
import { createPairing } from './computer-time.pairing.js';
import { createGroupSettings } from './computer-time.privacy.js';

/**
 * Computer time (issue 35): pairing the desktop agent and its device tokens
 * (computer-time.pairing.ts), and the activity it uploads, the workspace's settings and what
 * people read (computer-time.activity.ts), and the categories it is read by
 * (computer-time.categories.ts), the groups' own privacy settings (computer-time.privacy.ts); away
 * time, turned into entries and breaks through the time-entries service (computer-time.away.ts).
 */
export function createComputerTimeService(deps: {
  db: Db;
  jobs: JobRunner;
  publicUrl: string;
  pairingsPerHour: number;
  timeEntries: TimeEntriesService;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const pairing = createPairing({ db: deps.db, publicUrl: deps.publicUrl, codesPerHour: deps.pairingsPerHour, now });
  const activity = createActivity({ db: deps.db, jobs: deps.jobs, now });
  const categories = createCategories({ db: deps.db, now });
  const away = createAway({ db: deps.db, timeEntries: deps.timeEntries, now });
  return { ...pairing, ...activity, ...categories, ...createGroupSettings({ db: deps.db }), ...away };
}

export type ComputerTimeService = ReturnType<typeof createComputerTimeService>;
