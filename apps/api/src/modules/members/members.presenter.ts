import { type MemberView, ROLE_LABELS } from '@sundial/core';
import type { MemberProject, MemberRow } from './members.repository.js';

export { type MemberView, memberView, teamSettingsView } from '@sundial/core';

export function presentMember(
  row: MemberRow,
  groupIds: string[] = [],
  projects: Pick<MemberProject, 'projectId' | 'name'>[] = [],
): MemberView {
  return {
    userId: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    roleLabel: ROLE_LABELS[row.role],
    status: row.status,
    externalId: row.external_id,
    groupIds,
    projects: projects.map((p) => ({ id: p.projectId, name: p.name })),
    joinedAt: new Date(row.created_at).toISOString(),
  };
}
