import type { Role } from '@sundial/core';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type SignedUp,
  STRONG_PASSWORD,
  sessionCookie,
  signUp,
  uniqueEmail,
  useTestApp,
} from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

interface Team {
  owner: SignedUp;
  manager: SignedUp;
  member: SignedUp;
  ws: string;
  workspaceId: string;
}

async function team(): Promise<Team> {
  const owner = await signUp(ctx.t.app);
  const members = {} as Record<'manager' | 'member', SignedUp>;
  for (const role of ['manager', 'member'] as const satisfies Role[]) {
    members[role] = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: members[role].userId,
      role,
    });
  }
  // The manager leads a group the member belongs to (a manager sees their people's time only).
  await putInGroup(owner.workspaceId, [members.manager.userId, members.member.userId]);
  return { owner, ...members, ws: `/api/v1/workspaces/${owner.workspaceId}`, workspaceId: owner.workspaceId };
}

async function putInGroup(workspaceId: string, userIds: string[], parentId: string | null = null) {
  const groupId = newId();
  await ctx.t.db
    .insertInto('groups')
    .values({ id: groupId, workspace_id: workspaceId, parent_id: parentId, name: `Group ${groupId.slice(-6)}` })
    .execute();
  if (userIds.length > 0) {
    await ctx.t.db
      .insertInto('group_members')
      .values(userIds.map((user_id) => ({ workspace_id: workspaceId, group_id: groupId, user_id })))
      .execute();
  }
  return groupId;
}

async function buildProject(workspaceId: string, extra: { archived?: boolean; isPublic?: boolean } = {}) {
  const projectId = newId();
  const taskId = newId();
  await ctx.t.db
    .insertInto('projects')
    .values({
      id: projectId,
      workspace_id: workspaceId,
      name: `Project ${projectId.slice(-6)}`,
      client_id: null,
      owner_user_id: null,
      description: null,
      budget_type: null,
      keywords: '[]',
      is_public: extra.isPublic ?? true,
      archived_at: extra.archived ? new Date() : null,
    })
    .execute();
  await ctx.t.db
    .insertInto('tasks')
    .values({
      id: taskId,
      workspace_id: workspaceId,
      project_id: projectId,
      parent_task_id: null,
      name: 'Design',
      description: null,
      budget_type: null,
      keywords: '[]',
      archived_at: null,
    })
    .execute();
  return { projectId, taskId };
}

async function buildTag(workspaceId: string) {
  const listId = newId();
  const tagId = newId();
  await ctx.t.db
    .insertInto('tag_lists')
    .values({ id: listId, workspace_id: workspaceId, name: `List ${listId.slice(-6)}`, archived_at: null })
    .execute();
  await ctx.t.db
    .insertInto('tags')
    .values({ id: tagId, workspace_id: workspaceId, tag_list_id: listId, name: 'urgent', archived_at: null })
    .execute();
  return tagId;
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

function post(url: string, cookie: string, payload: object, key?: string): Promise<LightMyRequestResponse> {
  return ctx.t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
  });
}

