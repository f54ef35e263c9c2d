import { describe, expect, it } from 'vitest';
import { joinWorkspace, type SignedUp, sendCsv, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';

/**
 * Advanced tags: a list's rules (pick one, restricted to projects, required on projects) are set by
 * those who manage tags and kept by every write of time: timer, manual entry, edits, bulk edits,
 * imports; a broken rule is a 422 whose message names the list.
 */
const ctx = useTestApp();
let owner: SignedUp;
const { call, ok } = workspaceCalls(ctx, () => `/api/v1/workspaces/${owner.workspaceId}`);

const DAY = '2026-11-02';
const at = (hour: number) => `${DAY}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const entry = (hour: number, projectId: string | null, tagIds: string[]) => ({
  start: at(hour),
  end: at(hour + 1),
  projectId,
  tagIds,
});

async function setUp() {
  owner = await signUp(ctx.t.app);
  const website = (await ok(owner, 'POST', '/projects', { name: 'Website' })).id as string;
  const support = (await ok(owner, 'POST', '/projects', { name: 'Support' })).id as string;
  const list = async (name: string, tags: string[]) => {
    const id = (await ok(owner, 'POST', '/tag-lists', { name })).id as string;
    const ids: string[] = [];
    for (const tag of tags) ids.push((await ok(owner, 'POST', `/tag-lists/${id}/tags`, { name: tag })).id);
    return { id, tags: ids };
  };
  return {
    website,
    support,
    phase: await list('Phase', ['Design', 'Build']),
    activity: await list('Activity', ['Meeting', 'Call']),
    tickets: await list('Tickets', ['Ticket']),
  };
}

const message = (response: { statusCode: number; json(): { error: { message: string; fields?: object } } }) => [
  response.statusCode,
  response.json().error?.message,
];

describe('tag list rules', () => {
  it('are set by the list and read back with it, and a project is checked to be of the workspace', async () => {
    const s = await setUp();
    const rules = { exclusive: true, projectIds: [s.website], requiredProjectIds: [s.support] };
    const set = await ok(owner, 'PUT', `/tag-lists/${s.phase.id}/rules`, rules);
    expect(set).toMatchObject({ name: 'Phase', ...rules });
    const listed = (await ok(owner, 'GET', '/tag-lists')).items;
    expect(listed.find((l: { id: string }) => l.id === s.phase.id)).toMatchObject(rules);
    expect(listed.find((l: { id: string }) => l.id === s.activity.id)).toMatchObject({
      exclusive: false,
      projectIds: [],
      requiredProjectIds: [],
    });

    const stranger = await signUp(ctx.t.app);
    const theirs = (
      await ctx.call('POST', `/api/v1/workspaces/${stranger.workspaceId}/projects`, stranger.cookie, { name: 'X' })
    ).json().id;
    const bad = await call(owner, 'PUT', `/tag-lists/${s.phase.id}/rules`, { ...rules, projectIds: [theirs] });
    expect([bad.statusCode, bad.json().error.fields]).toEqual([
      422,
      { projectIds: 'A project does not exist in the workspace.' },
    ]);
    // Their list is not found here, nor our list there.
    const theirList = (
      await ctx.call('POST', `/api/v1/workspaces/${stranger.workspaceId}/tag-lists`, stranger.cookie, { name: 'L' })
    ).json().id;
    expect((await call(owner, 'PUT', `/tag-lists/${theirList}/rules`, rules)).statusCode).toBe(404);
    expect((await call(owner, 'PUT', `/projects/${theirs}/required-tag-lists`, { tagListIds: [] })).statusCode).toBe(
      404,
    );

    const off = await ok(owner, 'PUT', `/tag-lists/${s.phase.id}/rules`, {
      exclusive: false,
      projectIds: [],
      requiredProjectIds: [],
    });
    expect(off).toMatchObject({ exclusive: false, projectIds: [], requiredProjectIds: [] });
  });

  it('are set by owners, admins and managers; members and guests are refused', async () => {
    const s = await setUp();
    const rules = { exclusive: true, projectIds: [], requiredProjectIds: [] };
    for (const role of ['admin', 'manager'] as const) {
      const who = await joinWorkspace(ctx.t, owner.workspaceId, role);
      await ok(who, 'PUT', `/tag-lists/${s.phase.id}/rules`, rules);
      await ok(who, 'PUT', `/projects/${s.website}/required-tag-lists`, { tagListIds: [s.activity.id] });
    }
    for (const role of ['member', 'guest'] as const) {
      const who = await joinWorkspace(ctx.t, owner.workspaceId, role);
      expect((await call(who, 'PUT', `/tag-lists/${s.phase.id}/rules`, rules)).statusCode).toBe(403);
      const required = await call(who, 'PUT', `/projects/${s.website}/required-tag-lists`, { tagListIds: [] });
      expect(required.statusCode).toBe(403);
    }
    expect((await call(undefined, 'PUT', `/tag-lists/${s.phase.id}/rules`, rules)).statusCode).toBe(401);
  });

  it('pick one: two tags of an exclusive list are refused by every write, one is fine', async () => {
    const s = await setUp();
    await ok(owner, 'PUT', `/tag-lists/${s.phase.id}/rules`, {
      exclusive: true,
      projectIds: [],
      requiredProjectIds: [],
    });
    const [design, build] = s.phase.tags as [string, string];
    const both = [design, build];
    const refused = [422, 'Pick only one tag from "Phase": "Design" and "Build" exclude each other.'];
    const created = await call(owner, 'POST', '/time-entries', entry(9, s.website, both));
    expect(message(created)).toEqual(refused);
    expect(created.json().error.fields).toEqual({ tagIds: refused[1] });
    const one = await ok(owner, 'POST', '/time-entries', entry(9, s.website, [design, ...s.activity.tags]));
    expect(message(await call(owner, 'PATCH', `/time-entries/${one.id}`, { tagIds: both }))).toEqual(refused);
    const bulk = await call(owner, 'POST', '/time-entries/bulk-update', { ids: [one.id], set: { addTagIds: [build] } });
    expect(message(bulk)).toEqual(refused);
    expect(message(await call(owner, 'POST', '/timer/start', { projectId: s.website, tagIds: both }))).toEqual(refused);
    // Another list's tags are not its business.
    await ok(owner, 'POST', '/time-entries/bulk-update', { ids: [one.id], set: { removeTagIds: s.activity.tags } });
    expect((await ok(owner, 'GET', `/time-entries/${one.id}`)).tagIds).toEqual([design]);
  });

  it('pick one: merging a tag that would give an entry two tags of an exclusive list is refused, nothing merged', async () => {
    const s = await setUp();
    await ok(owner, 'PUT', `/tag-lists/${s.phase.id}/rules`, {
      exclusive: true,
      projectIds: [],
      requiredProjectIds: [],
    });
    const [design, build] = s.phase.tags as [string, string];
    const [meeting] = s.activity.tags as [string];
    const tagged = await ok(owner, 'POST', '/time-entries', entry(9, s.website, [design, meeting]));
    const merge = () => call(owner, 'POST', `/tags/${meeting}/merge`, { intoTagId: build });
    const refused = await merge();
    expect(message(refused)).toEqual([422, 'Pick only one tag from "Phase": "Design" and "Build" exclude each other.']);
    expect(refused.json().error.fields).toEqual({ tagIds: refused.json().error.message });
    expect((await ok(owner, 'GET', `/time-entries/${tagged.id}`)).tagIds.sort()).toEqual([design, meeting].sort());
    // Without the other tag of the list, the merge is fine.
    await ok(owner, 'POST', '/time-entries/bulk-update', { ids: [tagged.id], set: { removeTagIds: [design] } });
    expect((await merge()).statusCode).toBe(200);
    expect((await ok(owner, 'GET', `/time-entries/${tagged.id}`)).tagIds).toEqual([build]);
  });

  it('restricted: a list kept to some projects is refused on the others and without a project', async () => {
    const s = await setUp();
    const [ticket] = s.tickets.tags as [string];
    await ok(owner, 'PUT', `/tag-lists/${s.tickets.id}/rules`, {
      exclusive: false,
      projectIds: [s.support],
      requiredProjectIds: [],
    });
    await ok(owner, 'POST', '/time-entries', entry(9, s.support, [ticket]));
    expect(message(await call(owner, 'POST', '/time-entries', entry(10, s.website, [ticket])))).toEqual([
      422,
      'Tags of "Tickets" cannot be used on this project: remove "Ticket".',
    ]);
    expect(message(await call(owner, 'POST', '/time-entries', entry(10, null, [ticket])))).toEqual([
      422,
      'Tags of "Tickets" are for some projects only: choose one of them, or remove "Ticket".',
    ]);
    const running = await ok(owner, 'POST', '/timer/start', { projectId: s.support, tagIds: [ticket] });
    // Moving the tagged entry to another project is a write like any other.
    const moved = await call(owner, 'PATCH', `/time-entries/${running.entry.id}`, { projectId: s.website });
    expect(message(moved)[0]).toBe(422);
  });

  it('required: a stopped entry of the project needs a tag of the list; the timer is asked at its stop', async () => {
    const s = await setUp();
    const [meeting] = s.activity.tags as [string];
    await ok(owner, 'PUT', `/projects/${s.website}/required-tag-lists`, { tagListIds: [s.activity.id] });
    expect((await ok(owner, 'GET', `/tag-lists/${s.activity.id}`)).requiredProjectIds).toEqual([s.website]);
    const needs = [422, 'This project needs a tag from "Activity": pick one.'];
    expect(message(await call(owner, 'POST', '/time-entries', entry(9, s.website, s.phase.tags.slice(0, 1))))).toEqual(
      needs,
    );
    await ok(owner, 'POST', '/time-entries', entry(9, s.support, []));
    const saved = await ok(owner, 'POST', '/time-entries', entry(10, s.website, [meeting]));
    expect(message(await call(owner, 'PATCH', `/time-entries/${saved.id}`, { tagIds: [] }))).toEqual(needs);

    const started = await ok(owner, 'POST', '/timer/start', { projectId: s.website });
    expect(message(await call(owner, 'POST', '/timer/stop', {}))).toEqual([
      422,
      'This project needs a tag from "Activity": pick one before stopping the timer.',
    ]);
    await ok(owner, 'PATCH', `/time-entries/${started.entry.id}`, { tagIds: [meeting] });
    expect((await ok(owner, 'POST', '/timer/stop', {})).tagIds).toEqual([meeting]);

    // An archived list is no longer required.
    await ok(owner, 'POST', `/tag-lists/${s.activity.id}/archive`);
    await ok(owner, 'POST', '/time-entries', entry(12, s.website, []));
  });

  it('required: an import of entries without the list stops and says which list', async () => {
    const s = await setUp();
    await ok(owner, 'PUT', `/projects/${s.website}/required-tag-lists`, { tagListIds: [s.activity.id] });
    const csv = [
      'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags',
      `Ann,${owner.email},,Website,,Wireframes,No,2026-11-02,09:00:00,2026-11-02,10:00:00,01:00:00,`,
    ].join('\n');
    const base = `/api/v1/workspaces/${owner.workspaceId}`;
    const read = await sendCsv(ctx.t.app, `${base}/imports?source=toggl`, owner.cookie, csv);
    expect(read.statusCode, read.body).toBe(201);
    await ok(owner, 'POST', `/imports/${read.json().id}/run`);
    await ctx.t.app.services.jobs.drain();
    const done = await ok(owner, 'GET', `/imports/${read.json().id}`);
    expect([done.status, done.message]).toEqual([
      'failed',
      'The import stopped: This project needs a tag from "Activity": pick one. Nothing was imported.',
    ]);
  });
});
