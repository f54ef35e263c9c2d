import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

describe('tag lists and tags', () => {
  it('adds, renames, archives, restores and deletes tag lists and tags', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const list = await call('POST', `${ws}/tag-lists`, owner.cookie, { name: ' Activity type ' });
    expect(list.statusCode).toBe(201);
    expect(list.json()).toMatchObject({ name: 'Activity type', archived: false, tags: [] });
    const id = list.json().id;

    const dupList = await call('POST', `${ws}/tag-lists`, owner.cookie, { name: 'activity TYPE' });
    expect(dupList.statusCode).toBe(409);
    expect(dupList.json().error.message).toBe('A tag list with this name already exists.');
    expect((await call('POST', `${ws}/tag-lists`, owner.cookie, { name: '' })).json().error.fields.name).toBe(
      'Tag list name is required.',
    );

    const meeting = (await call('POST', `${ws}/tag-lists/${id}/tags`, owner.cookie, { name: 'Meeting' })).json();
    await call('POST', `${ws}/tag-lists/${id}/tags`, owner.cookie, { name: 'Design' });
    const dup = await call('POST', `${ws}/tag-lists/${id}/tags`, owner.cookie, { name: 'meeting' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe('A tag with this name already exists in this list.');

    expect((await call('PATCH', `${ws}/tags/${meeting.id}`, owner.cookie, { name: 'Meetings' })).json().name).toBe(
      'Meetings',
    );
    expect((await call('POST', `${ws}/tags/${meeting.id}/archive`, owner.cookie)).json().archived).toBe(true);
    const active = (await call('GET', `${ws}/tags`, owner.cookie)).json();
    expect(active.items.map((t: { name: string }) => t.name)).toEqual(['Design']);
    const all = (await call('GET', `${ws}/tags?archived=all&search=meet`, owner.cookie)).json();
    expect(all).toMatchObject({ total: 1, items: [{ name: 'Meetings', archived: true }] });
    expect((await call('POST', `${ws}/tags/${meeting.id}/restore`, owner.cookie)).json().archived).toBe(false);
    expect((await call('GET', `${ws}/tags/${meeting.id}`, owner.cookie)).json().name).toBe('Meetings');

    const renamed = await call('PATCH', `${ws}/tag-lists/${id}`, owner.cookie, { name: 'Activity' });
    expect(renamed.json()).toMatchObject({ name: 'Activity' });
    expect(renamed.json().tags).toHaveLength(2);
    expect((await call('POST', `${ws}/tag-lists/${id}/archive`, owner.cookie)).json().archived).toBe(true);
    expect((await call('GET', `${ws}/tag-lists`, owner.cookie)).json().total).toBe(0);
    expect((await call('GET', `${ws}/tag-lists?archived=all`, owner.cookie)).json().total).toBe(1);
    expect((await call('POST', `${ws}/tag-lists/${id}/restore`, owner.cookie)).json().archived).toBe(false);
    expect((await call('GET', `${ws}/tag-lists/${id}`, owner.cookie)).json().name).toBe('Activity');

    const other = (await call('POST', `${ws}/tag-lists`, owner.cookie, { name: 'Other' })).json();
    const moved = await call('PATCH', `${ws}/tags/${meeting.id}`, owner.cookie, { tagListId: other.id });
    expect(moved.json().tagListId).toBe(other.id);

    expect((await call('DELETE', `${ws}/tag-lists/${id}`, owner.cookie)).statusCode).toBe(204);
    expect((await call('GET', `${ws}/tag-lists/${id}`, owner.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `${ws}/tags/${meeting.id}`, owner.cookie)).statusCode).toBe(204);
    expect((await call('GET', `${ws}/tags`, owner.cookie)).json().total).toBe(0);
  });

  it('merges a tag into another, moving its time entries once', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const list = (await call('POST', `${ws}/tag-lists`, owner.cookie, { name: 'Kind' })).json();
    const dev = (await call('POST', `${ws}/tag-lists/${list.id}/tags`, owner.cookie, { name: 'Dev' })).json();
    const development = (
      await call('POST', `${ws}/tag-lists/${list.id}/tags`, owner.cookie, { name: 'Development' })
    ).json();
    const entries = [newId(), newId()];
    for (const [i, id] of entries.entries()) {
      const start = new Date(Date.UTC(2026, 10, 2 + i, 9));
      await ctx.t.db
        .insertInto('time_entries')
        .values({
          id,
          workspace_id: owner.workspaceId,
          user_id: owner.userId,
          start_at: start,
          end_at: new Date(start.getTime() + 3600_000),
          duration_seconds: 3600,
        })
        .execute();
    }
    // The first entry has both tags, the second only "Dev".
    await ctx.t.db
      .insertInto('time_entry_tags')
      .values([
        { workspace_id: owner.workspaceId, entry_id: entries[0] as string, tag_id: dev.id },
        { workspace_id: owner.workspaceId, entry_id: entries[0] as string, tag_id: development.id },
        { workspace_id: owner.workspaceId, entry_id: entries[1] as string, tag_id: dev.id },
      ])
      .execute();

    // What a delete would touch, for the confirmation: only managers of tags are told.
    expect((await call('GET', `${ws}/tags/${dev.id}`, owner.cookie)).json()).toMatchObject({ entryCount: 2 });
    expect((await call('GET', `${ws}/tags/${development.id}`, owner.cookie)).json()).toMatchObject({ entryCount: 1 });
    const member = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: member.userId,
      role: 'member',
    });
    expect((await call('GET', `${ws}/tags/${dev.id}`, member.cookie)).json()).toMatchObject({ entryCount: null });

    const self = await call('POST', `${ws}/tags/${dev.id}/merge`, owner.cookie, { intoTagId: dev.id });
    expect(self.statusCode).toBe(422);
    const merged = await call('POST', `${ws}/tags/${dev.id}/merge`, owner.cookie, { intoTagId: development.id });
    expect(merged.statusCode).toBe(200);
    expect((await call('GET', `${ws}/tags/${dev.id}`, owner.cookie)).statusCode).toBe(404);
    const links = await ctx.t.db
      .selectFrom('time_entry_tags')
      .select(['entry_id', 'tag_id'])
      .where('workspace_id', '=', owner.workspaceId)
      .orderBy('entry_id')
      .execute();
    expect(links).toEqual([
      { entry_id: entries[0], tag_id: development.id },
      { entry_id: entries[1], tag_id: development.id },
    ]);
  });

  it('saves the tag setting for managers and refuses members', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    expect((await call('GET', `${ws}/tag-settings`, owner.cookie)).json()).toEqual({ tagsRequired: false });
    expect((await call('PUT', `${ws}/tag-settings`, owner.cookie, { tagsRequired: true })).json()).toEqual({
      tagsRequired: true,
    });
    expect((await call('GET', `${ws}/tag-settings`, owner.cookie)).json()).toEqual({ tagsRequired: true });
    const stranger = await signUp(ctx.t.app);
    expect((await call('GET', `${ws}/tag-settings`, stranger.cookie)).statusCode).toBe(404);
  });
});