describe('time entries', () => {
  let t: Team;
  beforeAll(async () => {
    t = await team();
  });

  it('answers 401 without a session and 404 for a workspace the user is not in', async () => {
    expect((await call('GET', `${t.ws}/time-entries`)).statusCode).toBe(401);
    const stranger = await signUp(ctx.t.app);
    const response = await call('GET', `${t.ws}/time-entries`, stranger.cookie);
    expect(response.statusCode).toBe(404);
    expect((await call('POST', `${t.ws}/timer/start`, stranger.cookie, {})).statusCode).toBe(404);
  });

  it('creates an entry from a start and a typed duration, with project, task and tag', async () => {
    const { projectId, taskId } = await buildProject(t.workspaceId);
    const tagId = await buildTag(t.workspaceId);
    const response = await call('POST', `${t.ws}/time-entries`, t.owner.cookie, {
      start: hoursAgo(5),
      duration: '1:30',
      note: ' Wireframes ',
      taskId,
      tagIds: [tagId],
      billable: true,
    });
    expect(response.statusCode).toBe(201);
    const entry = response.json();
    expect(entry).toMatchObject({
      note: 'Wireframes',
      projectId,
      taskId,
      tagIds: [tagId],
      billable: true,
      durationSeconds: 5400,
      isRunning: false,
      userId: t.owner.userId,
    });
    expect(new Date(entry.end).getTime() - new Date(entry.start).getTime()).toBe(5400_000);

    for (const duration of ['1.5h', '90m']) {
      const again = await call('POST', `${t.ws}/time-entries`, t.owner.cookie, { start: hoursAgo(10), duration });
      expect(again.json().durationSeconds).toBe(5400);
    }
  });

  it('refuses bad times with clear messages and saves nothing', async () => {
    const before = await call('GET', `${t.ws}/time-entries?limit=1000`, t.member.cookie);
    const cases: [object, string, string][] = [
      [{ start: hoursAgo(2), end: hoursAgo(3) }, 'end', 'The end must be after the start.'],
      [{ start: hoursAgo(30), end: hoursAgo(1) }, 'end', 'An entry can be at most 24:00 hours long.'],
      [{ start: hoursAgo(-30), duration: '1h' }, 'end', 'Entries may end at most 24:00 hours from now.'],
      [{ start: hoursAgo(2), duration: 'soon' }, 'duration', 'Enter a duration such as 1:30, 1.5h or 90m.'],
      [{ start: hoursAgo(2) }, 'end', 'Enter an end time or a duration.'],
      [{ start: 'yesterday', duration: '1h' }, 'start', 'Enter a date and time.'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await call('POST', `${t.ws}/time-entries`, t.member.cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().error.fields[field]).toBe(message);
    }
    const after = await call('GET', `${t.ws}/time-entries?limit=1000`, t.member.cookie);
    expect(after.json().items).toHaveLength(before.json().items.length);
  });

  it('refuses projects, tasks and tags of another workspace, and a task of another project', async () => {
    const other = await signUp(ctx.t.app);
    const foreign = await buildProject(other.workspaceId);
    const foreignTag = await buildTag(other.workspaceId);
    const own = await buildProject(t.workspaceId);
    const base = { start: hoursAgo(3), duration: '1h' };
    const cases: [object, string][] = [
      [{ projectId: foreign.projectId }, 'projectId'],
      [{ taskId: foreign.taskId }, 'taskId'],
      [{ projectId: own.projectId, taskId: (await buildProject(t.workspaceId)).taskId }, 'taskId'],
      [{ tagIds: [foreignTag] }, 'tagIds'],
      [{ projectId: (await buildProject(t.workspaceId, { archived: true })).projectId }, 'projectId'],
    ];
    for (const [extra, field] of cases) {
      const response = await call('POST', `${t.ws}/time-entries`, t.owner.cookie, { ...base, ...extra });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().error.fields)).toEqual([field]);
    }
  });

  it('applies workspace settings: required fields and a longer maximum', async () => {
    const member = await call('PATCH', `${t.ws}/time-settings`, t.member.cookie, { requireProject: true });
    expect(member.statusCode).toBe(403);
    const changed = await call('PATCH', `${t.ws}/time-settings`, t.owner.cookie, {
      requireProject: true,
      requireNote: true,
      maxEntryMinutes: 48 * 60,
      roundingMode: 'up',
      roundingMinutes: 15,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ requireProject: true, maxEntryMinutes: 2880, roundingMode: 'up' });

    const missing = await call('POST', `${t.ws}/time-entries`, t.member.cookie, {
      start: hoursAgo(30),
      end: hoursAgo(1),
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.fields).toEqual({ projectId: 'Choose a project.', note: 'Write a note.' });

    const { projectId } = await buildProject(t.workspaceId);
    const ok = await call('POST', `${t.ws}/time-entries`, t.member.cookie, {
      start: hoursAgo(30),
      end: hoursAgo(1),
      projectId,
      note: 'Long haul',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().durationSeconds).toBe(29 * 3600);

    // A running timer may start without a project, but not stop without one.
    await post(`${t.ws}/timer/start`, t.member.cookie, {});
    const stop = await post(`${t.ws}/timer/stop`, t.member.cookie, {});
    expect(stop.statusCode).toBe(422);
    expect(stop.json().error.message).toBe('Choose a project before stopping the timer.');
    expect((await call('DELETE', `${t.ws}/timer`, t.member.cookie)).statusCode).toBe(204);

    await call('PATCH', `${t.ws}/time-settings`, t.owner.cookie, {
      requireProject: false,
      requireNote: false,
      maxEntryMinutes: 1440,
      roundingMode: 'none',
    });
    expect((await call('GET', `${t.ws}/time-settings`, t.member.cookie)).json().requireProject).toBe(false);
  });

  it("keeps a report time zone: the owner's zone for a new workspace, changed by owners and admins only", async () => {
    const signup = await ctx.t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: uniqueEmail('zone'), password: STRONG_PASSWORD, timeZone: 'Asia/Kolkata' },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    const cookie = sessionCookie(signup);
    const me = (await call('GET', '/api/v1/me', cookie)).json();
    const ws = `/api/v1/workspaces/${me.currentWorkspaceId}`;
    expect((await call('GET', `${ws}/time-settings`, cookie)).json().reportTimeZone).toBe('Asia/Kolkata');
    // A report without a zone in its URL uses it; a viewer may still ask for another.
    const summary = (zone?: string) =>
      call('GET', `${ws}/reports/summary?preset=thisWeek${zone ? `&timeZone=${zone}` : ''}`, cookie);
    expect((await summary()).json().range.timeZone).toBe('Asia/Kolkata');
    expect((await summary('America/Chicago')).json().range.timeZone).toBe('America/Chicago');

    const t = await team();
    const admin = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, { workspaceId: t.workspaceId, userId: admin.userId, role: 'admin' });
    for (const who of [t.manager, t.member]) {
      const refused = await call('PATCH', `${t.ws}/time-settings`, who.cookie, { reportTimeZone: 'Europe/Oslo' });
      expect(refused.statusCode).toBe(403);
    }
    const unknown = await call('PATCH', `${t.ws}/time-settings`, admin.cookie, { reportTimeZone: 'Mars/Olympus' });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.fields).toEqual({ reportTimeZone: 'Unknown time zone.' });
    const changed = await call('PATCH', `${t.ws}/time-settings`, admin.cookie, { reportTimeZone: 'Europe/Oslo' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().reportTimeZone).toBe('Europe/Oslo');
    expect((await call('GET', `${t.ws}/time-settings`, t.member.cookie)).json().reportTimeZone).toBe('Europe/Oslo');
  });

  it('lists entries of a range with filters and pages through them', async () => {
    const me = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${me.workspaceId}`;
    const { projectId } = await buildProject(me.workspaceId);
    const tagId = await buildTag(me.workspaceId);
    const day = Date.UTC(2026, 10, 2, 9);
    for (let i = 0; i < 5; i += 1) {
      const start = new Date(day + i * 86_400_000).toISOString();
      await call('POST', `${ws}/time-entries`, me.cookie, {
        start,
        duration: '2h',
        projectId: i % 2 === 0 ? projectId : null,
        tagIds: i === 1 ? [tagId] : [],
        billable: i === 4,
      });
    }
    const range = `from=${new Date(day + 86_400_000).toISOString()}&to=${new Date(day + 4 * 86_400_000).toISOString()}`;
    const listed = await call('GET', `${ws}/time-entries?${range}`, me.cookie);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items).toHaveLength(3);

    const count = async (query: string) =>
      (await call('GET', `${ws}/time-entries?${query}`, me.cookie)).json().items.length as number;
    expect(await count(`projectId=${projectId}`)).toBe(3);
    expect(await count(`tagId=${tagId}`)).toBe(1);
    expect(await count('billable=true')).toBe(1);

    const first = (await call('GET', `${ws}/time-entries?limit=2`, me.cookie)).json();
    expect(first.items).toHaveLength(2);
    const second = (await call('GET', `${ws}/time-entries?limit=2&cursor=${first.nextCursor}`, me.cookie)).json();
    const third = (await call('GET', `${ws}/time-entries?limit=2&cursor=${second.nextCursor}`, me.cookie)).json();
    expect(third.nextCursor).toBeNull();
    const ids = [...first.items, ...second.items, ...third.items].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(5);
  });

  it('lists an entry that began long before the range, even after the maximum was lowered, and the running timer', async () => {
    const me = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${me.workspaceId}`;
    await call('PATCH', `${ws}/time-settings`, me.cookie, { maxEntryMinutes: 7 * 24 * 60 });
    const longStart = Date.UTC(2026, 9, 1, 8);
    const long = await call('POST', `${ws}/time-entries`, me.cookie, {
      start: new Date(longStart).toISOString(),
      duration: '120h',
    });
    expect(long.statusCode).toBe(201);
    await call('PATCH', `${ws}/time-settings`, me.cookie, { maxEntryMinutes: 60 });
    await call('POST', `${ws}/time-entries`, me.cookie, {
      start: new Date(longStart - 86_400_000).toISOString(),
      duration: '1h',
    });
    const lastDay = `from=${new Date(longStart + 119 * 3_600_000).toISOString()}&to=${new Date(longStart + 144 * 3_600_000).toISOString()}`;
    const listed = (await call('GET', `${ws}/time-entries?${lastDay}`, me.cookie)).json().items;
    expect(listed.map((e: { id: string }) => e.id)).toEqual([long.json().id]);

    // A running timer belongs to every range that reaches its start, and to none that ends before it.
    const timer = (await post(`${ws}/timer/start`, me.cookie, {})).json().entry;
    const before = `from=${new Date(Date.now() - 7_200_000).toISOString()}&to=${new Date(Date.now() - 3_600_000).toISOString()}`;
    expect((await call('GET', `${ws}/time-entries?${before}`, me.cookie)).json().items).toEqual([]);
    const today = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`;
    const running = (await call('GET', `${ws}/time-entries?${today}`, me.cookie)).json().items;
    expect(running.map((e: { id: string }) => e.id)).toEqual([timer.id]);
  });

  it('gets, updates and deletes an entry', async () => {
    const created = (
      await call('POST', `${t.ws}/time-entries`, t.member.cookie, { start: hoursAgo(4), duration: '1h', note: 'a' })
    ).json();
    const url = `${t.ws}/time-entries/${created.id}`;
    expect((await call('GET', url, t.member.cookie)).json().note).toBe('a');

    const moved = await call('PATCH', url, t.member.cookie, { duration: '2:15', note: 'b' });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ note: 'b', durationSeconds: 8100, start: created.start });

    const bad = await call('PATCH', url, t.member.cookie, { end: hoursAgo(5) });
    expect(bad.statusCode).toBe(422);
    expect((await call('GET', url, t.member.cookie)).json().durationSeconds).toBe(8100);

    expect((await call('DELETE', url, t.member.cookie)).statusCode).toBe(204);
    expect((await call('GET', url, t.member.cookie)).statusCode).toBe(404);
  });

  it('lets managers see and edit other members, and nobody else', async () => {
    const entry = (
      await call('POST', `${t.ws}/time-entries`, t.member.cookie, { start: hoursAgo(3), duration: '1h' })
    ).json();
    const url = `${t.ws}/time-entries/${entry.id}`;
    const ownersEntry = (
      await call('POST', `${t.ws}/time-entries`, t.owner.cookie, { start: hoursAgo(3), duration: '1h' })
    ).json();

    expect((await call('GET', `${t.ws}/time-entries/${ownersEntry.id}`, t.member.cookie)).statusCode).toBe(404);
    expect((await call('GET', `${t.ws}/time-entries?userId=${t.owner.userId}`, t.member.cookie)).statusCode).toBe(403);
    expect((await call('GET', `${t.ws}/time-entries?userId=all`, t.member.cookie)).statusCode).toBe(403);
    expect(
      (
        await call('POST', `${t.ws}/time-entries`, t.member.cookie, {
          start: hoursAgo(3),
          duration: '1h',
          userId: t.owner.userId,
        })
      ).statusCode,
    ).toBe(403);

    const seen = await call('GET', `${t.ws}/time-entries?userId=${t.member.userId}`, t.manager.cookie);
    expect(seen.json().items.map((e: { id: string }) => e.id)).toContain(entry.id);
    const edited = await call('PATCH', url, t.manager.cookie, { note: 'checked by manager' });
    expect(edited.json()).toMatchObject({ note: 'checked by manager', userId: t.member.userId });
    const forMember = await call('POST', `${t.ws}/time-entries`, t.manager.cookie, {
      start: hoursAgo(2),
      duration: '30m',
      userId: t.member.userId,
    });
    expect(forMember.json().userId).toBe(t.member.userId);
    const all = await call('GET', `${t.ws}/time-entries?userId=all&limit=1000`, t.manager.cookie);
    const users = new Set(all.json().items.map((e: { userId: string }) => e.userId));
    // The manager's people only: the member of their group, not the owner.
    expect(users.has(t.member.userId) && !users.has(t.owner.userId)).toBe(true);
    const everyone = await call('GET', `${t.ws}/time-entries?userId=all&limit=1000`, t.owner.cookie);
    const all2 = new Set(everyone.json().items.map((e: { userId: string }) => e.userId));
    expect(all2.has(t.owner.userId) && all2.has(t.member.userId)).toBe(true);
  });

  it('creates once per Idempotency-Key', async () => {
    const key = newId();
    const payload = { start: hoursAgo(6), duration: '45m', note: 'retry me' };
    const first = await post(`${t.ws}/time-entries`, t.member.cookie, payload, key);
    const second = await post(`${t.ws}/time-entries`, t.member.cookie, payload, key);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().id).toBe(first.json().id);
    const reused = await post(`${t.ws}/timer/start`, t.member.cookie, {}, key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    // The same key with other data is another request, not a retry: refused, and nothing created.
    const changed = await post(`${t.ws}/time-entries`, t.member.cookie, { ...payload, note: 'other entry' }, key);
    expect(changed.statusCode).toBe(422);
    expect(changed.json().error.code).toBe('idempotency_key_reused');
    const notes = await ctx.t.db
      .selectFrom('time_entries')
      .select('note')
      .where('note', 'in', ['retry me', 'other entry'])
      .where('user_id', '=', t.member.userId)
      .execute();
    expect(notes.map((n) => n.note)).toEqual(['retry me']);
  });

  it('forgets idempotency keys after a day', async () => {
    const key = newId();
    await post(`${t.ws}/time-entries`, t.member.cookie, { start: hoursAgo(7), duration: '5m' }, key);
    await ctx.t.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 2 * 86_400_000) })
      .where('key', '=', key)
      .execute();
    await ctx.t.app.services.timeEntries.pruneIdempotencyKeys();
    const left = await ctx.t.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute();
    expect(left).toEqual([]);
  });

  it('keeps entries when their project or task is deleted', async () => {
    const { projectId, taskId } = await buildProject(t.workspaceId);
    const other = await buildProject(t.workspaceId);
    const onTask = (
      await call('POST', `${t.ws}/time-entries`, t.member.cookie, { start: hoursAgo(3), duration: '1h', taskId })
    ).json();
    const onProject = (
      await call('POST', `${t.ws}/time-entries`, t.member.cookie, {
        start: hoursAgo(3),
        duration: '1h',
        taskId: other.taskId,
      })
    ).json();
    await ctx.t.db.deleteFrom('tasks').where('id', '=', other.taskId).execute();
    await ctx.t.db.deleteFrom('projects').where('id', '=', projectId).execute();
    const a = (await call('GET', `${t.ws}/time-entries/${onTask.id}`, t.member.cookie)).json();
    const b = (await call('GET', `${t.ws}/time-entries/${onProject.id}`, t.member.cookie)).json();
    expect(a).toMatchObject({ projectId: null, taskId: null, durationSeconds: 3600 });
    expect(b).toMatchObject({ projectId: other.projectId, taskId: null });
  });

  it('bulk updates and bulk deletes entries', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push(
        (
          await call('POST', `${t.ws}/time-entries`, t.member.cookie, { start: hoursAgo(8 + i), duration: '10m' })
        ).json().id,
      );
    }
    const updated = await call('POST', `${t.ws}/time-entries/bulk-update`, t.member.cookie, {
      ids,
      set: { billable: true, note: 'bulk' },
    });
    expect(updated.statusCode).toBe(200);
    expect(
      updated.json().items.every((e: { billable: boolean; note: string }) => e.billable && e.note === 'bulk'),
    ).toBe(true);

    // Tags added to and taken off each entry's own tags; an unknown tag changes nothing.
    const list = (await call('POST', `${t.ws}/tag-lists`, t.owner.cookie, { name: `Bulk ${Date.now()}` })).json().id;
    const tagOf = async (name: string) =>
      (await call('POST', `${t.ws}/tag-lists/${list}/tags`, t.owner.cookie, { name })).json().id as string;
    const [red, blue] = [await tagOf('Red'), await tagOf('Blue')];
    await call('PATCH', `${t.ws}/time-entries/${ids[0]}`, t.member.cookie, { tagIds: [red] });
    const tagged = await call('POST', `${t.ws}/time-entries/bulk-update`, t.member.cookie, {
      ids,
      set: { addTagIds: [blue], removeTagIds: [red] },
    });
    expect(tagged.json().items.map((e: { tagIds: string[] }) => e.tagIds)).toEqual([[blue], [blue], [blue]]);
    const unknown = await call('POST', `${t.ws}/time-entries/bulk-update`, t.member.cookie, {
      ids,
      set: { addTagIds: [ids[0]], note: 'not saved' },
    });
    expect([unknown.statusCode, unknown.json().error.fields]).toEqual([
      422,
      { addTagIds: 'A tag does not exist in the workspace.' },
    ]);
    expect((await call('GET', `${t.ws}/time-entries/${ids[1]}`, t.member.cookie)).json().note).toBe('bulk');

    const ownersEntry = (
      await call('POST', `${t.ws}/time-entries`, t.owner.cookie, { start: hoursAgo(3), duration: '1h' })
    ).json();
    const refused = await call('POST', `${t.ws}/time-entries/bulk-delete`, t.member.cookie, {
      ids: [...ids, ownersEntry.id],
    });
    expect(refused.statusCode).toBe(404);
    const deleted = await call('POST', `${t.ws}/time-entries/bulk-delete`, t.member.cookie, { ids });
    expect(deleted.json()).toEqual({ deleted: 3 });
  });
});

describe('the timer', () => {
  let t: Team;
  beforeAll(async () => {
    t = await team();
  });

  it('starts, pauses, resumes and stops, leaving the break out of the work', async () => {
    const started = await post(`${t.ws}/timer/start`, t.member.cookie, { note: 'Focus' });
    expect(started.statusCode).toBe(201);
    expect(started.json()).toMatchObject({ entry: { isRunning: true, note: 'Focus' }, stopped: null });
    const id = started.json().entry.id;

    expect((await call('GET', `${t.ws}/timer`, t.member.cookie)).json().entry.id).toBe(id);
    const paused = await post(`${t.ws}/timer/pause`, t.member.cookie, {});
    expect(paused.json()).toMatchObject({ isPaused: true, isRunning: true });
    expect((await post(`${t.ws}/timer/pause`, t.member.cookie, {})).json().error.code).toBe('timer_paused');

    // Make the break an hour long without waiting for it.
    await ctx.t.db
      .updateTable('time_entry_breaks')
      .set({ start_at: new Date(Date.now() - 3_600_000) })
      .where('entry_id', '=', id)
      .execute();
    await ctx.t.db
      .updateTable('time_entries')
      .set({ start_at: new Date(Date.now() - 2 * 3_600_000) })
      .where('id', '=', id)
      .execute();

    const resumed = await post(`${t.ws}/timer/resume`, t.member.cookie, {});
    expect(resumed.json()).toMatchObject({ isPaused: false, isRunning: true });
    expect((await post(`${t.ws}/timer/resume`, t.member.cookie, {})).json().error.code).toBe('timer_not_paused');

    const stopped = await post(`${t.ws}/timer/stop`, t.member.cookie, {});
    expect(stopped.statusCode).toBe(200);
    const entry = stopped.json();
    expect(entry.isRunning).toBe(false);
    expect(entry.breaks).toHaveLength(1);
    expect(Math.abs(entry.durationSeconds - 3600)).toBeLessThanOrEqual(2);
    expect((await call('GET', `${t.ws}/timer`, t.member.cookie)).json().entry).toBeNull();
    expect((await post(`${t.ws}/timer/stop`, t.member.cookie, {})).json().error).toEqual({
      code: 'no_running_timer',
      message: 'No timer is running.',
    });
  });

  it('stops the running timer when a new one starts', async () => {
    const first = (await post(`${t.ws}/timer/start`, t.owner.cookie, { note: 'one' })).json().entry;
    const second = (await post(`${t.ws}/timer/start`, t.owner.cookie, { note: 'two' })).json();
    expect(second.stopped).toMatchObject({ id: first.id, isRunning: false });
    expect(second.stopped.end).toBe(second.entry.start);
    const running = await ctx.t.db
      .selectFrom('time_entries')
      .select('id')
      .where('user_id', '=', t.owner.userId)
      .where('end_at', 'is', null)
      .execute();
    expect(running.map((r) => r.id)).toEqual([second.entry.id]);
    expect((await call('DELETE', `${t.ws}/timer`, t.owner.cookie)).statusCode).toBe(204);
    expect((await call('GET', `${t.ws}/time-entries/${second.entry.id}`, t.owner.cookie)).statusCode).toBe(404);
  });

  it('stops once when two tabs stop at the same moment', async () => {
    const started = (await post(`${t.ws}/timer/start`, t.manager.cookie, {})).json().entry;
    const answers = await Promise.all([
      post(`${t.ws}/timer/stop`, t.manager.cookie, {}),
      post(`${t.ws}/timer/stop`, t.manager.cookie, {}),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const rows = await ctx.t.db
      .selectFrom('time_entries')
      .select(['id', 'end_at'])
      .where('user_id', '=', t.manager.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(started.id);
    expect(rows[0]?.end_at).not.toBeNull();
  });

  it('starts and stops once per Idempotency-Key, even when the retries race', async () => {
    const key = newId();
    const starts = await Promise.all([
      post(`${t.ws}/timer/start`, t.member.cookie, { note: 'same' }, key),
      post(`${t.ws}/timer/start`, t.member.cookie, { note: 'same' }, key),
    ]);
    expect(starts.map((s) => s.statusCode)).toEqual([201, 201]);
    expect(starts[0]?.json().entry.id).toBe(starts[1]?.json().entry.id);

    const stopKey = newId();
    const stops = await Promise.all([
      post(`${t.ws}/timer/stop`, t.member.cookie, {}, stopKey),
      post(`${t.ws}/timer/stop`, t.member.cookie, {}, stopKey),
    ]);
    expect(stops.map((s) => s.statusCode)).toEqual([200, 200]);
    expect(stops[0]?.json().id).toBe(stops[1]?.json().id);
  });

  it('lets a manager stop a member timer but not a member stop the owner', async () => {
    await post(`${t.ws}/timer/start`, t.member.cookie, {});
    expect((await post(`${t.ws}/timer/stop?userId=${t.owner.userId}`, t.member.cookie, {})).statusCode).toBe(403);
    const stopped = await post(`${t.ws}/timer/stop?userId=${t.member.userId}`, t.manager.cookie, {});
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().userId).toBe(t.member.userId);
  });
});

describe("a manager's people", () => {
  it('are the members of the groups the manager is in and of the groups below; owners and admins see everyone', async () => {
    const t = await team();
    const add = async (role: Role) => {
      const user = await signUp(ctx.t.app);
      await membersRepository.add(ctx.t.db, { workspaceId: t.workspaceId, userId: user.userId, role });
      return user;
    };
    const admin = await add('admin');
    const below = await add('member');
    const outsider = await add('member');
    // A sub-group of a group the manager leads (the manager is not in it) counts; a group of their own doesn't.
    const managersGroup = await putInGroup(t.workspaceId, [t.manager.userId]);
    await putInGroup(t.workspaceId, [below.userId], managersGroup);
    await putInGroup(t.workspaceId, [outsider.userId]);
    const entryOf = async (user: SignedUp) =>
      (await call('POST', `${t.ws}/time-entries`, user.cookie, { start: hoursAgo(4), duration: '1h' })).json().id;
    const outsiderEntry = await entryOf(outsider);
    const belowEntry = await entryOf(below);
    const ownerEntry = await entryOf(t.owner);

    // List, get, edit, delete, bulk, timer and create for someone outside: refused.
    const m = t.manager.cookie;
    expect((await call('GET', `${t.ws}/time-entries?userId=${outsider.userId}`, m)).statusCode).toBe(403);
    expect((await call('GET', `${t.ws}/time-entries/${outsiderEntry}`, m)).statusCode).toBe(404);
    expect((await call('PATCH', `${t.ws}/time-entries/${ownerEntry}`, m, { note: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `${t.ws}/time-entries/${outsiderEntry}`, m)).statusCode).toBe(404);
    expect(
      (
        await call('POST', `${t.ws}/time-entries/bulk-update`, m, {
          ids: [belowEntry, outsiderEntry],
          set: { note: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    const forOutsider = await call('POST', `${t.ws}/time-entries`, m, {
      start: hoursAgo(2),
      duration: '1h',
      userId: outsider.userId,
    });
    expect(forOutsider.statusCode).toBe(403);
    expect(forOutsider.json().error.message).toMatch(/groups they manage/);
    expect((await call('GET', `${t.ws}/timer?userId=${t.owner.userId}`, m)).statusCode).toBe(403);

    // Their people: allowed.
    expect((await call('GET', `${t.ws}/time-entries/${belowEntry}`, m)).statusCode).toBe(200);
    expect((await call('PATCH', `${t.ws}/time-entries/${belowEntry}`, m, { note: 'ok' })).json().note).toBe('ok');
    const all = await call('GET', `${t.ws}/time-entries?userId=all&limit=1000`, m);
    expect(new Set(all.json().items.map((e: { userId: string }) => e.userId))).toEqual(new Set([below.userId]));
    const picker = (await call('GET', `${t.ws}/time-entries/people`, m))
      .json()
      .items.map((p: { userId: string }) => p.userId);
    expect(picker[0]).toBe(t.manager.userId);
    expect(new Set(picker)).toEqual(new Set([t.manager.userId, t.member.userId, below.userId]));

    // Admin and owner: everyone; a member: only themselves.
    expect((await call('GET', `${t.ws}/time-entries/${outsiderEntry}`, admin.cookie)).statusCode).toBe(200);
    expect((await call('PATCH', `${t.ws}/time-entries/${outsiderEntry}`, admin.cookie, { note: 'a' })).statusCode).toBe(
      200,
    );
    const adminPicker = (await call('GET', `${t.ws}/time-entries/people`, admin.cookie)).json().items;
    expect(adminPicker).toHaveLength(6);
    const ownerAll = await call('GET', `${t.ws}/time-entries?userId=all&limit=1000`, t.owner.cookie);
    expect(new Set(ownerAll.json().items.map((e: { userId: string }) => e.userId))).toEqual(
      new Set([outsider.userId, below.userId, t.owner.userId]),
    );
    const memberPicker = (await call('GET', `${t.ws}/time-entries/people`, outsider.cookie)).json().items;
    expect(memberPicker.map((p: { userId: string }) => p.userId)).toEqual([outsider.userId]);
  });
});

describe('booking time on projects', () => {
  it('lets members and guests book only on projects they can see, with a clear message', async () => {
    const t = await team();
    const guest = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, { workspaceId: t.workspaceId, userId: guest.userId, role: 'guest' });
    const open = await buildProject(t.workspaceId);
    const closed = await buildProject(t.workspaceId, { isPublic: false });
    const viaGroup = await buildProject(t.workspaceId, { isPublic: false });
    const direct = await buildProject(t.workspaceId, { isPublic: false });
    const groupId = await putInGroup(t.workspaceId, [guest.userId]);
    await ctx.t.db
      .insertInto('project_members')
      .values([
        { id: newId(), workspace_id: t.workspaceId, project_id: viaGroup.projectId, group_id: groupId },
        { id: newId(), workspace_id: t.workspaceId, project_id: direct.projectId, user_id: t.member.userId },
      ])
      .execute();
    const book = (cookie: string, body: object) =>
      call('POST', `${t.ws}/time-entries`, cookie, { start: hoursAgo(3), duration: '1h', ...body });

    for (const cookie of [t.member.cookie, guest.cookie]) {
      const refused = await book(cookie, { projectId: closed.projectId });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.fields.projectId).toMatch(/not on this project/);
      // Through a task of it, or with the timer: refused as well.
      expect((await book(cookie, { taskId: closed.taskId })).statusCode).toBe(422);
      expect((await post(`${t.ws}/timer/start`, cookie, { projectId: closed.projectId })).statusCode).toBe(422);
      // A public project is open to members; guests book only where they are assigned.
      expect((await book(cookie, { projectId: open.projectId })).statusCode).toBe(cookie === guest.cookie ? 422 : 201);
    }
    expect((await book(t.member.cookie, { projectId: direct.projectId })).statusCode).toBe(201);
    expect((await book(guest.cookie, { projectId: viaGroup.projectId })).statusCode).toBe(201);
    expect((await book(guest.cookie, { projectId: direct.projectId })).statusCode).toBe(422);
    // Moving an entry onto it, or bulk-setting it: refused too.
    const mine = (await book(t.member.cookie, {})).json();
    expect(
      (await call('PATCH', `${t.ws}/time-entries/${mine.id}`, t.member.cookie, { projectId: closed.projectId }))
        .statusCode,
    ).toBe(422);
    expect(
      (
        await call('POST', `${t.ws}/time-entries/bulk-update`, t.member.cookie, {
          ids: [mine.id],
          set: { projectId: closed.projectId },
        })
      ).statusCode,
    ).toBe(422);
    // Managers (who see every project) may.
    expect((await book(t.manager.cookie, { projectId: closed.projectId })).statusCode).toBe(201);
    const count = await ctx.t.db
      .selectFrom('time_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', closed.projectId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);

    // Booking for someone else: the project must be one of theirs, whoever books it.
    const forMember = await book(t.owner.cookie, { projectId: closed.projectId, userId: t.member.userId });
    expect(forMember.statusCode).toBe(422);
    expect(forMember.json().error.fields.projectId).toMatch(/person this time belongs to/);
    expect((await book(t.owner.cookie, { projectId: direct.projectId, userId: t.member.userId })).statusCode).toBe(201);
    expect(
      (
        await call('POST', `${t.ws}/time-entries/bulk-update`, t.owner.cookie, {
          ids: [mine.id],
          set: { projectId: closed.projectId },
        })
      ).statusCode,
    ).toBe(422);
  });
});

describe('undo of a delete', () => {
  it('brings back the same entry with its breaks and tags, within the window only', async () => {
    const t = await team();
    const { projectId, taskId } = await buildProject(t.workspaceId);
    const tagId = await buildTag(t.workspaceId);
    const started = (
      await post(`${t.ws}/timer/start`, t.member.cookie, { note: 'with a break', projectId, taskId, tagIds: [tagId] })
    ).json().entry;
    // A break of a known length, then stop.
    await ctx.t.db
      .updateTable('time_entries')
      .set({ start_at: new Date(Date.now() - 3_600_000) })
      .where('id', '=', started.id)
      .execute();
    await ctx.t.db
      .insertInto('time_entry_breaks')
      .values({
        id: newId(),
        workspace_id: t.workspaceId,
        entry_id: started.id,
        start_at: new Date(Date.now() - 1_800_000),
        end_at: new Date(Date.now() - 1_200_000),
      })
      .execute();
    const stopped = (await post(`${t.ws}/timer/stop`, t.member.cookie, {})).json();
    expect(stopped.breaks).toHaveLength(1);
    const url = `${t.ws}/time-entries/${stopped.id}`;

    expect((await call('DELETE', url, t.member.cookie)).statusCode).toBe(204);
    expect((await call('GET', url, t.member.cookie)).statusCode).toBe(404);
    // Somebody else cannot restore it.
    expect((await call('POST', `${t.ws}/time-entries/restore`, undefined, { ids: [stopped.id] })).statusCode).toBe(401);
    const stranger = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: t.workspaceId,
      userId: stranger.userId,
      role: 'member',
    });
    expect(
      (await call('POST', `${t.ws}/time-entries/restore`, stranger.cookie, { ids: [stopped.id] })).statusCode,
    ).toBe(404);

    const restored = await call('POST', `${t.ws}/time-entries/restore`, t.member.cookie, { ids: [stopped.id] });
    expect(restored.statusCode).toBe(200);
    const again = (await call('GET', url, t.member.cookie)).json();
    expect(again).toMatchObject({
      id: stopped.id,
      note: 'with a break',
      projectId,
      taskId,
      tagIds: [tagId],
      start: stopped.start,
      end: stopped.end,
      durationSeconds: stopped.durationSeconds,
      breaks: stopped.breaks,
    });
    // 60 minutes minus a 10-minute break.
    expect(Math.abs(stopped.durationSeconds - 3000)).toBeLessThanOrEqual(2);
    // Restoring twice: nothing left to restore.
    expect(
      (await call('POST', `${t.ws}/time-entries/restore`, t.member.cookie, { ids: [stopped.id] })).statusCode,
    ).toBe(404);

    // Bulk delete, then restore both; and after the window, nothing comes back.
    const a = (
      await call('POST', `${t.ws}/time-entries`, t.member.cookie, { start: hoursAgo(5), duration: '1h' })
    ).json();
    const b = (
      await call('POST', `${t.ws}/time-entries`, t.member.cookie, { start: hoursAgo(7), duration: '1h' })
    ).json();
    await call('POST', `${t.ws}/time-entries/bulk-delete`, t.member.cookie, { ids: [a.id, b.id] });
    const both = await call('POST', `${t.ws}/time-entries/restore`, t.member.cookie, { ids: [a.id, b.id] });
    expect(
      both
        .json()
        .items.map((e: { id: string }) => e.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    await call('DELETE', `${t.ws}/time-entries/${a.id}`, t.member.cookie);
    await ctx.t.db
      .updateTable('time_entry_trash')
      .set({ deleted_at: new Date(Date.now() - 11 * 60_000) })
      .where('entry_id', '=', a.id)
      .execute();
    const late = await call('POST', `${t.ws}/time-entries/restore`, t.member.cookie, { ids: [a.id] });
    expect(late.statusCode).toBe(404);
    expect(late.json().error.message).toMatch(/10 minutes/);
  });
});
