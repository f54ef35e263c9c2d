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
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof MATRIX;
export const PERMISSIONS = Object.keys(MATRIX) as Permission[];

export function can(role: Role, permission: Permission): boolean {
  return (MATRIX[permission] as readonly Role[]).includes(role);
}
