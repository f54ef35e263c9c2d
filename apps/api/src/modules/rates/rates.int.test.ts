import { NOT_IN_CUSTOM_ROLES, permissionsOfRole } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { auditTrail, giveCustomRole, type SignedUp, signUp, useTestApp } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();

/** A workspace with an owner, a project with a task, and a member of the given role. */
async function setUp(role: 'member' | 'manager' | 'admin' | 'guest' = 'member') {
  const owner = await signUp(ctx.t.app);
  const other = await signUp(ctx.t.app);
  const workspaceId = owner.workspaceId;
  await membersRepository.add(ctx.t.db, { workspaceId, userId: other.userId, role });
  const ws = `/api/v1/workspaces/${workspaceId}`;
  const as = (who: SignedUp) => async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: object) =>
    ctx.call(method, `${ws}${path}`, who.cookie, body);
  const byOwner = as(owner);
  const ok = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: object) => {
    const r = await byOwner(method, path, body);
    if (r.statusCode >= 300) throw new Error(`${method} ${path}: ${r.body}`);
    return r.statusCode === 204 ? null : r.json();
  };
  const projectId = (await ok('POST', '/projects', { name: 'Harbour', isPublic: true })).id as string;
  const taskId = (await ok('POST', `/projects/${projectId}/tasks`, { name: 'Design' })).id as string;
  const rate = (body: object) => ok('POST', '/rates', body);
  /** An entry of `userId` (the owner's unless said) of one hour from `start`. */
  const entry = async (start: string, more: object = {}) =>
    ok('POST', '/time-entries', { start, duration: 3600, billable: true, ...more });
  return { owner, other, workspaceId, ws, as, byOwner, ok, projectId, taskId, rate, entry };
}

const rates = (e: { billableRateCents: number | null; costRateCents: number | null }) => [
  e.billableRateCents,
  e.costRateCents,
];

