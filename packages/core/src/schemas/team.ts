import { z } from 'zod';
import { emailSchema } from './auth.js';
import { text } from './text.js';

/** Roles an invite or a role change may give; the owner role only moves by transfer. */
export const ASSIGNABLE_ROLES = ['admin', 'manager', 'member', 'guest'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];
export const MEMBER_STATUSES = ['active', 'disabled'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Invites sent at once, at most. */
export const MAX_INVITES_PER_REQUEST = 50;
/** How long an invite link works, from the last time it was sent. */
export const INVITE_VALID_DAYS = 7;

export const teamMessages = {
  emailsRequired: 'Enter at least one e-mail address.',
  tooManyEmails: `Invite at most ${MAX_INVITES_PER_REQUEST} people at once.`,
  alreadyMember: (email: string) => `${email} is already a member of this workspace.`,
  /** `free`: licenses not yet taken before the change; `needed`: the seats the change would take. */
  seatLimit: ({ licenses, free, needed }: { licenses: number; free: number; needed: number }) =>
    free > 0
      ? `Only ${free} of the ${licenses} licenses of your plan ${free === 1 ? 'is' : 'are'} free, and this needs ${needed}. Invite ${free === 1 ? '1 person' : `${free} people`} at most, change the number of seats in billing (/homepage/billing), or invite the others as guests.`
      : `${licenses === 1 ? 'The 1 license' : `All ${licenses} licenses`} of your plan ${licenses === 1 ? 'is' : 'are'} in use. Change the number of seats in billing (/homepage/billing) to add people, or invite them as guests.`,
  inviteInvalid: 'This invitation link is not valid. Ask for a new invitation.',
  inviteUsed: 'This invitation has already been accepted. Log in to continue.',
  inviteRevoked: 'This invitation was withdrawn. Ask for a new invitation.',
  inviteExpired: 'This invitation has expired. Ask for a new invitation.',
  inviteOtherAccount: (email: string) =>
    `This invitation is for ${email}. Log out and open the link again to accept it.`,
  ownerUntouchable: 'The account owner cannot be changed here. Transfer the ownership first.',
  notYourself: 'You cannot change your own role or status.',
  transferTarget: 'The new owner must be an active member who is not a guest.',
  groupNameRequired: 'Group name is required.',
  groupNameTaken: 'A group with this name already exists at this level.',
  groupCycle: 'A group cannot be moved inside itself or one of its subgroups.',
  externalIdTaken: 'Another member already has this external id.',
  nothingToChange: 'Nothing to change: send a role, a status or an external id.',
  tooManyInvites: (perHour: number) =>
    `This workspace has sent ${perHour} invitations in the last hour. Please wait a while before sending more.`,
} as const;

const uuid = z.uuid({ error: 'Not found.' });

export const inviteBody = z.object({
  emails: z
    .array(emailSchema)
    .min(1, teamMessages.emailsRequired)
    .max(MAX_INVITES_PER_REQUEST, teamMessages.tooManyEmails),
  role: z.enum(ASSIGNABLE_ROLES).default('member'),
  groupId: uuid.nullable().optional(),
});
export type InviteBody = z.input<typeof inviteBody>;

export const acceptInviteBody = z.object({
  /** New accounts choose a password; existing accounts confirm theirs unless already signed in. */
  password: text({ trim: false, max: 1024 }).optional(),
  name: text({ max: 100, tooLong: 'Name must be at most 100 characters.' }).optional(),
});
export type AcceptInviteBody = z.input<typeof acceptInviteBody>;

export const externalIdSchema = text({ max: 100, tooLong: 'External id must be at most 100 characters.' })
  .nullable()
  .transform((v) => (v ? v : null));

export const memberUpdateBody = z
  .object({
    role: z.enum(ASSIGNABLE_ROLES),
    status: z.enum(MEMBER_STATUSES),
    externalId: externalIdSchema,
  })
  .partial()
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: teamMessages.nothingToChange,
  });
export type MemberUpdateBody = z.input<typeof memberUpdateBody>;

export const bulkMembersBody = z.object({
  userIds: z.array(uuid).min(1, 'Select at least one user.').max(500),
  role: z.enum(ASSIGNABLE_ROLES).optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
  addToGroupId: uuid.optional(),
  removeFromGroupId: uuid.optional(),
});
export type BulkMembersBody = z.input<typeof bulkMembersBody>;

export const transferOwnershipBody = z.object({ userId: uuid });

export const groupNameSchema = text({
  min: 1,
  max: 100,
  required: teamMessages.groupNameRequired,
  tooLong: 'Group name must be at most 100 characters.',
});

export const createGroupBody = z.object({ name: groupNameSchema, parentId: uuid.nullable().optional() });
export type CreateGroupBody = z.input<typeof createGroupBody>;
export const updateGroupBody = z.object({ name: groupNameSchema, parentId: uuid.nullable() }).partial();
export type UpdateGroupBody = z.input<typeof updateGroupBody>;

export const teamSettingsBody = z.object({ hideDisabledUsers: z.boolean() });

/** Splits what a person typed or pasted into e-mail addresses (commas, semicolons, spaces, lines). */
export function splitEmails(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) {
    const email = part.trim().replace(/^<|>$/g, '').toLowerCase();
    if (email) seen.add(email);
  }
  return [...seen];
}
