import { PICKER_PAGE } from '@sundial/core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp } from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

/**
 * The time-entry pickers at a workspace's real size: one answer lists the first PICKER_PAGE
 * projects and says whether that is all; the rest are found by searching on the server, and the
 * projects the shown entries name are asked for by id.
 */
const ctx = useTestApp();

let owner: SignedUp;
let member: SignedUp;
let ws: string;
let lastId: string;
let secretId: string;

interface Picker {
  items: { id: string; name: string; tasks: { name: string }[]; trackedSeconds?: number }[];
  complete: boolean;
}

async function picker(who: SignedUp, query = '') {
  const response = await ctx.call('GET', `${ws}/project-picker${query}`, who.cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Picker;
}

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  member = await signUp(ctx.t.app);
  await membersRepository.add(ctx.t.db, {
    workspaceId: owner.workspaceId,
    userId: member.userId,
    role: 'member',
  });
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  // More public projects than one answer lists: "Project 001" … "Project 305".
  await sql`
    insert into projects (id, workspace_id, owner_user_id, name, is_public, created_at, updated_at)
    select gen_random_uuid(), ${owner.workspaceId}, ${owner.userId}, 'Project ' || lpad(i::text, 3, '0'), true, now(), now()
    from generate_series(1, ${PICKER_PAGE + 5}) i
  `.execute(ctx.t.db);
  const last = await ctx.t.db
    .selectFrom('projects')
    .select('id')
    .where('workspace_id', '=', owner.workspaceId)
    .where('name', '=', `Project ${PICKER_PAGE + 5}`)
    .executeTakeFirstOrThrow();
  lastId = last.id;
  await ctx.call('POST', `${ws}/projects/${lastId}/tasks`, owner.cookie, { name: 'Zebra crossing' });
  secretId = (await ctx.call('POST', `${ws}/projects`, owner.cookie, { name: 'Secret' })).json().id;
  const archived = (await ctx.call('POST', `${ws}/projects`, owner.cookie, { name: 'Project old' })).json().id;
  await ctx.call('POST', `${ws}/projects/${archived}/archive`, owner.cookie);
});

describe('the project picker at a real size', () => {
  it('lists the first projects by name, without totals, and says more are to be found by searching', async () => {
    const page = await picker(owner);
    expect(page.items).toHaveLength(PICKER_PAGE);
    expect(page.complete).toBe(false);
    expect(page.items[0]?.name).toBe('Project 001');
    expect(page.items.map((p) => p.name)).not.toContain(`Project ${PICKER_PAGE + 5}`);
    expect(page.items[0]).not.toHaveProperty('trackedSeconds');
  });

  it('finds a project past the first page by its name or a task name, with its tasks', async () => {
    const byName = await picker(owner, `?search=${PICKER_PAGE + 5}`);
    expect(byName).toEqual({
      items: [expect.objectContaining({ id: lastId, tasks: [expect.objectContaining({ name: 'Zebra crossing' })] })],
      complete: true,
    });
    const byTask = await picker(owner, '?search=zebra');
    expect(byTask.items.map((p) => p.id)).toEqual([lastId]);
    // Archived projects are not offered, and a search holding LIKE's wildcards matches them literally.
    expect((await picker(owner, '?search=old')).items).toEqual([]);
    expect((await picker(owner, '?search=%25')).items).toEqual([]);
  });

  it('returns the projects asked for by id, only those the caller may see', async () => {
    const byId = await picker(owner, `?ids=${lastId},${secretId}`);
    expect(byId.items.map((p) => p.name)).toEqual([`Project ${PICKER_PAGE + 5}`, 'Secret']);
    expect(byId.complete).toBe(true);
    expect((await picker(member, `?ids=${lastId},${secretId}`)).items.map((p) => p.id)).toEqual([lastId]);
    expect((await picker(member, '?search=secret')).items).toEqual([]);
  });

  it('refuses ids that are not project ids, or too many at once, with a message', async () => {
    const bad = await ctx.call('GET', `${ws}/project-picker?ids=nope`, owner.cookie);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('ids must be project ids separated by commas.');
    const many = Array.from({ length: 101 }, () => crypto.randomUUID()).join(',');
    const tooMany = await ctx.call('GET', `${ws}/project-picker?ids=${many}`, owner.cookie);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.body).toContain('At most 100 ids at once.');
  });
});