describe('rates: the most specific level in force at the start is copied onto each entry', () => {
  it('resolves billable and cost each from the most specific level that sets it: task > project member > project > member > workspace', async () => {
    const { owner, projectId, taskId, rate, entry } = await setUp();
    const day = '2026-01-01';
    await rate({ level: 'workspace', effectiveFrom: day, billableCents: 100_00, costCents: 40_00 });
    expect(rates(await entry('2026-02-02T10:00:00Z'))).toEqual([100_00, 40_00]);
    await rate({ level: 'member', userId: owner.userId, effectiveFrom: day, billableCents: 110_00 });
    expect(rates(await entry('2026-02-02T11:00:00Z'))).toEqual([110_00, 40_00]);
    await rate({ level: 'project', projectId, effectiveFrom: day, billableCents: 150_00 });
    const onProject = await entry('2026-02-02T12:00:00Z', { projectId });
    expect(rates(onProject)).toEqual([150_00, 40_00]);
    // The project's rate does not reach entries elsewhere.
    expect(rates(await entry('2026-02-02T13:00:00Z'))).toEqual([110_00, 40_00]);
    await rate({ level: 'project_member', projectId, userId: owner.userId, effectiveFrom: day, costCents: 60_00 });
    expect(rates(await entry('2026-02-02T14:00:00Z', { projectId }))).toEqual([150_00, 60_00]);
    await rate({ level: 'task', taskId, effectiveFrom: day, billableCents: 200_00 });
    const onTask = await entry('2026-02-02T15:00:00Z', { projectId, taskId });
    expect(rates(onTask)).toEqual([200_00, 60_00]);
    // Amounts: the one amount rule, 0 billable when not billable; cost regardless.
    expect(onTask).toMatchObject({ billableAmountCents: 200_00, costAmountCents: 60_00 });
    const unbillable = await entry('2026-02-02T16:00:00Z', { projectId, taskId, billable: false, duration: 1800 });
    expect(unbillable).toMatchObject({ billableRateCents: 200_00, billableAmountCents: 0, costAmountCents: 30_00 });
  });

  it('keeps history by effective day, compared with the start day in the owner’s time zone', async () => {
    const { owner, rate, entry, ok } = await setUp();
    await ctx.t.db.updateTable('users').set({ time_zone: 'America/New_York' }).where('id', '=', owner.userId).execute();
    await rate({ level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 100_00 });
    await rate({ level: 'workspace', effectiveFrom: '2026-03-01', billableCents: 120_00 });
    // 03:00 UTC on 1 March is still 28 February in New York.
    expect((await entry('2026-03-01T03:00:00Z')).billableRateCents).toBe(100_00);
    expect((await entry('2026-03-01T06:00:00Z')).billableRateCents).toBe(120_00);
    expect((await entry('2025-12-31T12:00:00Z')).billableRateCents).toBeNull();
    const history = await ok('GET', '/rates?level=workspace');
    expect(history.items.map((r: { effectiveFrom: string }) => r.effectiveFrom)).toEqual(['2026-03-01', '2026-01-01']);
  });

  it('never re-prices saved entries when a rate changes; a new start, project or task does, a note or Undo does not', async () => {
    const { projectId, rate, entry, ok, byOwner } = await setUp();
    await rate({ level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 100_00 });
    const old = await entry('2026-04-01T09:00:00Z');
    await rate({ level: 'workspace', effectiveFrom: '2026-02-01', billableCents: 130_00 });
    expect((await ok('GET', `/time-entries/${old.id}`)).billableRateCents).toBe(100_00);
    expect((await ok('PATCH', `/time-entries/${old.id}`, { note: 'only words' })).billableRateCents).toBe(100_00);
    expect((await ok('PATCH', `/time-entries/${old.id}`, { tagIds: [] })).billableRateCents).toBe(100_00);
    await rate({ level: 'project', projectId, effectiveFrom: '2026-01-01', billableCents: 170_00 });
    const moved = await ok('POST', '/time-entries/bulk-update', { ids: [old.id], set: { projectId } });
    expect(moved.items[0].billableRateCents).toBe(170_00);
    await ok('PATCH', `/time-entries/${old.id}`, { projectId: null });
    expect((await ok('GET', `/time-entries/${old.id}`)).billableRateCents).toBe(130_00);
    const restart = await ok('PATCH', `/time-entries/${old.id}`, { start: '2026-01-15T09:00:00Z' });
    expect(restart.billableRateCents).toBe(100_00);

    // Undo brings the entry back as it was priced, whatever the rates say now.
    await rate({ level: 'workspace', effectiveFrom: '2026-01-10', billableCents: 999_00 });
    expect((await byOwner('DELETE', `/time-entries/${old.id}`)).statusCode).toBe(204);
    const [restored] = (await ok('POST', '/time-entries/restore', { ids: [old.id] })).items;
    expect(restored.billableRateCents).toBe(100_00);

    // A timer started now takes the rate in force today (the latest row on or before it).
    const started = await ok('POST', '/timer/start', {});
    expect(started.entry.billableRateCents).toBe(130_00);
  });

  it('prices imported entries set-based, each at its own start', async () => {
    const { owner, workspaceId, projectId, rate, ok } = await setUp();
    await rate({ level: 'workspace', effectiveFrom: '2026-01-01', costCents: 50_00 });
    await rate({ level: 'project', projectId, effectiveFrom: '2026-05-01', costCents: 80_00 });
    const ids = [newId(), newId()];
    await ctx.t.db.transaction().execute((tx) =>
      ctx.t.app.services.timeEntries.importEntries(
        tx,
        { workspaceId, actorUserId: owner.userId, passesLockDate: true },
        ['2026-04-30T10:00:00Z', '2026-05-02T10:00:00Z'].map((start, i) => ({
          id: ids[i] as string,
          user_id: owner.userId,
          project_id: projectId,
          task_id: null,
          note: 'imported',
          billable: false,
          start_at: new Date(start),
          end_at: new Date(Date.parse(start) + 3_600_000),
          duration_seconds: 3600,
          created_by_user_id: owner.userId,
          tagIds: [],
        })),
      ),
    );
    const costs = [];
    for (const id of ids) costs.push((await ok('GET', `/time-entries/${id}`)).costRateCents);
    expect(costs).toEqual([50_00, 80_00]);
  });
});

