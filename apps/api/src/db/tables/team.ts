import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../tables.js';

export interface GroupsTable {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface GroupMembersTable {
  workspace_id: string;
  group_id: string;
  user_id: string;
  created_at: Generated<Date>;
}

/** Tables of the team feature (groups; members and invites join them). */
export interface TeamTables {
  groups: GroupsTable;
  group_members: GroupMembersTable;
}

export type Group = Selectable<GroupsTable>;
