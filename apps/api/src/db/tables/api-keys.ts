import type { ApiKeyScopes } from '@sundial/core';
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A person's API key, by its sha-256 only (migration 202612080100). */
export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  /** The token's first characters, shown to tell keys apart. */
  prefix: string;
  scopes: ColumnType<ApiKeyScopes, string, string>;
  created_at: Timestamp;
  expires_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  /** When the "expires in 7 days" e-mail went out. */
  reminded_at: Date | null;
  revoked_at: Date | null;
}

export interface ApiKeysTables {
  api_keys: ApiKeysTable;
}
