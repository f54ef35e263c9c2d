import { describe, expect, it } from 'vitest';
import {
  customRoleBody,
  customRoleProblems,
  effectivePermissions,
  permissionsByArea,
  permissionsOfRole,
} from './custom-roles.js';
import { PERMISSIONS } from './permissions.js';

const PRO = ['custom_roles', 'management_roles'] as const;

describe('effectivePermissions', () => {
  it('is the built-in role’s permissions without a custom role', () => {
    expect([...effectivePermissions({ role: 'member', features: PRO })]).toEqual(permissionsOfRole('member'));
  });

  it('replaces them with the custom role’s set, and adds the groups’ roles (a union)', () => {
    const own = ['time:track', 'time:view_others'];
    const set = effectivePermissions({ role: 'member', own, groups: [['tags:view', 'tags:manage']], features: PRO });
    expect([...set].sort()).toEqual(['tags:manage', 'tags:view', 'time:track', 'time:view_others', 'workspace:view']);
    // Groups add to the built-in role too.
    const added = effectivePermissions({ role: 'guest', groups: [['clients:view']], features: PRO });
    expect(added.has('clients:view')).toBe(true);
    expect(added.has('time:track')).toBe(true);
  });

  it('drops custom and group roles when the plan lacks custom roles', () => {
    const set = effectivePermissions({
      role: 'member',
      own: ['time:view_others'],
      groups: [['tags:manage']],
      features: [],
    });
    expect([...set]).toEqual(permissionsOfRole('member'));
  });

  it('never grants through a stored set what no custom role may hold, nor unknown names', () => {
    const set = effectivePermissions({
      role: 'admin',
      own: ['workspace:delete', 'roles:manage', 'bogus:perm'],
      groups: [['members:transfer_ownership']],
      features: PRO,
    });
    expect([...set]).toEqual(['workspace:view']);
    // The owner is untouched by custom roles.
    expect(effectivePermissions({ role: 'owner', own: [], features: PRO }).size).toBe(PERMISSIONS.length);
  });
});

describe('custom role validation', () => {
  it('needs seeing what one changes', () => {
    expect(customRoleProblems(['projects:manage'])).toEqual([
      '"Create and edit projects" needs "See assigned projects" as well.',
    ]);
    expect(customRoleProblems(['projects:view', 'projects:manage'])).toEqual([]);
  });

  it('normalises to matrix order with workspace:view', () => {
    const parsed = customRoleBody.parse({
      name: ' Lead ',
      baseRole: 'manager',
      permissions: ['tags:view', 'time:track'],
    });
    expect(parsed).toEqual({
      name: 'Lead',
      baseRole: 'manager',
      permissions: ['workspace:view', 'tags:view', 'time:track'],
    });
  });

  it('groups every permission under one area', () => {
    expect(
      permissionsByArea()
        .flatMap((a) => a.permissions)
        .sort(),
    ).toEqual([...PERMISSIONS].sort());
  });
});