describe('rates: the API', () => {
  it('checks each level’s target, refuses a second rate on the same day, deletes a mistaken one', async () => {
    const { owner, byOwner, projectId, taskId, ok } = await setUp();
    const bad = async (body: object) => {
      const r = await byOwner('POST', '/rates', body);
      return [r.statusCode, r.json().error.fields ?? r.json().error.message];
    };
    expect(await bad({ level: 'member', effectiveFrom: '2026-01-01', billableCents: 1 })).toEqual([
      422,
      { userId: 'Choose the member of this rate.' },
    ]);
    expect(await bad({ level: 'workspace', projectId, effectiveFrom: '2026-01-01', billableCents: 1 })).toEqual([
      422,
      { projectId: 'A workspace rate has no project.' },
    ]);
    expect(await bad({ level: 'workspace', effectiveFrom: '2026-01-01' })).toEqual([
      422,
      { billableCents: 'Enter a billable rate, a cost rate, or both.' },
    ]);
    expect(await bad({ level: 'workspace', effectiveFrom: '2026-02-30', billableCents: 1 })).toEqual([
      422,
      { effectiveFrom: 'Enter a day as YYYY-MM-DD.' },
    ]);
    expect((await bad({ level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 1.5 }))[0]).toBe(422);
    expect(await bad({ level: 'task', taskId: newId(), effectiveFrom: '2026-01-01', billableCents: 1 })).toEqual([
      422,
      { taskId: 'Task not found.' },
    ]);
    expect(await bad({ level: 'member', userId: newId(), effectiveFrom: '2026-01-01', billableCents: 1 })).toEqual([
      422,
      { userId: 'Member not found.' },
    ]);

    const first = await ok('POST', '/rates', { level: 'task', taskId, effectiveFrom: '2026-01-01', billableCents: 5 });
    expect(first).toMatchObject({ level: 'task', taskId, projectId, userId: null, billableCents: 5, costCents: null });
    const again = await byOwner('POST', '/rates', { level: 'task', taskId, effectiveFrom: '2026-01-01', costCents: 5 });
    expect([again.statusCode, again.json().error.message]).toEqual([
      409,
      'This level already has a rate from that day; delete it first or choose another day.',
    ]);
    await ok('POST', '/rates', { level: 'member', userId: owner.userId, effectiveFrom: '2026-01-01', costCents: 5 });
    expect((await ok('GET', `/rates?level=task&taskId=${taskId}`)).items).toHaveLength(1);
    expect((await byOwner('DELETE', `/rates/${first.id}`)).statusCode).toBe(204);
    expect((await ok('GET', `/rates?level=task&taskId=${taskId}`)).items).toHaveLength(0);
    expect((await byOwner('DELETE', `/rates/${first.id}`)).statusCode).toBe(404);
    const audited = await auditTrail(ctx.t.db, { subjectId: first.id });
    expect(audited.map((a) => a.action)).toEqual(['rate.created', 'rate.deleted']);
  });

  it('keeps the currency and visibility settings; another workspace’s rate is 404', async () => {
    const { byOwner, ok, rate } = await setUp();
    expect(await ok('GET', '/rates/settings')).toEqual({
      currency: 'USD',
      managersSeeCosts: false,
      membersSeeOwnBillable: false,
    });
    expect(await ok('PATCH', '/rates/settings', { currency: 'eur', membersSeeOwnBillable: true })).toEqual({
      currency: 'EUR',
      managersSeeCosts: false,
      membersSeeOwnBillable: true,
    });
    const bad = await byOwner('PATCH', '/rates/settings', { currency: 'euros' });
    expect(bad.statusCode).toBe(422);

    const mine = await rate({ level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 1 });
    const stranger = await setUp();
    expect((await stranger.byOwner('DELETE', `/rates/${mine.id}`)).statusCode).toBe(404);
    expect(
      (
        await ctx.call(
          'GET',
          `/api/v1/workspaces/${(await setUp()).workspaceId}/rates/settings`,
          (
            await signUp(ctx.t.app)
          ).cookie,
        )
      ).statusCode,
    ).toBe(404);
  });
});

