import type { ApiKeyScopes } from '@sundial/core';
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../tables.js';

/** An API key, by its sha-256 only (migration 202612080100): a person's, or a workspace's made by a person. */
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
  /** A workspace key's workspace, and the role it acts with (both null on a personal key; migration 202612090301). */
  workspace_id: string | null;
  acts_as: 'admin' | 'manager' | 'member' | null;
}

export interface ApiKeysTables {
  api_keys: ApiKeysTable;
}
