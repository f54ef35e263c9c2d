import { permissionsOfRole } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, joinWorkspace, type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';

/**
 * Custom roles (issue 18): defined from the matrix, given to members and groups, enforced by the
 * same checks as the built-in roles (the member's permissions come from `effectivePermissions`),
 * a union with their groups' roles, and back to the base role when the plan lacks custom roles.
 */
const ctx = useTestApp();
let owner: SignedUp;
let member: SignedUp;
let manager: SignedUp;
const ws = () => `/api/v1/workspaces/${owner.workspaceId}`;
const { call, ok } = workspaceCalls(ctx, ws);

/** Can see others' time, but not edit projects (even those granted to them) nor others' time. */
const REVIEWER = {
  name: 'Reviewer',
  baseRole: 'member',
  permissions: [...permissionsOfRole('member').filter((p) => p !== 'projects:edit_granted'), 'time:view_others'],
};
/** A call that answers 204 No Content. */
const done = async (who: SignedUp, method: 'PUT' | 'DELETE', url: string, body?: object) => {
  const response = await call(who, method, url, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(204);
};
const permissionsOf = async (who: SignedUp) => (await ok(who, 'GET', '')).permissions as string[];

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  member = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
  manager = await joinWorkspace(ctx.t, owner.workspaceId, 'manager');
});

