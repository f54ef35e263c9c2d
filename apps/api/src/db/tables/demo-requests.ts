import type { TeamSize } from '@sundial/core';
import type { Timestamp } from '../tables.js';

export interface DemoRequestsTable {
  id: string;
  name: string;
  email: string;
  company: string;
  team_size: TeamSize;
  message: string;
  ip: string;
  user_agent: string | null;
  created_at: Timestamp;
}

/** Tables of the public site's demo requests. */
export interface DemoRequestsTables {
  demo_requests: DemoRequestsTable;
}
