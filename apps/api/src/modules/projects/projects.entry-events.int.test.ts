import type { TimeEntryEvent } from '@sundial/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SignedUp, sendCsv, signUp, useTestApp } from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

/**
 * Deleting projects, tasks and tags and importing files change time entries (through the
 * time-entries service); open timesheets (live-update subscribers) hear of it once the
 * transaction has committed.
 */
const ctx = useTestApp();

interface Heard {
  event: TimeEntryEvent;
  /** Which of the event's entries a separate read found the moment the event arrived. */
  stored: Promise<string[]>;
}
let heard: Heard[] = [];
let unsubscribe = () => {};
let owner: SignedUp;
let teammate: SignedUp;
let ws: string;

beforeEach(async () => {
  owner = await signUp(ctx.t.app);
  teammate = await signUp(ctx.t.app);
  await membersRepository.add(ctx.t.db, {
    workspaceId: owner.workspaceId,
    userId: teammate.userId,
    role: 'member',
  });
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  heard = [];
  unsubscribe = await ctx.t.app.services.liveUpdates.subscribe({
    workspaceId: owner.workspaceId,
    userId: null,
    send: (event) => {
      const stored = ctx.t.db
        .selectFrom('time_entries')
        .select('id')
        .where('id', 'in', event.entryIds)
        .execute()
        .then((rows) => rows.map((r) => r.id).sort());
      heard.push({ event, stored });
    },
  });
});
afterEach(() => unsubscribe());

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

/** Waits until events for `count` users have arrived, then returns them (by user) and clears the list. */
async function hear(count: number): Promise<Map<string, Heard>> {
  for (let waited = 0; heard.length < count && waited < 2000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await settle();
  const got = heard;
  heard = [];
  expect(got.map((h) => h.event.userId).sort()).toHaveLength(count);
  return new Map(got.map((h) => [h.event.userId, h]));
}

async function call(method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, who: SignedUp, body?: object) {
  return ctx.call(method, `${ws}${url}`, who.cookie, body);
}

function togglExport(): string {
  return [
    'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags',
    `Ann,${owner.email},Acme,Website,Design,Wireframes,Yes,2026-11-02,09:00:00,2026-11-02,10:30:00,01:30:00,"design, meeting"`,
    `Bob,${teammate.email},Acme,Website,,Review,No,2026-11-03,14:00:00,2026-11-03,14:45:00,00:45:00,meeting`,
    `Ann,${owner.email},,,,Email,No,2026-11-04,08:00:00,2026-11-04,08:15:00,00:15:00,`,
  ].join('\n');
}

/** Uploads a Toggl export (the raw body, as the web sends it) and asks for it to be imported. */
async function runImport(csv: string) {
  const read = await sendCsv(ctx.t.app, `${ws}/imports?source=toggl`, owner.cookie, csv);
  expect(read.statusCode, read.body).toBe(201);
  return call('POST', `/imports/${read.json().id}/run`, owner);
}

/** Imports the export (its job run now) and returns its entries by note. */
async function imported(): Promise<Record<string, { id: string; user_id: string }>> {
  expect((await runImport(togglExport())).statusCode).toBe(202);
  await ctx.t.app.services.jobs.drain();
  const rows = await ctx.t.db
    .selectFrom('time_entries')
    .select(['id', 'user_id', 'note'])
    .where('workspace_id', '=', owner.workspaceId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.note, r]));
}

