import { type RawBuilder, sql } from 'kysely';

/**
 * The columns the authentication query (and every membership lookup) adds for custom roles, on a
 * membership aliased `m`: the member's custom role and the permission sets of their groups'
 * roles, as subqueries of the same statement (a request still costs one query to authenticate).
 */
export const customRoleColumns = {
  ownRole: sql<{ id: string; name: string; permissions: string[] } | null>`(
    select json_build_object('id', cr.id, 'name', cr.name, 'permissions', cr.permissions)
    from custom_roles cr where cr.id = m.custom_role_id)`,
  groupPermissions: sql<string[][] | null>`(
    select json_agg(gcr.permissions) from group_members gm
    join groups g on g.id = gm.group_id
    join custom_roles gcr on gcr.id = g.custom_role_id
    where gm.user_id = m.user_id and gm.workspace_id = m.workspace_id)`,
} satisfies Record<string, RawBuilder<unknown>>;

/** JSON that came back as text (a driver that does not parse json) or parsed. */
const parsed = <T>(value: T | string | null): T | null => (typeof value === 'string' ? JSON.parse(value) : value);

/** The StoredMembership fields of `customRoleColumns`' values. */
export function customRoleFields(ownRole: unknown, groupPermissions: unknown) {
  return {
    customRole: parsed(ownRole as { id: string; name: string; permissions: string[] } | null),
    groupRolePermissions: parsed(groupPermissions as string[][] | null) ?? [],
  };
}
