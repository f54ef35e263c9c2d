import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../tables.js';

export interface CustomRolesTable {
  id: string;
  workspace_id: string;
  name: string;
  base_role: 'admin' | 'manager' | 'member' | 'guest';
  /** Permission names (packages/core's matrix), a JSON array; written as JSON text. */
  permissions: ColumnType<string[], string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScimTokensTable {
  id: string;
  workspace_id: string;
  /** sha-256 of the token; the token itself is shown once and never stored. */
  token_hash: string;
  created_by_user_id: string | null;
  created_at: Timestamp;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/**
 * A person SCIM named whose address already had an account: invited (`invite_id`), not made a
 * member. The row's id is their SCIM id, before and after they accept.
 */
export interface ScimPendingUsersTable {
  id: string;
  workspace_id: string;
  invite_id: string;
  email: string;
  name: Generated<string>;
  external_id: string | null;
  active: Generated<boolean>;
  created_at: Timestamp;
}

/** Tables of custom roles and SCIM provisioning (issue 18). */
export interface CustomRolesTables {
  custom_roles: CustomRolesTable;
  scim_tokens: ScimTokensTable;
  scim_pending_users: ScimPendingUsersTable;
}
