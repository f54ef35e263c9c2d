import type { Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A browser that signed in to an account before; its cookie's token is stored hashed. */
export interface KnownDevicesTable {
  token_hash: string;
  user_id: string;
  /** Wrong passwords sent from this browser since its last successful log-in. */
  failures: Generated<number>;
  created_at: Timestamp;
  last_used_at: Timestamp;
  expires_at: Date;
}

/** Tables of the log-in throttling. */
export interface KnownDevicesTables {
  known_devices: KnownDevicesTable;
}
