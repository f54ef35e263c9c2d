import type { Db } from '../../db/connection.js';
import type { JobRunner } from '../../platform/jobs.js';
import { createActivity } from './computer-time.activity.js';
import { createCategories } from './computer-time.categories.js';
import { createPairing } from './computer-time.pairing.js';
import { createGroupSettings } from './computer-time.privacy.js';

/**
 * Computer time (issue 35): pairing the desktop agent and its device tokens
 * (computer-time.pairing.ts), and the activity it uploads, the workspace's settings and what
 * people read (computer-time.activity.ts), and the categories it is read by
 * (computer-time.categories.ts), and the groups' own privacy settings (computer-time.privacy.ts).
 */
export function createComputerTimeService(deps: {
  db: Db;
  jobs: JobRunner;
  publicUrl: string;
  pairingsPerHour: number;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const pairing = createPairing({ db: deps.db, publicUrl: deps.publicUrl, codesPerHour: deps.pairingsPerHour, now });
  const activity = createActivity({ db: deps.db, jobs: deps.jobs, now });
  const categories = createCategories({ db: deps.db, now });
  return { ...pairing, ...activity, ...categories, ...createGroupSettings({ db: deps.db }) };
}

export type ComputerTimeService = ReturnType<typeof createComputerTimeService>;
