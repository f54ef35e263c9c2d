import type { Role } from '@sundial/core';
import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../tables.js';

export interface GroupsTable {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  name: string;
  /** A custom role (Pro) every member of the group holds on top of their own (a union). */
  custom_role_id: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GroupMembersTable {
  workspace_id: string;
  group_id: string;
  user_id: string;
  created_at: Generated<Date>;
}

export interface InvitesTable {
  id: string;
  workspace_id: string;
  email: string;
  role: Exclude<Role, 'owner'>;
  group_id: string | null;
  token_hash: string;
  invited_by_user_id: string | null;
  accepted_user_id: Generated<string | null>;
  created_at: Timestamp;
  sent_at: Timestamp;
  send_count: Generated<number>;
  expires_at: Date;
  accepted_at: Generated<Date | null>;
  revoked_at: Generated<Date | null>;
}

/** Tables of the team feature (groups; members and invites join them). */
export interface TeamTables {
  groups: GroupsTable;
  group_members: GroupMembersTable;
  invites: InvitesTable;
}

export type Group = Selectable<GroupsTable>;
export type Invite = Selectable<InvitesTable>;
