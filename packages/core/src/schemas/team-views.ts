import { z } from 'zod';
import { ROLES } from '../permissions.js';
import { userView } from './session.js';
import { ASSIGNABLE_ROLES, MEMBER_STATUSES } from './team.js';

/**
 * What the API answers about people, groups and invitations. The API presents these and declares
 * them as response schemas; the web infers its types from them (no hand-written copy).
 */
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
export type TeamSettingsView = z.infer<typeof teamSettingsView>;

export const groupView = z.object({
  id: z.uuid(),
  parentId: z.uuid().nullable(),
  name: z.string(),
  memberIds: z.array(z.uuid()),
  createdAt: z.string(),
});
export type GroupView = z.infer<typeof groupView>;

export const inviteView = z.object({
  id: z.uuid(),
  email: z.string(),
  role: z.enum(ASSIGNABLE_ROLES),
  roleLabel: z.string(),
  groupId: z.uuid().nullable(),
  status: z.enum(['pending', 'expired']),
  sentAt: z.string(),
  sendCount: z.number().int(),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type InviteView = z.infer<typeof inviteView>;

/** What an invitation link is for, shown before it is accepted. */
export const invitePreviewView = z.object({
  email: z.string(),
  workspaceName: z.string(),
  inviter: z.string(),
  role: z.enum(ASSIGNABLE_ROLES),
  roleLabel: z.string(),
  hasAccount: z.boolean(),
  expiresAt: z.string(),
});
export type InvitePreviewView = z.infer<typeof invitePreviewView>;

/** An accepted invitation: who is now signed in, and the workspace they joined. */
export const acceptedInviteView = z.object({ user: userView, workspaceId: z.uuid() });
export type AcceptedInviteView = z.infer<typeof acceptedInviteView>;

/** Someone whose timesheet the caller may open. */
export const timesheetPersonView = z.object({ userId: z.uuid(), name: z.string(), email: z.string() });
export type TimesheetPersonView = z.infer<typeof timesheetPersonView>;
