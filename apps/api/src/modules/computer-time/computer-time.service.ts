import type { Db } from '../../db/connection.js';
import type { JobRunner } from '../../platform/jobs.js';
import { createActivity } from './computer-time.activity.js';
import { createPairing } from './computer-time.pairing.js';

/**
 * Computer time (issue 35): pairing the desktop agent and its device tokens
 * (computer-time.pairing.ts), and the activity it uploads, the workspace's settings and what
 * people read (computer-time.activity.ts).
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
  return { ...pairing, ...activity };
}

export type ComputerTimeService = ReturnType<typeof createComputerTimeService>;