describe('rates: who sees money on entries', () => {
  /** The member's entry priced 100/40 an hour, as each role reads it. */
  async function pricedEntryOf(role: 'member' | 'guest') {
    const s = await setUp(role);
    const manager = await signUp(ctx.t.app);
    const admin = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: s.workspaceId,
      userId: manager.userId,
      role: 'manager',
    });
    await membersRepository.add(ctx.t.db, { workspaceId: s.workspaceId, userId: admin.userId, role: 'admin' });
    const group = await s.ok('POST', '/groups', { name: 'Crew' });
    for (const who of [manager, s.other]) await s.ok('PUT' as 'POST', `/groups/${group.id}/members/${who.userId}`);
    await s.rate({ level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 100_00, costCents: 40_00 });
    const id = (await s.entry('2026-02-02T10:00:00Z', { userId: s.other.userId })).id as string;
    const read = async (who: SignedUp) => {
      const one = (await s.as(who)('GET', `/time-entries/${id}`)).json();
      const list = (await s.as(who)('GET', `/time-entries?userId=${s.other.userId}`)).json().items[0];
      expect(list, 'the list shows what the entry shows').toMatchObject(pick(one));
      return pick(one);
    };
    return { ...s, manager, admin, read };
  }
  const pick = (e: Record<string, unknown>) => ({
    billableRateCents: e.billableRateCents,
    billableAmountCents: e.billableAmountCents,
    costRateCents: e.costRateCents,
    costAmountCents: e.costAmountCents,
  });
  const all = { billableRateCents: 100_00, billableAmountCents: 100_00, costRateCents: 40_00, costAmountCents: 40_00 };
  const billableOnly = { ...all, costRateCents: null, costAmountCents: null };
  const none = { billableRateCents: null, billableAmountCents: null, costRateCents: null, costAmountCents: null };

  it('owners and admins see all; managers their people’s billable; members nothing, until the settings widen it', async () => {
    const s = await pricedEntryOf('member');
    expect(await s.read(s.owner)).toEqual(all);
    expect(await s.read(s.admin)).toEqual(all);
    expect(await s.read(s.manager)).toEqual(billableOnly);
    expect(await s.read(s.other)).toEqual(none);

    await s.ok('PATCH', '/rates/settings', { managersSeeCosts: true, membersSeeOwnBillable: true });
    expect(await s.read(s.manager)).toEqual(all);
    expect(await s.read(s.other)).toEqual(billableOnly);
    // Nor does the member see anyone else's: the owner's entry stays out of their reach altogether.
    const ownersEntry = (await s.ok('POST', '/time-entries', { start: '2026-02-03T10:00:00Z', duration: 3600 })).id;
    expect((await s.as(s.other)('GET', `/time-entries/${ownersEntry}`)).statusCode).toBe(404);
  });

  it('a guest is like a member: nothing, then their own billable only', async () => {
    const s = await pricedEntryOf('guest');
    expect(await s.read(s.other)).toEqual(none);
    await s.ok('PATCH', '/rates/settings', { membersSeeOwnBillable: true });
    expect(await s.read(s.other)).toEqual(billableOnly);
  });

  it('rates and their settings are changed by owners and admins only', async () => {
    const s = await pricedEntryOf('member');
    for (const who of [s.manager, s.other]) {
      const call = s.as(who);
      // Reading: the manager sees the workspace's billable rates; the member nothing (see below).
      expect((await call('GET', '/rates?level=workspace')).statusCode).toBe(who === s.manager ? 200 : 403);
      expect(
        (await call('POST', '/rates', { level: 'workspace', effectiveFrom: '2026-01-02', billableCents: 1 }))
          .statusCode,
      ).toBe(403);
      expect((await call('PATCH', '/rates/settings', { currency: 'EUR' })).statusCode).toBe(403);
      expect(
        (await call('POST', '/rates/reapply/preview', { level: 'workspace', from: '2026-01-01', to: '2026-12-31' }))
          .statusCode,
      ).toBe(403);
      expect((await call('GET', '/rates/settings')).json().currency).toBe('USD');
    }
    expect((await s.as(s.admin)('GET', '/rates?level=workspace')).json().items).toHaveLength(1);
  });
});

