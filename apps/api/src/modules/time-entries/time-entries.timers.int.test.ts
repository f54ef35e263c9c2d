import type { Role } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';
import { membersRepository } from '../members/members.repository.js';

/** GET /timers: the team's running timers (the real-time dashboard), scoped like the timesheet. */
const ctx = useTestApp();

type Who = 'owner' | 'admin' | 'manager' | 'member' | 'loner';
const people = {} as Record<Who, SignedUp>;
let ws: string;
let projectId: string;
let taskId: string;

const timers = async (who: SignedUp, url = `${ws}/timers`) => ctx.call('GET', url, who.cookie);
const runningOf = async (who: SignedUp) =>
  ((await timers(who)).json().items as { entry: { userId: string } }[]).map((t) => t.entry.userId).sort();
const start = async (who: SignedUp, body: object = {}) => {
  const response = await ctx.call('POST', `${ws}/timer/start`, who.cookie, body);
  expect(response.statusCode).toBe(201);
};

beforeAll(async () => {
  people.owner = await signUp(ctx.t.app);
  const workspaceId = people.owner.workspaceId;
  ws = `/api/v1/workspaces/${workspaceId}`;
  const roles: [Who, Role][] = [
    ['admin', 'admin'],
    ['manager', 'manager'],
    ['member', 'member'],
    ['loner', 'member'],
  ];
  for (const [who, role] of roles) {
    people[who] = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, { workspaceId, userId: people[who].userId, role });
  }
  // The manager leads a group holding the member; the loner is in no group of theirs.
  const groupId = newId();
  await ctx.t.db
    .insertInto('groups')
    .values({ id: groupId, workspace_id: workspaceId, parent_id: null, name: 'Crew' })
    .execute();
  await ctx.t.db
    .insertInto('group_members')
    .values(
      [people.manager.userId, people.member.userId].map((user_id) => ({
        workspace_id: workspaceId,
        group_id: groupId,
        user_id,
      })),
    )
    .execute();
  const project = await ctx.call('POST', `${ws}/projects`, people.owner.cookie, { name: 'Lighthouse', isPublic: true });
  expect(project.statusCode).toBe(201);
  projectId = project.json().id;
  const task = await ctx.call('POST', `${ws}/projects/${projectId}/tasks`, people.owner.cookie, { name: 'Lens' });
  expect(task.statusCode).toBe(201);
  taskId = task.json().id;
});

describe('the running timers of the team', () => {
  it('show each one with its person, project and task, and a duration up to now', async () => {
    for (const who of ['owner', 'admin', 'manager', 'loner'] as const) await start(people[who]);
    await start(people.member, { projectId, taskId, note: 'Polishing' });

    const response = await timers(people.owner);
    expect(response.statusCode).toBe(200);
    const items = response.json().items as {
      entry: { userId: string; note: string; isRunning: boolean; durationSeconds: number };
      userName: string;
      projectName: string | null;
      taskName: string | null;
      projectColor: string | null;
    }[];
    expect(items).toHaveLength(5);
    const member = items.find((t) => t.entry.userId === people.member.userId);
    expect(member).toMatchObject({
      // A new account's name: its address's local part.
      userName: people.member.email.split('@')[0],
      projectName: 'Lighthouse',
      taskName: 'Lens',
      entry: { note: 'Polishing', isRunning: true },
    });
    expect(member?.projectColor).toMatch(/^#/);
    expect(member?.entry.durationSeconds).toBeGreaterThanOrEqual(0);
    expect(items.find((t) => t.entry.userId === people.owner.userId)).toMatchObject({
      projectName: null,
      taskName: null,
    });
  });

  it('reach owners and admins for everyone, a manager for their people and themselves, a member for themselves', async () => {
    const everyone = Object.values(people)
      .map((p) => p.userId)
      .sort();
    expect(await runningOf(people.owner)).toEqual(everyone);
    expect(await runningOf(people.admin)).toEqual(everyone);
    expect(await runningOf(people.manager)).toEqual([people.manager.userId, people.member.userId].sort());
    expect(await runningOf(people.member)).toEqual([people.member.userId]);
    expect(await runningOf(people.loner)).toEqual([people.loner.userId]);
  });

  it('lose a timer once it is stopped, and leave out disabled members', async () => {
    const stop = await ctx.call('POST', `${ws}/timer/stop?userId=${people.loner.userId}`, people.owner.cookie, {});
    expect(stop.statusCode).toBe(200);
    expect(await runningOf(people.owner)).not.toContain(people.loner.userId);

    const disable = await ctx.call('PATCH', `${ws}/members/${people.admin.userId}`, people.owner.cookie, {
      status: 'disabled',
    });
    expect(disable.statusCode).toBe(200);
    expect(await runningOf(people.owner)).not.toContain(people.admin.userId);
  });

  it('answer 401 without a session and 404 to someone of another workspace', async () => {
    expect((await ctx.call('GET', `${ws}/timers`)).statusCode).toBe(401);
    const stranger = await signUp(ctx.t.app);
    const theirs = await ctx.call(
      'POST',
      `/api/v1/workspaces/${stranger.workspaceId}/timer/start`,
      stranger.cookie,
      {},
    );
    expect(theirs.statusCode).toBe(201);
    expect((await timers(stranger)).statusCode).toBe(404);
    // Their own workspace shows only their own timer, never this one's.
    const own = await timers(stranger, `/api/v1/workspaces/${stranger.workspaceId}/timers`);
    expect((own.json().items as { entry: { userId: string } }[]).map((t) => t.entry.userId)).toEqual([stranger.userId]);
  });
});
