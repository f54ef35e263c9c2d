import { z } from 'zod';
import type { Group } from '../../db/tables/team.js';

export const groupView = z.object({
  id: z.uuid(),
  parentId: z.uuid().nullable(),
  name: z.string(),
  memberIds: z.array(z.uuid()),
  createdAt: z.string(),
});
export type GroupView = z.infer<typeof groupView>;

export function presentGroup(group: Group, memberIds: string[] = []): GroupView {
  return {
    id: group.id,
    parentId: group.parent_id,
    name: group.name,
    memberIds,
    createdAt: new Date(group.created_at).toISOString(),
  };
}