describe('rates: who reads a level’s rate history', () => {
  it('owners and admins read all; managers their people’s billable; members their own billable when allowed; costs by the same rules', async () => {
    const s = await setUp('member');
    const join = async (role: 'manager' | 'admin' | 'member' | 'guest') => {
      const user = await signUp(ctx.t.app);
      await membersRepository.add(ctx.t.db, { workspaceId: s.workspaceId, userId: user.userId, role });
      return user;
    };
    const [manager, admin, stranger, guest] = [
      await join('manager'),
      await join('admin'),
      await join('member'),
      await join('guest'),
    ];
    const group = await s.ok('POST', '/groups', { name: 'Crew' });
    for (const who of [manager, s.other]) await s.ok('PUT' as 'POST', `/groups/${group.id}/members/${who.userId}`);
    const day = '2026-01-01';
    await s.rate({ level: 'workspace', effectiveFrom: day, billableCents: 100_00, costCents: 40_00 });
    await s.rate({ level: 'workspace', effectiveFrom: '2026-02-01', costCents: 45_00 });
    for (const who of [s.other, stranger, guest])
      await s.rate({
        level: 'member',
        userId: who.userId,
        effectiveFrom: day,
        billableCents: 110_00,
        costCents: 50_00,
      });
    await s.rate({ level: 'project', projectId: s.projectId, effectiveFrom: day, billableCents: 150_00 });
    await s.rate({ level: 'task', taskId: s.taskId, effectiveFrom: day, billableCents: 170_00, costCents: 70_00 });
    const levels = {
      workspace: '?level=workspace',
      project: `?level=project&projectId=${s.projectId}`,
      task: `?level=task&taskId=${s.taskId}`,
      other: `?level=member&userId=${s.other.userId}`,
      otherOnProject: `?level=project_member&projectId=${s.projectId}&userId=${s.other.userId}`,
      stranger: `?level=member&userId=${stranger.userId}`,
      guest: `?level=member&userId=${guest.userId}`,
    };
    /** What `who` reads of a level: its rows as [billable, cost] (cost undefined when hidden), or the status refusing it. */
    const read = async (who: SignedUp, level: keyof typeof levels) => {
      const r = await s.as(who)('GET', `/rates${levels[level]}`);
      if (r.statusCode !== 200) return r.statusCode;
      const body = r.json();
      for (const x of body.items) expect('costCents' in x).toBe(body.costsShown);
      return body.items.map((x: { billableCents: number | null; costCents?: number | null }) => [
        x.billableCents,
        x.costCents,
      ]);
    };

    for (const who of [s.owner, admin]) {
      expect(await read(who, 'workspace')).toEqual([
        [null, 45_00],
        [100_00, 40_00],
      ]);
      expect(await read(who, 'stranger')).toEqual([[110_00, 50_00]]);
      expect((await s.as(who)('GET', '/rates?level=workspace')).json()).toMatchObject({
        costsShown: true,
        canChange: true,
      });
    }

    // A manager: billable rates of the shared levels and of their people, no costs; nobody else's.
    expect(await read(manager, 'workspace')).toEqual([[100_00, undefined]]);
    expect(await read(manager, 'project')).toEqual([[150_00, undefined]]);
    expect(await read(manager, 'task')).toEqual([[170_00, undefined]]);
    expect(await read(manager, 'other')).toEqual([[110_00, undefined]]);
    expect(await read(manager, 'otherOnProject')).toEqual([]);
    expect(await read(manager, 'stranger')).toBe(403);
    expect((await s.as(manager)('GET', '/rates?level=workspace')).json()).toMatchObject({
      costsShown: false,
      canChange: false,
    });

    // Members and guests: nothing until the workspace lets them see their own billable rates, then only those.
    for (const [who, own] of [
      [s.other, 'other'],
      [guest, 'guest'],
    ] as const) {
      expect(await read(who, own)).toBe(403);
      for (const level of ['workspace', 'project', 'task', 'stranger'] as const)
        expect(await read(who, level)).toBe(403);
    }
    await s.ok('PATCH', '/rates/settings', { membersSeeOwnBillable: true });
    for (const [who, own] of [
      [s.other, 'other'],
      [guest, 'guest'],
    ] as const) {
      expect(await read(who, own)).toEqual([[110_00, undefined]]);
      for (const level of ['workspace', 'project', 'task', 'stranger'] as const)
        expect(await read(who, level)).toBe(403);
    }
    expect(await read(s.other, 'otherOnProject')).toEqual([]);

    // Managers see the costs of their people when the workspace says so; still not those of others.
    await s.ok('PATCH', '/rates/settings', { managersSeeCosts: true });
    expect(await read(manager, 'workspace')).toEqual([
      [null, 45_00],
      [100_00, 40_00],
    ]);
    expect(await read(manager, 'other')).toEqual([[110_00, 50_00]]);
    expect(await read(manager, 'stranger')).toBe(403);
    expect(await read(s.other, 'other')).toEqual([[110_00, undefined]]);

    // Reading never lets them change: writes stay with owners and admins.
    for (const who of [manager, s.other])
      expect(
        (
          await s.as(who)('POST', '/rates', {
            level: 'member',
            userId: s.other.userId,
            effectiveFrom: '2026-03-01',
            billableCents: 1,
          })
        ).statusCode,
      ).toBe(403);
  });
  it('custom roles read money as their permissions say, not as their base role: rates:manage all, seeing others’ time their billable', async () => {
    // access.ts decides (issue 32): the shared levels once went to the role named manager only.
    const s = await setUp('member');
    const join = async (role: 'admin' | 'member') => {
      const user = await signUp(ctx.t.app);
      await membersRepository.add(ctx.t.db, { workspaceId: s.workspaceId, userId: user.userId, role });
      return user;
    };
    const [keeper, lead, restricted] = [await join('member'), await join('member'), await join('admin')];
    const give = (to: SignedUp, name: string, baseRole: 'admin' | 'member', permissions: string[]) =>
      giveCustomRole(ctx.t, { owner: s.owner, to, name, baseRole, permissions });
    await give(keeper, 'Rate keeper', 'member', ['time:track', 'rates:manage']);
    await give(lead, 'Team lead', 'member', ['time:track', 'time:view_others', 'time:edit_others']);
    await give(
      restricted,
      'Admin without money',
      'admin',
      permissionsOfRole('admin').filter((p) => p !== 'rates:manage' && !NOT_IN_CUSTOM_ROLES.includes(p)),
    );
    await s.rate({ level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 100_00, costCents: 40_00 });
    await s.rate({ level: 'member', userId: s.other.userId, effectiveFrom: '2026-01-01', billableCents: 110_00 });
    const read = async (who: SignedUp, query: string) => {
      const r = await s.as(who)('GET', `/rates${query}`);
      return r.statusCode === 200
        ? r.json().items.map((x: { costCents?: number }) => x.costCents ?? 'hidden')
        : r.statusCode;
    };
    const workspace = '?level=workspace';
    const other = `?level=member&userId=${s.other.userId}`;
    expect(await read(keeper, workspace)).toEqual([40_00]);
    // Those who see everyone's time (as a manager sees their people's) read its billable rates, no costs.
    for (const who of [lead, restricted]) {
      expect(await read(who, workspace)).toEqual(['hidden']);
      expect(await read(who, other)).toEqual(['hidden']);
    }
    // A custom role seeing no one's time reads no shared level, whatever its base.
    const plain = await join('admin');
    await give(plain, 'Tracker', 'admin', ['time:track']);
    expect(await read(plain, workspace)).toBe(403);
    expect(await read(plain, other)).toBe(403);
  });
});

