import { ASSIGNABLE_ROLES, MEMBER_STATUSES, ROLE_LABELS, ROLES } from '@sundial/core';
import { z } from 'zod';
import type { MemberProject, MemberRow } from './members.repository.js';

export const memberView = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  roleLabel: z.string(),
  status: z.enum(MEMBER_STATUSES),
  externalId: z.string().nullable(),
  groupIds: z.array(z.uuid()),
  projects: z.array(z.object({ id: z.uuid(), name: z.string() })),
  joinedAt: z.string(),
});
export type MemberView = z.infer<typeof memberView>;

export const seatsView = z.object({
  /** Active non-guest members. */
  used: z.number().int(),
  /** Licenses of a paid plan; null when the plan has no seat limit (Free, trial). */
  limit: z.number().int().nullable(),
  /** Seats held by pending invites, on top of `used`. */
  pendingInvites: z.number().int(),
});

export const teamSettingsView = z.object({
  hideDisabledUsers: z.boolean(),
  seats: seatsView,
  assignableRoles: z.array(z.enum(ASSIGNABLE_ROLES)),
});

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