describe('custom roles', () => {
  it('checks the permission set: known, consistent, never the owner’s own', async () => {
    const refused = (permissions: string[]) =>
      call(owner, 'POST', '/roles', { name: 'Broken', baseRole: 'member', permissions });
    const inconsistent = await refused(['time:edit_others']);
    expect(inconsistent.statusCode).toBe(422);
    expect(inconsistent.json().error.fields.permissions).toBe(
      '"Edit others\' time" needs "See others\' time" as well.',
    );
    const ownersOnly = await refused(['workspace:delete']);
    expect(ownersOnly.json().error.fields.permissions).toBe('"Delete the workspace" cannot be part of a custom role.');
    expect((await refused(['roles:manage'])).statusCode).toBe(422);
    expect((await call(owner, 'POST', '/roles', { ...REVIEWER, permissions: ['nope'] })).statusCode).toBe(422);
    expect((await call(owner, 'POST', '/roles', { ...REVIEWER, baseRole: 'owner' })).statusCode).toBe(422);
  });

  it('gives a member the role: they see others’ time, and may not edit projects or others’ time', async () => {
    const role = await ok(owner, 'POST', '/roles', REVIEWER);
    expect(role.permissions).toContain('time:view_others');
    expect(role.permissions).not.toContain('projects:edit_granted');
    expect((await call(owner, 'POST', '/roles', { ...REVIEWER, name: 'reviewer' })).statusCode).toBe(409);

    const project = await ok(owner, 'POST', '/projects', { name: 'Granted site', isPublic: true });
    // Granted "Can manage": a plain member could edit it; the Reviewer role leaves that out.
    await ok(owner, 'PUT', `/projects/${project.id}/people`, {
      userIds: [member.userId],
      groupIds: [],
      managerUserIds: [member.userId],
    });
    expect((await call(member, 'PATCH', `/projects/${project.id}`, { name: 'Granted site 2' })).statusCode).toBe(200);
    const entry = await ok(owner, 'POST', '/time-entries', {
      start: new Date(Date.now() - 3_600_000).toISOString(),
      duration: '30m',
    });

    // As a plain member: others' time is closed.
    expect((await call(member, 'GET', `/time-entries?userId=${owner.userId}`)).statusCode).toBe(403);

    await done(owner, 'PUT', `/members/${member.userId}/custom-role`, { customRoleId: role.id });
    const me = await ok(member, 'GET', '');
    expect(me.customRole).toEqual({ id: role.id, name: 'Reviewer' });
    expect(me.permissions).toContain('time:view_others');
    expect((await call(member, 'GET', `/time-entries?userId=${owner.userId}`)).statusCode).toBe(200);
    expect((await call(member, 'GET', `/time-entries/${entry.id}`)).statusCode).toBe(200);
    expect((await call(member, 'PATCH', `/time-entries/${entry.id}`, { note: 'x' })).statusCode).toBe(403);
    expect((await call(member, 'POST', '/projects', { name: 'Not mine' })).statusCode).toBe(403);
    expect((await call(member, 'PATCH', `/projects/${project.id}`, { name: 'Renamed' })).statusCode).toBe(403);
    // Writing roles is never part of a custom role.
    expect((await call(member, 'GET', '/roles')).statusCode).toBe(403);

    const listed = await ok(owner, 'GET', '/roles');
    expect(listed.items.find((r: { id: string }) => r.id === role.id).memberIds).toEqual([member.userId]);

    // A built-in role given on the members page replaces the custom one.
    await ok(owner, 'PATCH', `/members/${member.userId}`, { role: 'member' });
    expect((await ok(member, 'GET', '')).customRole).toBeNull();
    expect(await permissionsOf(member)).not.toContain('time:view_others');
  });

  it('adds the roles of the member’s groups to theirs (a union), and only role holders move people there', async () => {
    const taggers = await ok(owner, 'POST', '/roles', {
      name: 'Tag keeper',
      baseRole: 'member',
      permissions: ['tags:view', 'tags:manage'],
    });
    const group = await ok(owner, 'POST', '/groups', { name: 'Taggers' });
    await done(owner, 'PUT', `/groups/${group.id}/custom-role`, { customRoleId: taggers.id });
    expect(await permissionsOf(member)).not.toContain('tags:manage');
    await ok(owner, 'PUT', `/groups/${group.id}/members/${member.userId}`);
    const union = await permissionsOf(member);
    expect(union).toContain('tags:manage');
    // Their own (built-in) permissions stay.
    expect(union).toContain('projects:view_public');
    expect((await call(member, 'POST', '/tag-lists', { name: 'Kinds' })).statusCode).toBe(201);

    // A manager in the group may not put people into a group that hands out a role.
    await ok(owner, 'PUT', `/groups/${group.id}/members/${manager.userId}`);
    const other = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
    expect((await call(manager, 'PUT', `/groups/${group.id}/members/${other.userId}`)).statusCode).toBe(403);

    await ok(owner, 'DELETE', `/groups/${group.id}/members/${member.userId}`);
    expect(await permissionsOf(member)).not.toContain('tags:manage');
  });

  it('refuses the owner, oneself, and another workspace’s role', async () => {
    const role = await ok(owner, 'POST', '/roles', { ...REVIEWER, name: 'Owner try' });
    expect(
      (await call(owner, 'PUT', `/members/${owner.userId}/custom-role`, { customRoleId: role.id })).statusCode,
    ).toBe(422);
    const admin = await joinWorkspace(ctx.t, owner.workspaceId, 'admin');
    expect(
      (await call(admin, 'PUT', `/members/${admin.userId}/custom-role`, { customRoleId: role.id })).statusCode,
    ).toBe(422);
    const stranger = await signUp(ctx.t.app);
    const theirs = await ok(stranger, 'POST', `/api/v1/workspaces/${stranger.workspaceId}/roles`, REVIEWER);
    const foreign = await call(owner, 'PUT', `/members/${member.userId}/custom-role`, { customRoleId: theirs.id });
    expect(foreign.statusCode).toBe(422);
    expect((await call(owner, 'GET', `/roles/${theirs.id}`)).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/roles/${theirs.id}`)).statusCode).toBe(404);
  });

  it('changes and deletes a role: holders follow it, then keep its base role; every change is audited', async () => {
    const role = await ok(owner, 'POST', '/roles', { ...REVIEWER, name: 'Lead' });
    const lead = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
    await done(owner, 'PUT', `/members/${lead.userId}/custom-role`, { customRoleId: role.id });
    await ok(owner, 'PUT', `/roles/${role.id}`, {
      name: 'Lead',
      baseRole: 'manager',
      permissions: [...permissionsOfRole('manager')],
    });
    const asLead = await ok(lead, 'GET', '');
    expect(asLead.role).toBe('manager');
    expect(asLead.permissions).toContain('projects:manage');
    await done(owner, 'DELETE', `/roles/${role.id}`);
    const after = await ok(lead, 'GET', '');
    expect(after).toMatchObject({ role: 'manager', customRole: null });
    const actions = await auditTrail(ctx.t.db, { workspaceId: owner.workspaceId, action: 'custom_role.%' });
    expect(new Set(actions.map((a) => a.action))).toEqual(
      new Set([
        'custom_role.created',
        'custom_role.updated',
        'custom_role.deleted',
        'custom_role.member_assigned',
        'custom_role.group_assigned',
      ]),
    );
  });
});
