import type { Role } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';
import { membersRepository } from './members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

/** A new user who is a member of the workspace with the role. */
async function addMember(workspaceId: string, role: Role) {
  const user = await signUp(ctx.t.app);
  await membersRepository.add(ctx.t.db, { workspaceId, userId: user.userId, role });
  return user;
}

describe('members', () => {
  it('lists the owner first with the Account owner label, and finds people by search', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await addMember(owner.workspaceId, 'member');
    const url = `/api/v1/workspaces/${owner.workspaceId}/members`;
    const list = (await call('GET', url, member.cookie)).json().items;
    expect(list.map((m: { email: string }) => m.email)).toEqual([owner.email, member.email]);
    expect(list[0]).toMatchObject({ role: 'owner', roleLabel: 'Account owner', status: 'active', projects: [] });
    const found = (await call('GET', `${url}?search=${encodeURIComponent(member.email.toUpperCase())}`, owner.cookie))
      .json()
      .items.map((m: { email: string }) => m.email);
    expect(found).toContain(member.email);
    expect(found).not.toContain(owner.email);
    const page = (await call('GET', `${url}?limit=1&offset=1`, owner.cookie)).json();
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.items.map((m: { email: string }) => m.email)).toEqual([member.email]);
  });

  it('changes role and external id, and keeps external ids unique', async () => {
    const owner = await signUp(ctx.t.app);
    const a = await addMember(owner.workspaceId, 'member');
    const b = await addMember(owner.workspaceId, 'member');
    const url = (id: string) => `/api/v1/workspaces/${owner.workspaceId}/members/${id}`;
    const changed = await call('PATCH', url(a.userId), owner.cookie, { role: 'manager', externalId: ' EMP-1 ' });
    expect(changed.json()).toMatchObject({ role: 'manager', roleLabel: 'Manager', externalId: 'EMP-1' });
    const clash = await call('PATCH', url(b.userId), owner.cookie, { externalId: 'emp-1' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.fields.externalId).toContain('external id');
    expect((await call('PATCH', url(a.userId), owner.cookie, { externalId: '' })).json().externalId).toBeNull();
  });

  it('protects the owner and oneself from role and status changes', async () => {
    const owner = await signUp(ctx.t.app);
    const admin = await addMember(owner.workspaceId, 'admin');
    const url = (id: string) => `/api/v1/workspaces/${owner.workspaceId}/members/${id}`;
    const onOwner = await call('PATCH', url(owner.userId), admin.cookie, { role: 'member' });
    expect(onOwner.statusCode).toBe(422);
    expect(onOwner.json().error.code).toBe('owner_protected');
    const self = await call('PATCH', url(admin.userId), admin.cookie, { status: 'disabled' });
    expect(self.json().error.code).toBe('not_yourself');
    expect((await call('DELETE', url(owner.userId), admin.cookie)).statusCode).toBe(422);
  });

  it('disabling ends access to the workspace at once, not the sessions or other workspaces; re-enabling lets them in again', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await addMember(owner.workspaceId, 'member');
    const url = `/api/v1/workspaces/${owner.workspaceId}/members/${member.userId}`;
    expect((await call('GET', `/api/v1/workspaces/${owner.workspaceId}`, member.cookie)).statusCode).toBe(200);
    const disabled = await call('PATCH', url, owner.cookie, { status: 'disabled' });
    expect(disabled.json().status).toBe('disabled');
    // Issue 29: an admin of one workspace owns the membership, not the account: the member's own
    // workspace and session stay theirs, and this workspace answers 404 at once.
    expect((await call('GET', `/api/v1/workspaces/${owner.workspaceId}`, member.cookie)).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/me', member.cookie)).statusCode).toBe(200);
    expect((await call('GET', `/api/v1/workspaces/${member.workspaceId}`, member.cookie)).statusCode).toBe(200);

    const login = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: member.email, password: member.password },
    });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await call('GET', `/api/v1/workspaces/${owner.workspaceId}`, cookie)).statusCode).toBe(404);
    // /me names the workspace that disabled them, so the app can say why it is gone.
    const me = (await call('GET', '/api/v1/me', cookie)).json();
    expect(me.workspaces.map((w: { id: string }) => w.id)).toEqual([member.workspaceId]);
    const { name } = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}`, owner.cookie)).json();
    expect(me.inactiveWorkspaces).toEqual([{ id: owner.workspaceId, name, status: 'disabled' }]);
    await call('PATCH', url, owner.cookie, { status: 'active' });
    expect((await call('GET', `/api/v1/workspaces/${owner.workspaceId}`, cookie)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/me', cookie)).json().inactiveWorkspaces).toEqual([]);
  });

  it('removes a member but keeps their account and the time they tracked, still attributed to them', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await addMember(owner.workspaceId, 'member');
    const entryId = newId();
    await ctx.t.db
      .insertInto('time_entries')
      .values({
        id: entryId,
        workspace_id: owner.workspaceId,
        user_id: member.userId,
        start_at: new Date('2026-11-02T09:00:00Z'),
        end_at: new Date('2026-11-02T10:00:00Z'),
        duration_seconds: 3600,
      })
      .execute();
    const url = `/api/v1/workspaces/${owner.workspaceId}/members/${member.userId}`;
    expect((await call('DELETE', url, owner.cookie)).statusCode).toBe(204);
    expect((await call('GET', url, owner.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', url, owner.cookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/workspaces/${owner.workspaceId}`, member.cookie)).statusCode).toBe(404);
    const me = (await call('GET', '/api/v1/me', member.cookie)).json();
    expect(me.workspaces).toHaveLength(1);
    expect(me.inactiveWorkspaces).toEqual([expect.objectContaining({ id: owner.workspaceId, status: 'removed' })]);
    const list = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/members`, owner.cookie)).json();
    expect(list.total).toBe(1);
    const entry = await ctx.t.db
      .selectFrom('time_entries')
      .select('user_id')
      .where('id', '=', entryId)
      .executeTakeFirst();
    expect(entry?.user_id).toBe(member.userId);

    // Invited again, they come back with the new role.
    const invited = await call('POST', `/api/v1/workspaces/${owner.workspaceId}/invites`, owner.cookie, {
      emails: [member.email],
      role: 'manager',
    });
    expect(invited.statusCode).toBe(201);
  });

  it('transfers the ownership to a member; the old owner becomes an admin', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await addMember(owner.workspaceId, 'member');
    const guest = await addMember(owner.workspaceId, 'guest');
    const url = `/api/v1/workspaces/${owner.workspaceId}/owner`;
    expect((await call('POST', url, owner.cookie, { userId: guest.userId })).statusCode).toBe(422);
    expect((await call('POST', url, member.cookie, { userId: member.userId })).statusCode).toBe(403);
    const moved = await call('POST', url, owner.cookie, { userId: member.userId });
    expect(moved.json()).toMatchObject({ role: 'owner', roleLabel: 'Account owner' });
    const me = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}`, owner.cookie)).json();
    expect(me.role).toBe('admin');
  });

  it('bulk edits role, status and group of many members at once, all or nothing', async () => {
    const owner = await signUp(ctx.t.app);
    const a = await addMember(owner.workspaceId, 'member');
    const b = await addMember(owner.workspaceId, 'member');
    const group = (
      await call('POST', `/api/v1/workspaces/${owner.workspaceId}/groups`, owner.cookie, { name: 'Support' })
    ).json();
    const url = `/api/v1/workspaces/${owner.workspaceId}/members/bulk`;
    const edited = await call('POST', url, owner.cookie, {
      userIds: [a.userId, b.userId],
      role: 'manager',
      addToGroupId: group.id,
    });
    expect(edited.statusCode).toBe(200);
    for (const m of edited.json().items) expect(m).toMatchObject({ role: 'manager', groupIds: [group.id] });

    // Including the owner fails the whole edit, so nobody was disabled.
    const refused = await call('POST', url, owner.cookie, { userIds: [a.userId, owner.userId], status: 'disabled' });
    expect(refused.statusCode).toBe(422);
    const list = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/members`, owner.cookie)).json();
    expect(list.items.every((m: { status: string }) => m.status === 'active')).toBe(true);
  });

  it('saves "hide disabled users from lists in reports" and applies it to report lists', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await addMember(owner.workspaceId, 'member');
    const settingsUrl = `/api/v1/workspaces/${owner.workspaceId}/team-settings`;
    expect((await call('GET', settingsUrl, owner.cookie)).json().hideDisabledUsers).toBe(false);
    expect((await call('PATCH', settingsUrl, member.cookie, { hideDisabledUsers: true })).statusCode).toBe(403);
    const saved = await call('PATCH', settingsUrl, owner.cookie, { hideDisabledUsers: true });
    expect(saved.json().hideDisabledUsers).toBe(true);

    await call('PATCH', `/api/v1/workspaces/${owner.workspaceId}/members/${member.userId}`, owner.cookie, {
      status: 'disabled',
    });
    const listUrl = `/api/v1/workspaces/${owner.workspaceId}/members`;
    expect((await call('GET', listUrl, owner.cookie)).json().items).toHaveLength(2);
    expect((await call('GET', `${listUrl}?for=reports`, owner.cookie)).json().items).toHaveLength(1);
    expect((await call('GET', settingsUrl, owner.cookie)).json().seats).toMatchObject({ used: 1, limit: null });
  });

  it('counts the projects each member is involved in, directly or through a group (INVOLVED IN)', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await addMember(owner.workspaceId, 'member');
    const ws = owner.workspaceId;
    const group = (await call('POST', `/api/v1/workspaces/${ws}/groups`, owner.cookie, { name: 'Crew' })).json();
    await call('PUT', `/api/v1/workspaces/${ws}/groups/${group.id}/members/${member.userId}`, owner.cookie);
    const [alpha, beta, archived] = [newId(), newId(), newId()];
    await ctx.t.db
      .insertInto('projects')
      .values([
        { id: alpha, workspace_id: ws, name: 'Alpha' },
        { id: beta, workspace_id: ws, name: 'Beta' },
        { id: archived, workspace_id: ws, name: 'Old', archived_at: new Date() },
      ])
      .execute();
    await ctx.t.db
      .insertInto('project_members')
      .values([
        { id: newId(), workspace_id: ws, project_id: alpha, user_id: member.userId },
        { id: newId(), workspace_id: ws, project_id: beta, group_id: group.id },
        { id: newId(), workspace_id: ws, project_id: alpha, group_id: group.id },
        { id: newId(), workspace_id: ws, project_id: archived, user_id: member.userId },
      ])
      .execute();
    const view = (await call('GET', `/api/v1/workspaces/${ws}/members/${member.userId}`, owner.cookie)).json();
    expect(view.projects.map((p: { name: string }) => p.name)).toEqual(['Alpha', 'Beta']);
    const ownerView = (await call('GET', `/api/v1/workspaces/${ws}/members/${owner.userId}`, owner.cookie)).json();
    expect(ownerView.projects).toEqual([]);
  });

  it('counts the projects someone owns (created) as theirs too, once, even when also assigned', async () => {
    const owner = await signUp(ctx.t.app);
    const manager = await addMember(owner.workspaceId, 'manager');
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const make = async (who: typeof owner, name: string) =>
      (await call('POST', `${ws}/projects`, who.cookie, { name })).json().id as string;
    const website = await make(owner, 'Website');
    await make(owner, 'Mobile app');
    await make(manager, 'Hiring');
    // Also assigned to a project they own: still one project.
    await call('PUT', `${ws}/projects/${website}/people`, owner.cookie, { userIds: [owner.userId], groupIds: [] });

    const list = (await call('GET', `${ws}/members`, owner.cookie)).json().items as {
      userId: string;
      projects: { name: string }[];
    }[];
    const of = (userId: string) => list.find((m) => m.userId === userId)?.projects.map((p) => p.name);
    expect(of(owner.userId)).toEqual(['Mobile app', 'Website']);
    expect(of(manager.userId)).toEqual(['Hiring']);
  });

  it('refuses a bulk edit that would need more licenses than a paid plan has, and changes nobody', async () => {
    const owner = await signUp(ctx.t.app);
    const a = await addMember(owner.workspaceId, 'guest');
    const b = await addMember(owner.workspaceId, 'guest');
    await ctx.t.db
      .updateTable('workspaces')
      .set({ plan: 'pro', licenses: 2 })
      .where('id', '=', owner.workspaceId)
      .execute();
    const url = `/api/v1/workspaces/${owner.workspaceId}/members`;
    const refused = await call('POST', `${url}/bulk`, owner.cookie, { userIds: [a.userId, b.userId], role: 'member' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.code).toBe('seat_limit_reached');
    const roles = (await call('GET', url, owner.cookie)).json().items.map((m: { role: string }) => m.role);
    expect(roles).toEqual(['owner', 'guest', 'guest']);
    // One seat is left: one guest can become a member.
    expect((await call('PATCH', `${url}/${a.userId}`, owner.cookie, { role: 'member' })).statusCode).toBe(200);
    const settings = (await call('GET', `/api/v1/workspaces/${owner.workspaceId}/team-settings`, owner.cookie)).json();
    expect(settings.seats).toEqual({ used: 2, limit: 2, pendingInvites: 0 });
  });
});
