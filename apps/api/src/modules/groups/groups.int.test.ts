import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

describe('groups', () => {
  it('builds a tree, renames and moves groups, and refuses a cycle', async () => {
    const owner = await signUp(ctx.t.app);
    const url = `/api/v1/workspaces/${owner.workspaceId}/groups`;
    const sales = (await call('POST', url, owner.cookie, { name: 'Sales' })).json();
    const emea = (await call('POST', url, owner.cookie, { name: 'EMEA', parentId: sales.id })).json();
    const paris = (await call('POST', url, owner.cookie, { name: 'Paris', parentId: emea.id })).json();
    expect(emea.parentId).toBe(sales.id);

    const cycle = await call('PATCH', `${url}/${sales.id}`, owner.cookie, { parentId: paris.id });
    expect(cycle.statusCode).toBe(422);
    expect(cycle.json().error.code).toBe('group_cycle');

    const moved = await call('PATCH', `${url}/${paris.id}`, owner.cookie, { parentId: null, name: 'Paris office' });
    expect(moved.json()).toMatchObject({ parentId: null, name: 'Paris office' });

    const list = (await call('GET', url, owner.cookie)).json().items;
    expect(list.map((g: { name: string }) => g.name)).toEqual(['EMEA', 'Paris office', 'Sales']);
  });

  it('refuses an empty name and a sibling with the same name, but allows it elsewhere in the tree', async () => {
    const owner = await signUp(ctx.t.app);
    const url = `/api/v1/workspaces/${owner.workspaceId}/groups`;
    expect((await call('POST', url, owner.cookie, { name: '  ' })).json().error.fields.name).toBe(
      'Group name is required.',
    );
    const top = (await call('POST', url, owner.cookie, { name: 'Team' })).json();
    const dup = await call('POST', url, owner.cookie, { name: 'team' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('group_name_taken');
    expect((await call('POST', url, owner.cookie, { name: 'Team', parentId: top.id })).statusCode).toBe(201);
  });

  it('puts members in groups and takes them out; deleting a group moves its subgroups up', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await signUp(ctx.t.app);
    const stranger = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: member.userId,
      role: 'member',
    });
    const url = `/api/v1/workspaces/${owner.workspaceId}/groups`;
    const parent = (await call('POST', url, owner.cookie, { name: 'Engineering' })).json();
    const child = (await call('POST', url, owner.cookie, { name: 'Backend', parentId: parent.id })).json();

    const added = await call('PUT', `${url}/${parent.id}/members/${member.userId}`, owner.cookie);
    expect(added.json().memberIds).toEqual([member.userId]);
    expect((await call('PUT', `${url}/${parent.id}/members/${member.userId}`, owner.cookie)).statusCode).toBe(200);
    const notMember = await call('PUT', `${url}/${parent.id}/members/${stranger.userId}`, owner.cookie);
    expect(notMember.statusCode).toBe(404);
    const byMember = await call('PUT', `${url}/${parent.id}/members/${member.userId}`, member.cookie);
    expect(byMember.statusCode).toBe(403);

    const removed = await call('DELETE', `${url}/${parent.id}/members/${member.userId}`, owner.cookie);
    expect(removed.json().memberIds).toEqual([]);

    expect((await call('DELETE', `${url}/${parent.id}`, owner.cookie)).statusCode).toBe(204);
    const list = (await call('GET', url, owner.cookie)).json().items;
    expect(list).toEqual([expect.objectContaining({ id: child.id, parentId: null })]);
  });

  it('lets a manager manage the people of the groups they belong to and below, and nothing else', async () => {
    const owner = await signUp(ctx.t.app);
    const manager = await signUp(ctx.t.app);
    const worker = await signUp(ctx.t.app);
    for (const [user, role] of [
      [manager, 'manager'],
      [worker, 'member'],
    ] as const) {
      await membersRepository.add(ctx.t.db, { workspaceId: owner.workspaceId, userId: user.userId, role });
    }
    const url = `/api/v1/workspaces/${owner.workspaceId}/groups`;
    const led = (await call('POST', url, owner.cookie, { name: 'Ops' })).json();
    const below = (await call('POST', url, owner.cookie, { name: 'Night shift', parentId: led.id })).json();
    const other = (await call('POST', url, owner.cookie, { name: 'Finance' })).json();
    await call('PUT', `${url}/${led.id}/members/${manager.userId}`, owner.cookie);

    expect((await call('PUT', `${url}/${below.id}/members/${worker.userId}`, manager.cookie)).statusCode).toBe(200);
    expect((await call('DELETE', `${url}/${below.id}/members/${worker.userId}`, manager.cookie)).statusCode).toBe(200);
    expect((await call('PUT', `${url}/${other.id}/members/${worker.userId}`, manager.cookie)).statusCode).toBe(403);
    expect((await call('PATCH', `${url}/${led.id}`, manager.cookie, { name: 'Mine' })).statusCode).toBe(403);
  });

  it('does not let a manager pull the owner, an admin or another manager into their groups (and so into their reach)', async () => {
    const owner = await signUp(ctx.t.app);
    const manager = await signUp(ctx.t.app);
    const admin = await signUp(ctx.t.app);
    const peer = await signUp(ctx.t.app);
    for (const [user, role] of [
      [manager, 'manager'],
      [admin, 'admin'],
      [peer, 'manager'],
    ] as const) {
      await membersRepository.add(ctx.t.db, { workspaceId: owner.workspaceId, userId: user.userId, role });
    }
    const url = `/api/v1/workspaces/${owner.workspaceId}/groups`;
    const led = (await call('POST', url, owner.cookie, { name: 'Ops' })).json();
    await call('PUT', `${url}/${led.id}/members/${manager.userId}`, owner.cookie);
    await call('PUT', `${url}/${led.id}/members/${admin.userId}`, owner.cookie);

    for (const target of [owner, peer]) {
      const pulled = await call('PUT', `${url}/${led.id}/members/${target.userId}`, manager.cookie);
      expect(pulled.statusCode).toBe(403);
    }
    // Nor push out someone above a regular user whom the owner put there.
    expect((await call('DELETE', `${url}/${led.id}/members/${admin.userId}`, manager.cookie)).statusCode).toBe(403);
    const group = (await call('GET', url, owner.cookie)).json().items.find((g: { id: string }) => g.id === led.id);
    expect([...group.memberIds].sort()).toEqual([manager.userId, admin.userId].sort());
    // So the owner's time stays out of the manager's reach.
    const time = await call(
      'GET',
      `/api/v1/workspaces/${owner.workspaceId}/time-entries?userId=${owner.userId}`,
      manager.cookie,
    );
    expect(time.statusCode).toBe(403);
  });
});
