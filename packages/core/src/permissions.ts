/** Roles of a workspace member, from most to least powerful. */
export const ROLES = ['owner', 'admin', 'manager', 'member', 'guest'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Account owner',
  admin: 'Administrator',
  manager: 'Manager',
  member: 'Regular user',
  guest: 'Guest',
};

/**
 * The permission matrix. Later features add their permissions here; services check them
 * with `can` (or the API's `assertCan`), and the web only hides what the API forbids.
 */
const MATRIX = {
  'workspace:view': ['owner', 'admin', 'manager', 'member', 'guest'],
  'workspace:update': ['owner', 'admin'],
  'workspace:delete': ['owner'],
  'billing:manage': ['owner', 'admin'],
  'members:view': ['owner', 'admin', 'manager', 'member'],
  'members:manage': ['owner', 'admin'],
  'members:invite': ['owner', 'admin'],
  'members:transfer_ownership': ['owner'],
  'groups:view': ['owner', 'admin', 'manager', 'member'],
  'groups:manage': ['owner', 'admin'],
  /** Managers: the membership of the groups they belong to, and of the groups below those. */
  'groups:manage_own': ['owner', 'admin', 'manager'],
  /** Defining custom roles and giving them to members and groups (never held through a custom role). */
  'roles:manage': ['owner', 'admin'],
  /** The workspace's SCIM token for an identity provider (never held through a custom role). */
  'scim:manage': ['owner', 'admin'],
  'projects:view': ['owner', 'admin', 'manager', 'member', 'guest'],
  'projects:view_all': ['owner', 'admin', 'manager'],
  /** Public projects, beside the assigned ones; guests see only what is shared with them. */
  'projects:view_public': ['owner', 'admin', 'manager', 'member'],
  'projects:manage': ['owner', 'admin', 'manager'],
  /** Editing one project (and its tasks) when an assignment to it carries the "Can manage" grant. */
  'projects:edit_granted': ['owner', 'admin', 'manager', 'member'],
  'clients:view': ['owner', 'admin', 'manager', 'member'],
  'clients:manage': ['owner', 'admin', 'manager'],
  'tags:view': ['owner', 'admin', 'manager', 'member', 'guest'],
  'tags:manage': ['owner', 'admin', 'manager'],
  'time:track': ['owner', 'admin', 'manager', 'member', 'guest'],
  'time:view_others': ['owner', 'admin', 'manager'],
  'time:edit_others': ['owner', 'admin', 'manager'],
  'time:settings': ['owner', 'admin'],
  /** Rates (billable and cost), the workspace's currency and money visibility, re-applying rates. */
  'rates:manage': ['owner', 'admin'],
  /** Client invoices: making them from tracked time, issuing, sending, voiding; their numbering and payment details. */
  'invoices:manage': ['owner', 'admin'],
  /** Deleting a saved report someone else shared with the workspace, and revoking its public links. */
  'saved_reports:manage_shared': ['owner', 'admin'],
  /** Showing costs and margins on a public report link. */
  'saved_reports:share_costs': ['owner', 'admin'],
  /** E-mailing one's own saved report on a schedule (guests see too little of the workspace to pick recipients). */
  'saved_reports:schedule': ['owner', 'admin', 'manager', 'member'],
  /** Submitting one's own timesheet period for approval, and withdrawing it before a decision. */
  'approvals:submit': ['owner', 'admin', 'manager', 'member', 'guest'],
  /** Approving and rejecting periods: admins everyone's, managers their groups' people (as the workspace says). */
  'approvals:review': ['owner', 'admin', 'manager'],
  /** The approval period, who approves, and the workspace lock date. */
  'approvals:settings': ['owner', 'admin'],
  /** Reading the workspace's audit log and checking its hash chain. */
  'audit:view': ['owner', 'admin'],
  /** How long the audit log keeps its records: shortening it removes history, so the owner alone. */
  'audit:settings': ['owner'],
  /** Subscribing URLs to the workspace's events (webhooks), revealing and rotating their signing secrets. */
  'webhooks:manage': ['owner', 'admin'],
  /** The workspace's own API keys (for integrations), each acting with a role no higher than its maker's. */
  'api_keys:manage': ['owner', 'admin'],
  /** Computer time (issue 35): what the agent keeps, away time, retention, whether managers see activity. */
  'computer_time:settings': ['owner', 'admin'],
  /** Attendance (issue 37): holidays' place, working-time rules, people's contracts. */
  'attendance:settings': ['owner', 'admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof MATRIX;
export const PERMISSIONS = Object.keys(MATRIX) as Permission[];

export function can(role: Role, permission: Permission): boolean {
  return (MATRIX[permission] as readonly Role[]).includes(role);
}
