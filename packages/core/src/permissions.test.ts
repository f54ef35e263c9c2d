import { describe, expect, it } from 'vitest';
import { can, PERMISSIONS, ROLES } from './permissions.js';

describe('permission matrix', () => {
  it('gives the owner every permission', () => {
    for (const permission of PERMISSIONS) expect(can('owner', permission)).toBe(true);
  });

  it('keeps workspace changes to owners and admins, and deletion to the owner', () => {
    expect(ROLES.filter((role) => can(role, 'workspace:update'))).toEqual(['owner', 'admin']);
    expect(ROLES.filter((role) => can(role, 'workspace:delete'))).toEqual(['owner']);
  });

  it('never lets a guest see the member list', () => {
    expect(can('guest', 'members:view')).toBe(false);
    expect(can('member', 'members:view')).toBe(true);
  });

  it('shows guests only what is shared with them, never public projects as such', () => {
    expect(can('guest', 'projects:view_public')).toBe(false);
    expect(can('member', 'projects:view_public')).toBe(true);
  });
});