describe('time-entry changes made by projects, tasks, tags and imports', () => {
  it('an import announces its entries as created, per user, once they are stored', async () => {
    const refused = await runImport(`${togglExport()}\nbroken,row`);
    expect(refused.statusCode).toBe(422);
    await settle();
    expect(heard).toEqual([]);

    const entries = await imported();
    const events = await hear(2);
    const mine = [entries.Wireframes?.id, entries.Email?.id].sort();
    expect(events.get(owner.userId)?.event).toEqual({
      type: 'created',
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      entryIds: expect.arrayContaining(mine),
    });
    expect(await events.get(owner.userId)?.stored).toEqual(mine);
    expect(events.get(teammate.userId)?.event).toMatchObject({ type: 'created', entryIds: [entries.Review?.id] });
  });

  it('deleting a project announces its entries as deleted, once they are gone; a refused delete says nothing', async () => {
    const entries = await imported();
    await hear(2);
    const project = (await call('GET', '/projects', owner)).json().items[0];

    expect((await call('PATCH', `/projects/${project.id}`, owner, { isPublic: true })).statusCode).toBe(200);
    expect((await call('DELETE', `/projects/${project.id}`, teammate)).statusCode).toBe(403);
    await settle();
    expect(heard).toEqual([]);

    expect((await call('DELETE', `/projects/${project.id}`, owner)).statusCode).toBe(204);
    const events = await hear(2);
    expect(events.get(owner.userId)?.event).toMatchObject({ type: 'deleted', entryIds: [entries.Wireframes?.id] });
    expect(events.get(teammate.userId)?.event).toMatchObject({ type: 'deleted', entryIds: [entries.Review?.id] });
    for (const { stored } of events.values()) expect(await stored).toEqual([]);
  });

  it('deleting a task announces the entries that lose it (its sub-tasks’ too) as updated', async () => {
    const entries = await imported();
    await hear(2);
    const project = (await call('GET', '/projects', owner)).json().items[0];
    const design = (await call('GET', `/projects/${project.id}/tasks`, owner)).json().items[0];
    const sub = (
      await call('POST', `/projects/${project.id}/tasks`, owner, { name: 'Logo', parentTaskId: design.id })
    ).json().id;
    const onSub = await call('POST', '/time-entries', owner, {
      start: '2026-11-05T09:00:00Z',
      duration: '30m',
      projectId: project.id,
      taskId: sub,
    });
    expect(onSub.statusCode, onSub.body).toBe(201);
    await hear(1);

    expect((await call('DELETE', `/tasks/${design.id}`, owner)).statusCode).toBe(204);
    const events = await hear(1);
    expect(events.get(owner.userId)?.event).toMatchObject({ type: 'updated' });
    expect(events.get(owner.userId)?.event.entryIds.sort()).toEqual([entries.Wireframes?.id, onSub.json().id].sort());
    expect(await events.get(owner.userId)?.stored).toHaveLength(2);
  });

  it('merging or deleting a tag announces the entries that carried it as updated', async () => {
    const entries = await imported();
    await hear(2);
    const tags = (await call('GET', '/tags', owner)).json().items as { id: string; name: string }[];
    const tag = (name: string) => tags.find((t) => t.name === name)?.id;

    expect((await call('POST', `/tags/${tag('design')}/merge`, owner, { intoTagId: tag('meeting') })).statusCode).toBe(
      200,
    );
    const merged = await hear(1);
    expect(merged.get(owner.userId)?.event).toMatchObject({ type: 'updated', entryIds: [entries.Wireframes?.id] });

    expect((await call('DELETE', `/tags/${tag('meeting')}`, owner)).statusCode).toBe(204);
    const deleted = await hear(2);
    expect(deleted.get(owner.userId)?.event.entryIds).toEqual([entries.Wireframes?.id]);
    expect(deleted.get(teammate.userId)?.event.entryIds).toEqual([entries.Review?.id]);
  });

  it('is heard only when the transaction commits, and never when it rolls back', async () => {
    const announce = (tx: typeof ctx.t.db, entry: { id: string; user_id: string }) =>
      ctx.t.app.services.events.publish(tx, {
        name: 'time_entry.updated',
        workspaceId: owner.workspaceId,
        actorUserId: owner.userId,
        payload: { userId: entry.user_id, entryIds: [entry.id] },
      });
    const entry = { id: crypto.randomUUID(), user_id: owner.userId };
    const rollback = new Error('rolled back');
    await expect(
      ctx.t.db.transaction().execute(async (tx) => {
        await announce(tx, entry);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    await settle();
    expect(heard).toEqual([]);

    await ctx.t.db.transaction().execute(async (tx) => {
      await announce(tx, entry);
      await settle();
      expect(heard).toEqual([]);
    });
    expect((await hear(1)).get(owner.userId)?.event.entryIds).toEqual([entry.id]);
  });
});
