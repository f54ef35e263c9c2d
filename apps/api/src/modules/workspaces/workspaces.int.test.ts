import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

describe('workspaces', () => {
  it('lets a user own several workspaces and switch between them', async () => {
    const { cookie } = await signUp(ctx.t.app);
    const created = await call('POST', '/api/v1/workspaces', cookie, { name: '  Acme Studio  ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Acme Studio', role: 'owner', trialDaysLeft: 14 });

    const list = (await call('GET', '/api/v1/workspaces', cookie)).json().items;
    expect(list).toHaveLength(2);

    const switched = await call('PATCH', '/api/v1/me', cookie, { currentWorkspaceId: created.json().id });
    expect(switched.json().currentWorkspaceId).toBe(created.json().id);
  });

  it('answers 404 for a workspace of someone else, on read, write and switch', async () => {
    const owner = await signUp(ctx.t.app);
    const stranger = await signUp(ctx.t.app);
    const url = `/api/v1/workspaces/${owner.workspaceId}`;
    for (const response of [
      await call('GET', url, stranger.cookie),
      await call('PATCH', url, stranger.cookie, { name: 'Mine now' }),
      await call('PATCH', '/api/v1/me', stranger.cookie, { currentWorkspaceId: owner.workspaceId }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect((await call('GET', url, owner.cookie)).json().name).not.toBe('Mine now');
  });

  it('answers 404 for an id that is not a UUID and 401 without a session', async () => {
    const { cookie, workspaceId } = await signUp(ctx.t.app);
    expect((await call('GET', '/api/v1/workspaces/123', cookie)).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/workspaces/${workspaceId}`)).statusCode).toBe(401);
  });

  it('lets owners and admins rename, and refuses a member with 403', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await signUp(ctx.t.app);
    const admin = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: member.userId,
      role: 'member',
    });
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: admin.userId,
      role: 'admin',
    });
    const url = `/api/v1/workspaces/${owner.workspaceId}`;

    const byMember = await call('PATCH', url, member.cookie, { name: 'Member was here' });
    expect(byMember.statusCode).toBe(403);
    expect((await call('GET', url, member.cookie)).json()).toMatchObject({ role: 'member' });

    expect((await call('PATCH', url, admin.cookie, { name: 'Renamed by admin' })).statusCode).toBe(200);
    const byOwner = await call('PATCH', url, owner.cookie, { name: 'Renamed by owner' });
    expect(byOwner.json().name).toBe('Renamed by owner');
  });

  it('refuses an empty name with a message', async () => {
    const { cookie, workspaceId } = await signUp(ctx.t.app);
    const response = await call('PATCH', `/api/v1/workspaces/${workspaceId}`, cookie, { name: '   ' });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.fields.name).toBe('Workspace name is required.');
  });

  it('drops the workspace to Free once the trial has ended', async () => {
    const { cookie, workspaceId } = await signUp(ctx.t.app);
    await ctx.t.db
      .updateTable('workspaces')
      .set({ trial_ends_at: new Date(Date.now() - 1000) })
      .where('id', '=', workspaceId)
      .execute();
    expect((await call('GET', `/api/v1/workspaces/${workspaceId}`, cookie)).json()).toMatchObject({
      plan: 'free',
      trialDaysLeft: 0,
    });
  });
});
