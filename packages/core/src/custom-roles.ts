import { z } from 'zod';
import type { Feature } from './entitlements.js';
import { can, PERMISSIONS, type Permission, type Role } from './permissions.js';
import { text } from './schemas/text.js';

/**
 * Custom roles (Pro): a named set of permissions from the matrix, built from a built-in role as
 * template (its `baseRole`). A member's effective permissions come from `effectivePermissions`
 * alone: the built-in role's permissions, or the custom role's stored set instead, plus (a union)
 * the sets of the custom roles of the groups they belong to. Without `custom_roles` on the plan,
 * a custom role falls back to its base role and group roles count for nothing (the data is kept).
 */

/** Built-in roles a custom role may start from (and falls back to); the owner's powers are not lent. */
export const CUSTOM_ROLE_BASES = ['admin', 'manager', 'member', 'guest'] as const;
export type CustomRoleBase = (typeof CUSTOM_ROLE_BASES)[number];

/**
 * No custom role may hold these: the account owner's own, and writing roles (a custom role could
 * otherwise grant itself more).
 */
export const NOT_IN_CUSTOM_ROLES: readonly Permission[] = [
  'workspace:delete',
  'members:transfer_ownership',
  'roles:manage',
  'scim:manage',
  // A webhook sends every record of the workspace, which only owners and admins see whole (issue 34).
  'webhooks:manage',
  // Shortening the audit log's retention removes history: the account owner's alone.
  'audit:settings',
  // A workspace key acts as an admin at most, which a custom role is not.
  'api_keys:manage',
];

/** The areas of the matrix, in the order the roles page shows them, with each area's label. */
export const PERMISSION_AREAS = [
  ['workspace', 'Workspace'],
  ['billing', 'Billing'],
  ['members', 'Members'],
  ['groups', 'Groups'],
  ['roles', 'Roles'],
  ['scim', 'Provisioning'],
  ['projects', 'Projects'],
  ['clients', 'Clients'],
  ['tags', 'Tags'],
  ['time', 'Time'],
  ['rates', 'Rates'],
  ['saved_reports', 'Saved reports'],
  ['approvals', 'Approvals'],
  ['invoices', 'Invoices'],
  ['audit', 'Audit log'],
  ['webhooks', 'Webhooks'],
  ['api_keys', 'API keys'],
  ['computer_time', 'Computer time'],
  ['attendance', 'Attendance'],
] as const;

export const PERMISSION_LABELS: Record<Permission, string> = {
  'workspace:view': 'See the workspace',
  'workspace:update': 'Change workspace settings',
  'workspace:delete': 'Delete the workspace',
  'billing:manage': 'Manage billing and plans',
  'members:view': 'See members',
  'members:manage': 'Change members (role, status, removal)',
  'members:invite': 'Invite people',
  'members:transfer_ownership': 'Transfer ownership',
  'groups:view': 'See groups',
  'groups:manage': 'Manage every group',
  'groups:manage_own': 'Manage the membership of own groups',
  'roles:manage': 'Define and assign custom roles',
  'scim:manage': 'Manage the SCIM provisioning token',
  'projects:view': 'See assigned projects',
  'projects:view_all': 'See every project',
  'projects:view_public': 'See public projects',
  'projects:manage': 'Create and edit projects',
  'projects:edit_granted': 'Edit projects granted "Can manage"',
  'clients:view': 'See clients',
  'clients:manage': 'Manage clients',
  'tags:view': 'See tags',
  'tags:manage': 'Manage tags',
  'time:track': 'Track own time',
  'time:view_others': "See others' time",
  'time:edit_others': "Edit others' time",
  'time:settings': 'Change time settings',
  'rates:manage': 'Manage rates and currency',
  'saved_reports:manage_shared': 'Delete reports others shared',
  'saved_reports:share_costs': 'Show costs on public report links',
  'saved_reports:schedule': 'E-mail reports on a schedule',
  'approvals:submit': 'Submit own timesheets for approval',
  'approvals:review': 'Approve or reject timesheets',
  'approvals:settings': 'Change approval settings and the lock date',
  'invoices:manage': 'Create, issue and send client invoices',
  'audit:view': 'Read the audit log',
  'audit:settings': 'Choose how long the audit log keeps records',
  'webhooks:manage': 'Manage webhooks and their signing secrets',
  'api_keys:manage': 'Make and revoke the workspace’s API keys',
  'computer_time:settings': 'Change computer time settings (what is kept, retention, who sees activity)',
  'attendance:settings': 'Change attendance settings (holidays, working-time rules) and people’s contracts',
};

/** The permissions grouped by area, for the checkbox matrix. */
export function permissionsByArea(): { area: string; label: string; permissions: Permission[] }[] {
  return PERMISSION_AREAS.map(([area, label]) => ({
    area,
    label,
    permissions: PERMISSIONS.filter((p) => p.split(':')[0] === area),
  }));
}

