import type { AssignableRole } from '@sundial/core';
import { INVITE_VALID_DAYS, ROLE_LABELS } from '@sundial/core';

/** Every text of the Users screen, in one place for translation. */
export const texts = {
  guestBanner:
    'Invite guests free of charge: clients and contractors see only the projects you share with them and do not use a license.',
  inviteGuest: 'Invite guest',
  invitePeople: '+Invite people',
  createGroup: 'Create group',
  seats: (used: number, limit: number | null) => `${used}/${limit ?? 'unlimited'} users`,
  changeSeats: 'Change number of seats',
  invitedSeats: (n: number) => `+${n} invited`,
  search: 'Search users, e-mails and external ids',
  groupsUsers: 'Groups/users',
  expandAll: 'EXPAND ALL',
  collapseAll: 'COLLAPSE ALL',
  externalId: 'EXTERNAL ID',
  involvedIn: 'INVOLVED IN',
  role: 'ROLE',
  people: (n: number) => `People (${n} ${n === 1 ? 'user' : 'users'})`,
  accountOwner: 'Account owner',
  disabled: 'Disabled',
  bulkEdit: 'Bulk edit',
  save: 'Save',
  cancel: 'Cancel',
  hideDisabled: 'Hide disabled users from lists in reports',
  projects: (n: number) => `${n} ${n === 1 ? 'project' : 'projects'}`,
  pendingInvites: (n: number) => `Pending invitations (${n})`,
  copyLink: 'Copy link',
  copyLinkLabel: (email: string) => `Copy invitation link for ${email}`,
  linkCopied: (email: string) =>
    `Invitation link for ${email} copied: send it to them yourself. The link e-mailed before no longer works.`,
  linkDialogTitle: 'Invitation link',
  linkDialogHelp: (email: string) =>
    `Send this link to ${email} yourself. It is valid for ${INVITE_VALID_DAYS} days and replaces the link e-mailed before, which no longer works.`,
  linkField: (email: string) => `Invitation link for ${email}`,
  close: 'Close',
  noGroups: 'No groups yet. Groups gather people, and projects can be assigned to a whole group.',
  guestsCannotSee: 'Guests see only the projects shared with them, not the people of the workspace.',
  seatLimitLink: 'Change number of seats',
  shown: (loaded: number, total: number) => `Showing ${loaded} of ${total} people`,
  showMore: 'Show more people',
  notLoaded: (n: number) => `${n} more ${n === 1 ? 'person' : 'people'} in this group not loaded yet`,
};

/** A Manager of a workspace whose plan has no management roles (Free) acts as a Member. */
export const managerOnFree = 'Manager (acts as member on Free)';

/** A role's label as it works now: `managersLocked` when the plan has no management roles. */
export const roleLabel = (role: AssignableRole | 'owner', managersLocked: boolean) =>
  role === 'manager' && managersLocked ? managerOnFree : ROLE_LABELS[role];

/**
 * The roles to choose from. Without management roles on the plan the Manager choice is shown,
 * disabled, with what it does there (a person who is one keeps the role).
 */
export const roleOptions = (roles: readonly AssignableRole[], managersLocked = false) =>
  roles.map((value) => ({
    value,
    label: roleLabel(value, managersLocked),
    disabled: value === 'manager' && managersLocked,
  }));
