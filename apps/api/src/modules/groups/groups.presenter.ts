import type { GroupView } from '@sundial/core';
import type { Group } from '../../db/tables/team.js';

export { type GroupView, groupView } from '@sundial/core';

export function presentGroup(group: Group, memberIds: string[] = []): GroupView {
  return {
    id: group.id,
    parentId: group.parent_id,
    name: group.name,
    memberIds,
    createdAt: new Date(group.created_at).toISOString(),
  };
}