/** What a built-in role may do: the template a new custom role starts from. */
export const permissionsOfRole = (role: Role): Permission[] => PERMISSIONS.filter((p) => can(role, p));

/** Each permission needs these too (changing something needs seeing it). */
function requirementsOf(permission: Permission): Permission[] {
  const [area, verb] = permission.split(':') as [string, string];
  const needs: Permission[] = ['workspace:view'];
  const view = `${area}:view` as Permission;
  if (verb !== 'view' && PERMISSIONS.includes(view)) needs.push(view);
  if (permission === 'time:edit_others') needs.push('time:view_others');
  return needs.filter((p) => p !== permission);
}

export const customRoleMessages = {
  nameRequired: 'Role name is required.',
  nameTaken: 'A role with this name already exists.',
  ownerOnly: (p: Permission) => `"${PERMISSION_LABELS[p]}" cannot be part of a custom role.`,
  requires: (p: Permission, needed: Permission) =>
    `"${PERMISSION_LABELS[p]}" needs "${PERMISSION_LABELS[needed]}" as well.`,
  notForOwner: 'The account owner keeps every permission: a custom role cannot be given to them.',
  inUseBase: 'The base role must be Administrator, Manager, Regular user or Guest.',
} as const;

/** Problems with a permission set a custom role would hold; empty when it is valid. */
export function customRoleProblems(permissions: readonly Permission[]): string[] {
  const set = new Set(permissions);
  const problems: string[] = [];
  for (const p of set) {
    if (NOT_IN_CUSTOM_ROLES.includes(p)) problems.push(customRoleMessages.ownerOnly(p));
    for (const needed of requirementsOf(p)) {
      if (needed !== 'workspace:view' && !set.has(needed)) problems.push(customRoleMessages.requires(p, needed));
    }
  }
  return problems;
}

/** A valid set, in matrix order, always with `workspace:view` (every member sees their workspace). */
export const normalizePermissions = (permissions: readonly Permission[]): Permission[] =>
  PERMISSIONS.filter((p) => p === 'workspace:view' || permissions.includes(p));

const roleSets = new Map<Role, ReadonlySet<Permission>>();
/** A built-in role's permissions as a set, made once per role: every request's access is resolved from one. */
const roleSet = (role: Role): ReadonlySet<Permission> => {
  let set = roleSets.get(role);
  if (!set) {
    set = new Set(permissionsOfRole(role));
    roleSets.set(role, set);
  }
  return set;
};

/**
 * The one function every access check goes through. `role`: the built-in role in force;
 * `own`: the permission set of the member's custom role (replaces the role's); `groups`: the sets
 * of the custom roles of their groups (added, a union). Without `custom_roles` both are ignored.
 */
export function effectivePermissions(o: {
  role: Role;
  own?: readonly string[] | null;
  groups?: readonly (readonly string[])[];
  features: readonly Feature[];
}): ReadonlySet<Permission> {
  // What a stored set may grant: known permissions, never those no custom role holds.
  const granted = (list: readonly string[]) =>
    list.filter((p): p is Permission => PERMISSIONS.includes(p as never) && !NOT_IN_CUSTOM_ROLES.includes(p as never));
  if (o.role === 'owner' || !o.features.includes('custom_roles')) return roleSet(o.role);
  const set = new Set<Permission>(o.own ? ['workspace:view', ...granted(o.own)] : permissionsOfRole(o.role));
  for (const extra of o.groups ?? []) for (const p of granted(extra)) set.add(p);
  return set;
}

const permissionSchema = z.enum(PERMISSIONS as [Permission, ...Permission[]], { error: 'Unknown permission.' });

export const customRoleBody = z
  .object({
    name: text({
      min: 1,
      max: 60,
      required: customRoleMessages.nameRequired,
      tooLong: 'Role name must be at most 60 characters.',
    }),
    baseRole: z.enum(CUSTOM_ROLE_BASES, { error: customRoleMessages.inUseBase }),
    permissions: z.array(permissionSchema).max(PERMISSIONS.length * 2),
  })
  .superRefine((body, ctx) => {
    for (const message of customRoleProblems(body.permissions)) {
      ctx.addIssue({ code: 'custom', message, path: ['permissions'] });
    }
  })
  .transform((body) => ({ ...body, permissions: normalizePermissions(body.permissions) }));
export type CustomRoleBody = z.input<typeof customRoleBody>;

/** Assigning a custom role to a member or group; null takes it away. */
export const customRoleAssignmentBody = z.object({ customRoleId: z.uuid({ error: 'Role not found.' }).nullable() });

export const customRoleView = z.object({
  id: z.uuid(),
  name: z.string(),
  baseRole: z.enum(CUSTOM_ROLE_BASES),
  permissions: z.array(permissionSchema),
  /** Members holding it themselves. */
  memberIds: z.array(z.uuid()),
  /** Groups carrying it for their members. */
  groupIds: z.array(z.uuid()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomRoleView = z.infer<typeof customRoleView>;