describe('rates: re-apply to a date range', () => {
  it('previews the entries whose rates change, with old and new amounts and totals, then applies exactly that, once', async () => {
    const { owner, other, projectId, rate, entry, ok } = await setUp();
    const workspaceRate = await rate({ level: 'workspace', effectiveFrom: '2026-01-01', billableCents: 100_00 });
    const inRange = await entry('2026-03-10T10:00:00Z', { projectId });
    const elsewhere = await entry('2026-03-11T10:00:00Z');
    const before = await entry('2026-02-10T10:00:00Z', { projectId });
    const theirs = await entry('2026-03-12T10:00:00Z', { projectId, userId: other.userId, duration: 1800 });
    await rate({ level: 'project', projectId, effectiveFrom: '2026-01-01', billableCents: 150_00, costCents: 50_00 });

    const body = { level: 'project', projectId, from: '2026-03-01', to: '2026-03-31' };
    const preview = await ok('POST', '/rates/reapply/preview', body);
    expect(preview.count).toBe(2);
    expect(preview.entries.map((e: { id: string }) => e.id)).toEqual([inRange.id, theirs.id]);
    expect(preview.entries[0]).toMatchObject({
      userId: owner.userId,
      old: { billableRateCents: 100_00, billableAmountCents: 100_00, costRateCents: null, costAmountCents: 0 },
      new: { billableRateCents: 150_00, billableAmountCents: 150_00, costRateCents: 50_00, costAmountCents: 50_00 },
    });
    expect(preview.totals).toEqual({
      old: { billableAmountCents: 150_00, costAmountCents: 0 },
      new: { billableAmountCents: 225_00, costAmountCents: 75_00 },
    });
    // Nothing changed yet.
    expect((await ok('GET', `/time-entries/${inRange.id}`)).billableRateCents).toBe(100_00);

    expect(await ok('POST', '/rates/reapply', body)).toEqual({ updated: 2 });
    expect((await ok('GET', `/time-entries/${inRange.id}`)).billableRateCents).toBe(150_00);
    expect((await ok('GET', `/time-entries/${theirs.id}`)).costAmountCents).toBe(25_00);
    expect((await ok('GET', `/time-entries/${elsewhere.id}`)).billableRateCents).toBe(100_00);
    expect((await ok('GET', `/time-entries/${before.id}`)).billableRateCents).toBe(100_00);
    // Idempotent: a second apply finds nothing left to change.
    expect(await ok('POST', '/rates/reapply', body)).toEqual({ updated: 0 });
    expect((await ok('POST', '/rates/reapply/preview', body)).count).toBe(0);

    // Deleting a rate and re-applying at the workspace level takes the next one down.
    await ok('DELETE', `/rates/${workspaceRate.id}`);
    const all = await ok('POST', '/rates/reapply', { level: 'workspace', from: '2026-01-01', to: '2026-12-31' });
    // `elsewhere` loses its rate; `before`, on the project, takes the project's.
    expect(all.updated).toBe(2);
    expect((await ok('GET', `/time-entries/${before.id}`)).billableRateCents).toBe(150_00);
    expect((await ok('GET', `/time-entries/${elsewhere.id}`)).billableRateCents).toBeNull();

    const backwards = await ctx.call('POST', `/api/v1/workspaces/${owner.workspaceId}/rates/reapply`, owner.cookie, {
      ...body,
      from: '2026-04-01',
    });
    expect(backwards.json().error.fields).toEqual({ to: 'The end of the range must be on or after its start.' });
  });
});
