import type { Role } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

interface Team {
  owner: SignedUp;
  byRole: Record<Exclude<Role, 'owner'>, SignedUp>;
  ws: string;
}

async function team(): Promise<Team> {
  const owner = await signUp(ctx.t.app);
  const byRole = {} as Team['byRole'];
  for (const role of ['admin', 'manager', 'member', 'guest'] as const) {
    byRole[role] = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: byRole[role].userId,
      role,
    });
  }
  return { owner, byRole, ws: `/api/v1/workspaces/${owner.workspaceId}` };
}

/** A group "Crew" of the team's workspace holding `members`; returns its id. */
async function crew(t: Team, members: SignedUp[]): Promise<string> {
  const id = newId();
  const workspaceId = t.owner.workspaceId;
  const now = new Date();
  await ctx.t.db
    .insertInto('groups')
    .values({ id, workspace_id: workspaceId, parent_id: null, name: 'Crew', created_at: now, updated_at: now })
    .execute();
  await ctx.t.db
    .insertInto('group_members')
    .values(members.map((m) => ({ workspace_id: workspaceId, group_id: id, user_id: m.userId })))
    .execute();
  return id;
}

describe('projects and tasks', () => {
  let t: Team;
  beforeAll(async () => {
    t = await team();
  });

  it('creates a client and a project with every edit-panel section, and reads them back', async () => {
    const client = await call('POST', `${t.ws}/clients`, t.owner.cookie, {
      name: ' Acme ',
      currency: 'eur',
      address: '1 Main St',
    });
    expect(client.statusCode).toBe(201);
    expect(client.json()).toMatchObject({ name: 'Acme', currency: 'EUR', projectCount: 0 });

    const created = await call('POST', `${t.ws}/projects`, t.owner.cookie, {
      name: '  Website  ',
      clientId: client.json().id,
      color: '#27ae60',
      description: '# Goals\nShip it',
      budget: { type: 'fee', amount: 150000, resetsMonthly: true },
      billableDefault: true,
      keywordsEnabled: true,
      keywords: ['web', 'site', 'web'],
    });
    expect(created.statusCode).toBe(201);
    const project = created.json();
    expect(project).toMatchObject({
      name: 'Website',
      clientName: 'Acme',
      color: '#27ae60',
      ownerEmail: t.owner.email,
      description: '# Goals\nShip it',
      budget: { type: 'fee', amount: 150000, resetsMonthly: true },
      billableDefault: true,
      keywordsEnabled: true,
      keywords: ['web', 'site'],
      archived: false,
      trackedSeconds: 0,
      people: { users: [], groups: [] },
    });

    const people = await call('PUT', `${t.ws}/projects/${project.id}/people`, t.owner.cookie, {
      userIds: [t.byRole.member.userId],
      groupIds: [],
    });
    expect(people.json().people.users).toEqual([expect.objectContaining({ email: t.byRole.member.email })]);

    const edited = await call('PATCH', `${t.ws}/projects/${project.id}`, t.owner.cookie, {
      budget: { type: 'hours', amount: 600 },
      billableDefault: false,
      description: null,
      clientId: null,
    });
    expect(edited.json()).toMatchObject({
      budget: { type: 'hours', amount: 600, resetsMonthly: false },
      billableDefault: false,
      description: null,
      clientId: null,
    });
    const again = (await call('GET', `${t.ws}/projects/${project.id}`, t.owner.cookie)).json();
    expect(again).toMatchObject({ budget: { type: 'hours', amount: 600 }, keywords: ['web', 'site'] });
    expect(again.people.users).toHaveLength(1);
  });

  it('nests tasks, moves them with their sub-tasks and refuses cycles', async () => {
    const a = (await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'Nest A' })).json();
    const b = (await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'Nest B' })).json();
    const design = await call('POST', `${t.ws}/projects/${a.id}/tasks`, t.owner.cookie, {
      name: 'Design',
      billableDefault: true,
      budget: { type: 'hours', amount: 120 },
    });
    expect(design.statusCode).toBe(201);
    const d = design.json();
    const logo = (
      await call('POST', `${t.ws}/projects/${a.id}/tasks`, t.owner.cookie, { name: 'Logo', parentTaskId: d.id })
    ).json();
    const sketch = (
      await call('POST', `${t.ws}/projects/${a.id}/tasks`, t.owner.cookie, { name: 'Sketch', parentTaskId: logo.id })
    ).json();
    expect(sketch.parentTaskId).toBe(logo.id);

    const list = (await call('GET', `${t.ws}/projects/${a.id}/tasks`, t.owner.cookie)).json().items;
    expect(list.map((x: { name: string }) => x.name)).toEqual(['Design', 'Logo', 'Sketch']);

    const dup = await call('POST', `${t.ws}/projects/${a.id}/tasks`, t.owner.cookie, {
      name: 'logo',
      parentTaskId: d.id,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe('A task with this title already exists here.');

    const cycle = await call('PATCH', `${t.ws}/tasks/${d.id}`, t.owner.cookie, { parentTaskId: sketch.id });
    expect(cycle.statusCode).toBe(422);
    expect(cycle.json().error.fields.parentTaskId).toBe('A task cannot be moved under itself.');

    const moved = await call('PATCH', `${t.ws}/tasks/${logo.id}`, t.owner.cookie, { projectId: b.id });
    expect(moved.json()).toMatchObject({ projectId: b.id, parentTaskId: null });
    const sketchNow = (await call('GET', `${t.ws}/tasks/${sketch.id}`, t.owner.cookie)).json();
    expect(sketchNow).toMatchObject({ projectId: b.id, parentTaskId: logo.id });

    const renamed = await call('PATCH', `${t.ws}/tasks/${d.id}`, t.owner.cookie, {
      name: 'Design 2',
      keywords: ['ux'],
    });
    expect(renamed.json()).toMatchObject({ name: 'Design 2', keywords: ['ux'], billableDefault: true });

    expect((await call('POST', `${t.ws}/tasks/${d.id}/archive`, t.owner.cookie)).json().archived).toBe(true);
    expect((await call('GET', `${t.ws}/projects/${a.id}/tasks`, t.owner.cookie)).json().items).toHaveLength(0);
    expect((await call('POST', `${t.ws}/tasks/${d.id}/restore`, t.owner.cookie)).json().archived).toBe(false);

    const people = await call('PUT', `${t.ws}/tasks/${d.id}/people`, t.owner.cookie, {
      userIds: [t.byRole.guest.userId],
      groupIds: [],
    });
    expect(people.json().people.users[0].email).toBe(t.byRole.guest.email);

    expect((await call('DELETE', `${t.ws}/tasks/${logo.id}`, t.owner.cookie)).statusCode).toBe(204);
    expect((await call('GET', `${t.ws}/tasks/${sketch.id}`, t.owner.cookie)).statusCode).toBe(404);
  });

  it('validates names: required, at most 255 characters, unique among siblings', async () => {
    const empty = await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().error.fields.name).toBe('Project name is required.');
    const long = await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'x'.repeat(256) });
    expect(long.json().error.fields.name).toBe('Project name must be at most 255 characters.');
    expect((await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'x'.repeat(255) })).statusCode).toBe(201);
    await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'Twice' });
    const twice = await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'twice ' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe('A project with this name already exists for this client.');
  });

  it('lists with search over project and task names, filters, sorting and pages', async () => {
    const fresh = await team();
    const names = ['Charlie', 'alpha', 'Bravo'];
    for (const name of names) await call('POST', `${fresh.ws}/projects`, fresh.owner.cookie, { name });
    const bravo = (await call('GET', `${fresh.ws}/projects?search=brav`, fresh.owner.cookie)).json();
    expect(bravo.items.map((p: { name: string }) => p.name)).toEqual(['Bravo']);
    await call('POST', `${fresh.ws}/projects/${bravo.items[0].id}/tasks`, fresh.owner.cookie, { name: 'Homepage' });
    const byTask = (await call('GET', `${fresh.ws}/projects?search=homep`, fresh.owner.cookie)).json();
    expect(byTask.items.map((p: { name: string }) => p.name)).toEqual(['Bravo']);
    expect(byTask.items[0].taskCount).toBe(1);

    const page1 = (await call('GET', `${fresh.ws}/projects?limit=2`, fresh.owner.cookie)).json();
    expect(page1).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page1.items.map((p: { name: string }) => p.name)).toEqual(['alpha', 'Bravo']);
    const page2 = (await call('GET', `${fresh.ws}/projects?limit=2&offset=2`, fresh.owner.cookie)).json();
    expect(page2.items.map((p: { name: string }) => p.name)).toEqual(['Charlie']);
    const desc = (await call('GET', `${fresh.ws}/projects?order=desc`, fresh.owner.cookie)).json();
    expect(desc.items[0].name).toBe('Charlie');

    await call('POST', `${fresh.ws}/projects/${bravo.items[0].id}/archive`, fresh.owner.cookie);
    expect((await call('GET', `${fresh.ws}/projects`, fresh.owner.cookie)).json().total).toBe(2);
    const archived = (await call('GET', `${fresh.ws}/projects?archived=true`, fresh.owner.cookie)).json();
    expect(archived.items.map((p: { name: string }) => p.name)).toEqual(['Bravo']);
    await call('POST', `${fresh.ws}/projects/${bravo.items[0].id}/restore`, fresh.owner.cookie);
    expect((await call('GET', `${fresh.ws}/projects?archived=all`, fresh.owner.cookie)).json().total).toBe(3);

    const bad = await call('GET', `${fresh.ws}/projects?limit=0`, fresh.owner.cookie);
    expect(bad.statusCode).toBe(422);
  });

  it('deletes a project with its tasks and the time tracked to it', async () => {
    const p = (await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'Doomed' })).json();
    const task = (await call('POST', `${t.ws}/projects/${p.id}/tasks`, t.owner.cookie, { name: 'Work' })).json();
    const start = new Date('2026-11-02T09:00:00Z');
    await ctx.t.db
      .insertInto('time_entries')
      .values({
        id: newId(),
        workspace_id: t.owner.workspaceId,
        user_id: t.owner.userId,
        project_id: p.id,
        task_id: task.id,
        start_at: start,
        end_at: new Date(start.getTime() + 5400_000),
        duration_seconds: 5400,
      })
      .execute();
    const tracked = (await call('GET', `${t.ws}/projects/${p.id}`, t.owner.cookie)).json();
    expect(tracked.trackedSeconds).toBe(5400);

    expect((await call('DELETE', `${t.ws}/projects/${p.id}`, t.owner.cookie)).statusCode).toBe(204);
    expect((await call('GET', `${t.ws}/projects/${p.id}`, t.owner.cookie)).statusCode).toBe(404);
    expect((await call('GET', `${t.ws}/tasks/${task.id}`, t.owner.cookie)).statusCode).toBe(404);
    const left = await ctx.t.db.selectFrom('time_entries').select('id').where('project_id', '=', p.id).execute();
    expect(left).toHaveLength(0);
  });
});

describe('"My Task" and search', () => {
  it('counts the projects (and tasks) someone created as theirs under "My Task", like those assigned to them', async () => {
    const t = await team();
    const manager = t.byRole.manager;
    const make = async (who: SignedUp, name: string) =>
      (await call('POST', `${t.ws}/projects`, who.cookie, { name })).json().id as string;
    const mine = await make(t.owner, 'Created by owner');
    await call('POST', `${t.ws}/projects/${mine}/tasks`, t.owner.cookie, { name: 'Plan' });
    await call('POST', `${t.ws}/projects/${mine}/tasks`, t.owner.cookie, { name: 'Build' });
    const theirs = await make(manager, 'Created by manager');
    await call('POST', `${t.ws}/projects/${theirs}/tasks`, manager.cookie, { name: 'Hire' });

    const names = async (who: SignedUp) =>
      (await call('GET', `${t.ws}/projects?mine=true`, who.cookie)).json().items.map((p: { name: string }) => p.name);
    expect(await names(t.owner)).toEqual(['Created by owner']);
    expect(await names(manager)).toEqual(['Created by manager']);
    const tasks = (await call('GET', `${t.ws}/projects/${mine}/tasks?mine=true`, t.owner.cookie)).json().items;
    expect(tasks.map((x: { name: string }) => x.name)).toEqual(['Build', 'Plan']);
    // Not the owner of the manager's project, nor assigned: none of its tasks are "mine".
    expect((await call('GET', `${t.ws}/projects/${theirs}/tasks?mine=true`, t.owner.cookie)).json().items).toEqual([]);
  });

  it('counts a public project (and the tasks) a member tracked on, unassigned, under their "My Task"', async () => {
    const t = await team();
    const { member, manager } = t.byRole;
    const open = (
      await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'Open house', isPublic: true })
    ).json();
    await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'Untouched', isPublic: true });
    const task = async (name: string) =>
      (await call('POST', `${t.ws}/projects/${open.id}/tasks`, t.owner.cookie, { name })).json().id as string;
    const chores = await task('Chores');
    await task('Repairs');
    const booked = await call('POST', `${t.ws}/time-entries`, member.cookie, {
      start: new Date(Date.now() - 3_600_000).toISOString(),
      duration: '30m',
      projectId: open.id,
      taskId: chores,
    });
    expect(booked.statusCode, booked.body).toBe(201);

    const mine = async (who: SignedUp) =>
      (await call('GET', `${t.ws}/projects?mine=true`, who.cookie)).json().items.map((p: { name: string }) => p.name);
    const myTasks = async (who: SignedUp) =>
      (await call('GET', `${t.ws}/projects/${open.id}/tasks?mine=true`, who.cookie))
        .json()
        .items.map((x: { name: string }) => x.name);
    expect(await mine(member)).toEqual(['Open house']);
    expect(await myTasks(member)).toEqual(['Chores']);
    // Someone else's time makes it theirs, not everybody's.
    expect(await mine(manager)).toEqual([]);
    expect(await myTasks(manager)).toEqual([]);
  });

  it('says which tasks a search found in each project, so the list can open them', async () => {
    const t = await team();
    const make = async (name: string) =>
      (await call('POST', `${t.ws}/projects`, t.owner.cookie, { name })).json().id as string;
    const site = await make('Website');
    const app = await make('Invoice app');
    const task = async (projectId: string, name: string) =>
      (await call('POST', `${t.ws}/projects/${projectId}/tasks`, t.owner.cookie, { name })).json().id as string;
    const invoices = await task(site, 'Invoice page');
    await task(site, 'Landing');
    const old = await task(site, 'Invoice archive');
    await call('POST', `${t.ws}/tasks/${old}/archive`, t.owner.cookie);

    const found = (await call('GET', `${t.ws}/projects?search=invoice`, t.owner.cookie)).json().items;
    expect(found.map((p: { id: string; matchingTaskIds: string[] }) => [p.id, p.matchingTaskIds])).toEqual([
      [app, []],
      [site, [invoices]],
    ]);
    const withArchived = (await call('GET', `${t.ws}/projects?search=invoice&archived=all`, t.owner.cookie)).json();
    expect(withArchived.items[1].matchingTaskIds).toEqual([old, invoices]);
    // Only an archived task matches: not found among the active ones.
    expect((await call('GET', `${t.ws}/projects?search=archive`, t.owner.cookie)).json().items).toEqual([]);
    expect((await call('GET', `${t.ws}/projects`, t.owner.cookie)).json().items[0].matchingTaskIds).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents the projects, tasks, clients, tags and import routes', async () => {
    const spec = (await ctx.t.app.inject('/api/docs/json')).json();
    const w = '/api/v1/workspaces/{workspaceId}';
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        `${w}/projects`,
        `${w}/projects/{projectId}`,
        `${w}/projects/{projectId}/archive`,
        `${w}/projects/{projectId}/tasks`,
        `${w}/tasks/{taskId}`,
        `${w}/clients`,
        `${w}/clients/{clientId}`,
        `${w}/tag-lists`,
        `${w}/tags/{tagId}/merge`,
        `${w}/tag-settings`,
        `${w}/imports`,
        `${w}/imports/{importId}`,
      ]),
    );
    expect(spec.paths[`${w}/projects`].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['search', 'archived', 'sort', 'order', 'limit', 'offset', 'clientId', 'mine']),
    );
  });
});

describe('Enable Keyword', () => {
  it('suggests the projects and tasks whose keywords occur in a note, as whole words', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const site = (
      await call('POST', `${ws}/projects`, owner.cookie, { name: 'Site', keywordsEnabled: true, keywords: ['website'] })
    ).json();
    await call('POST', `${ws}/projects`, owner.cookie, { name: 'Off', keywordsEnabled: false, keywords: ['website'] });
    const seo = (
      await call('POST', `${ws}/projects/${site.id}/tasks`, owner.cookie, {
        name: 'SEO',
        keywordsEnabled: true,
        keywords: ['Search ranking'],
      })
    ).json();
    const url = (note: string) => `${ws}/project-suggestions?note=${encodeURIComponent(note)}`;
    const items = (await call('GET', url('Improve search  ranking of the WEBSITE.'), owner.cookie)).json().items;
    expect(items).toEqual([
      { projectId: site.id, projectName: 'Site', taskId: seo.id, taskName: 'SEO', keyword: 'Search ranking' },
      { projectId: site.id, projectName: 'Site', taskId: null, taskName: null, keyword: 'website' },
    ]);
    expect((await call('GET', url('websites'), owner.cookie)).json().items).toEqual([]);
  });
});

describe('who may do what', () => {
  let t: Team;
  let privateId: string;
  let publicId: string;
  let assignedId: string;
  let taskId: string;
  beforeAll(async () => {
    t = await team();
    const make = async (name: string, body: object = {}) =>
      (await call('POST', `${t.ws}/projects`, t.owner.cookie, { name, ...body })).json().id as string;
    privateId = await make('Private');
    publicId = await make('Public', { isPublic: true });
    assignedId = await make('Assigned');
    taskId = (await call('POST', `${t.ws}/projects/${privateId}/tasks`, t.owner.cookie, { name: 'T' })).json().id;
    await call('POST', `${t.ws}/projects/${assignedId}/tasks`, t.owner.cookie, { name: 'Shared task' });
    // The member is assigned to "Assigned" through a group, the guest directly.
    const groupId = await crew(t, [t.byRole.member]);
    await call('PUT', `${t.ws}/projects/${assignedId}/people`, t.owner.cookie, {
      userIds: [t.byRole.guest.userId],
      groupIds: [groupId],
    });
  });

  it('lists the projects each person sees with their active tasks in one answer (the time-entry pickers)', async () => {
    const archived = (
      await call('POST', `${t.ws}/projects/${assignedId}/tasks`, t.owner.cookie, { name: 'Old task' })
    ).json();
    await call('POST', `${t.ws}/tasks/${archived.id}/archive`, t.owner.cookie);
    const picker = async (who: { cookie: string }) => {
      const response = await call('GET', `${t.ws}/project-picker`, who.cookie);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().items as { name: string; tasks: { name: string }[] }[]).map((p) => [
        p.name,
        p.tasks.map((task) => task.name),
      ]);
    };
    expect(await picker(t.owner)).toEqual([
      ['Assigned', ['Shared task']],
      ['Private', ['T']],
      ['Public', []],
    ]);
    expect(await picker(t.byRole.member)).toEqual([
      ['Assigned', ['Shared task']],
      ['Public', []],
    ]);
    expect(await picker(t.byRole.guest)).toEqual([['Assigned', ['Shared task']]]);
    await call('POST', `${t.ws}/tasks/${archived.id}/restore`, t.owner.cookie);
    expect((await picker(t.owner))[0]).toEqual(['Assigned', ['Old task', 'Shared task']]);
    await call('DELETE', `${t.ws}/tasks/${archived.id}`, t.owner.cookie);
  });

  for (const role of ['admin', 'manager'] as const) {
    it(`lets ${role}s manage projects, tasks, clients and tags`, async () => {
      const me = t.byRole[role];
      const all = (await call('GET', `${t.ws}/projects`, me.cookie)).json();
      expect(all.total).toBe(3);
      const p = await call('POST', `${t.ws}/projects`, me.cookie, { name: `By ${role}` });
      expect(p.statusCode).toBe(201);
      expect((await call('PATCH', `${t.ws}/projects/${p.json().id}`, me.cookie, { color: '#eb5757' })).statusCode).toBe(
        200,
      );
      const task = await call('POST', `${t.ws}/projects/${p.json().id}/tasks`, me.cookie, { name: 'x' });
      expect(task.statusCode).toBe(201);
      expect((await call('PATCH', `${t.ws}/tasks/${task.json().id}`, me.cookie, { name: 'y' })).statusCode).toBe(200);
      expect((await call('POST', `${t.ws}/projects/${p.json().id}/archive`, me.cookie)).statusCode).toBe(200);
      expect((await call('DELETE', `${t.ws}/projects/${p.json().id}`, me.cookie)).statusCode).toBe(204);
      const c = await call('POST', `${t.ws}/clients`, me.cookie, { name: `Client of ${role}` });
      expect(c.statusCode).toBe(201);
      expect((await call('DELETE', `${t.ws}/clients/${c.json().id}`, me.cookie)).statusCode).toBe(204);
      const l = await call('POST', `${t.ws}/tag-lists`, me.cookie, { name: `List of ${role}` });
      expect(l.statusCode).toBe(201);
      expect((await call('DELETE', `${t.ws}/tag-lists/${l.json().id}`, me.cookie)).statusCode).toBe(204);
      expect((await call('GET', `${t.ws}/project-assignees`, me.cookie)).statusCode).toBe(200);
    });
  }

  for (const role of ['member', 'guest'] as const) {
    it(`shows ${role}s only ${role === 'member' ? 'public and ' : ''}assigned projects and lets them change nothing`, async () => {
      const me = t.byRole[role];
      const list = (await call('GET', `${t.ws}/projects`, me.cookie)).json();
      expect(list.items.map((p: { name: string }) => p.name).sort()).toEqual(
        role === 'member' ? ['Assigned', 'Public'] : ['Assigned'],
      );
      const mine = (await call('GET', `${t.ws}/projects?mine=true`, me.cookie)).json();
      expect(mine.items.map((p: { name: string }) => p.name)).toEqual(['Assigned']);
      expect((await call('GET', `${t.ws}/projects/${assignedId}`, me.cookie)).statusCode).toBe(200);
      // Assigned to the whole project: "My Task" lists all its tasks.
      const myTasks = (await call('GET', `${t.ws}/projects/${assignedId}/tasks?mine=true`, me.cookie)).json().items;
      expect(myTasks.map((x: { name: string }) => x.name)).toEqual(['Shared task']);
      expect((await call('GET', `${t.ws}/projects/${publicId}/tasks`, me.cookie)).statusCode).toBe(
        role === 'member' ? 200 : 404,
      );

      // Not visible: 404, like an id that does not exist.
      for (const r of [
        await call('GET', `${t.ws}/projects/${privateId}`, me.cookie),
        await call('GET', `${t.ws}/projects/${privateId}/tasks`, me.cookie),
        await call('GET', `${t.ws}/tasks/${taskId}`, me.cookie),
        await call('PATCH', `${t.ws}/projects/${privateId}`, me.cookie, { name: 'Mine' }),
        await call('DELETE', `${t.ws}/tasks/${taskId}`, me.cookie),
      ]) {
        expect(r.statusCode).toBe(404);
      }
      // Visible but not theirs to change: 403.
      for (const r of [
        await call('POST', `${t.ws}/projects`, me.cookie, { name: 'Nope' }),
        await call('PATCH', `${t.ws}/projects/${assignedId}`, me.cookie, { name: 'Nope' }),
        await call('POST', `${t.ws}/projects/${assignedId}/archive`, me.cookie),
        await call('DELETE', `${t.ws}/projects/${assignedId}`, me.cookie),
        await call('POST', `${t.ws}/projects/${assignedId}/tasks`, me.cookie, { name: 'Nope' }),
        await call('PUT', `${t.ws}/projects/${assignedId}/people`, me.cookie, { userIds: [me.userId], groupIds: [] }),
        await call('GET', `${t.ws}/project-assignees`, me.cookie),
        await call('POST', `${t.ws}/clients`, me.cookie, { name: 'Nope' }),
        await call('POST', `${t.ws}/tag-lists`, me.cookie, { name: 'Nope' }),
        await call('PUT', `${t.ws}/tag-settings`, me.cookie, { tagsRequired: true }),
      ]) {
        expect(r.statusCode).toBe(403);
      }
      expect((await call('GET', `${t.ws}/tag-lists`, me.cookie)).statusCode).toBe(200);
      expect((await call('GET', `${t.ws}/tags`, me.cookie)).statusCode).toBe(200);
      expect((await call('GET', `${t.ws}/clients`, me.cookie)).statusCode).toBe(role === 'member' ? 200 : 403);
    });
  }

  it('shows a guest nothing of a public project they were not given: no row, total, task, suggestion or booking', async () => {
    const guest = t.byRole.guest;
    const open = (
      await call('POST', `${t.ws}/projects`, t.owner.cookie, {
        name: 'Open house',
        isPublic: true,
        keywordsEnabled: true,
        keywords: ['roadmap'],
      })
    ).json();
    const openTask = (
      await call('POST', `${t.ws}/projects/${open.id}/tasks`, t.owner.cookie, { name: 'Open chores' })
    ).json();
    await call('POST', `${t.ws}/time-entries`, t.owner.cookie, {
      start: new Date(Date.now() - 7_200_000).toISOString(),
      duration: '1h',
      projectId: open.id,
    });
    // A private project shared through one of its tasks only: the guest sees it.
    const viaTask = (await call('POST', `${t.ws}/projects`, t.owner.cookie, { name: 'Via task' })).json();
    const shared = (
      await call('POST', `${t.ws}/projects/${viaTask.id}/tasks`, t.owner.cookie, { name: 'Guest chores' })
    ).json();
    await call('PUT', `${t.ws}/tasks/${shared.id}/people`, t.owner.cookie, { userIds: [guest.userId], groupIds: [] });

    const list = (await call('GET', `${t.ws}/projects?archived=all&limit=500`, guest.cookie)).json();
    expect(list.items.map((p: { name: string }) => p.name).sort()).toEqual(['Assigned', 'Via task']);
    expect(list.total).toBe(2);
    const search = (await call('GET', `${t.ws}/projects?search=chores`, guest.cookie)).json();
    expect(search.items.map((p: { name: string }) => p.name)).toEqual(['Via task']);
    for (const r of [
      await call('GET', `${t.ws}/projects/${open.id}`, guest.cookie),
      await call('GET', `${t.ws}/projects/${open.id}/tasks`, guest.cookie),
      await call('GET', `${t.ws}/tasks/${openTask.id}`, guest.cookie),
    ]) {
      expect([r.statusCode, r.json().error.code]).toEqual([404, 'not_found']);
    }
    const suggestions = await call('GET', `${t.ws}/project-suggestions?note=roadmap`, guest.cookie);
    expect(suggestions.json().items).toEqual([]);
    const booked = await call('POST', `${t.ws}/time-entries`, guest.cookie, {
      start: new Date(Date.now() - 3_600_000).toISOString(),
      duration: '15m',
      projectId: open.id,
    });
    expect(booked.statusCode).toBe(422);
    expect((await call('POST', `${t.ws}/timer/start`, guest.cookie, { projectId: open.id })).statusCode).toBe(422);

    // A member still sees (and books on) the public project, with its total.
    const member = t.byRole.member;
    const forMember = (await call('GET', `${t.ws}/projects?search=Open%20house`, member.cookie)).json();
    expect(forMember.items).toMatchObject([{ id: open.id, trackedSeconds: 3600 }]);
    expect((await call('GET', `${t.ws}/project-suggestions?note=roadmap`, member.cookie)).json().items).toHaveLength(1);
  });

  it('answers 404 for ids of another workspace, through either workspace', async () => {
    const stranger = await signUp(ctx.t.app);
    const theirs = `/api/v1/workspaces/${stranger.workspaceId}`;
    const client = (await call('POST', `${t.ws}/clients`, t.owner.cookie, { name: 'Secret client' })).json();
    const list = (await call('POST', `${t.ws}/tag-lists`, t.owner.cookie, { name: 'Secret list' })).json();
    const tag = (await call('POST', `${t.ws}/tag-lists/${list.id}/tags`, t.owner.cookie, { name: 'secret' })).json();
    const ownTag = (
      await call(
        'POST',
        `${theirs}/tag-lists/${
          (await call('POST', `${theirs}/tag-lists`, stranger.cookie, { name: 'Mine' })).json().id
        }/tags`,
        stranger.cookie,
        { name: 'mine' },
      )
    ).json();
    const routes: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', `/projects/${privateId}`],
      ['PATCH', `/projects/${privateId}`, { name: 'x' }],
      ['POST', `/projects/${privateId}/archive`],
      ['POST', `/projects/${privateId}/restore`],
      ['DELETE', `/projects/${privateId}`],
      ['PUT', `/projects/${privateId}/people`, { userIds: [], groupIds: [] }],
      ['GET', `/projects/${privateId}/tasks`],
      ['POST', `/projects/${privateId}/tasks`, { name: 'x' }],
      ['GET', `/tasks/${taskId}`],
      ['PATCH', `/tasks/${taskId}`, { name: 'x' }],
      ['POST', `/tasks/${taskId}/archive`],
      ['DELETE', `/tasks/${taskId}`],
      ['PUT', `/tasks/${taskId}/people`, { userIds: [], groupIds: [] }],
      ['GET', `/clients/${client.id}`],
      ['PATCH', `/clients/${client.id}`, { name: 'x' }],
      ['POST', `/clients/${client.id}/archive`],
      ['DELETE', `/clients/${client.id}`],
      ['GET', `/tag-lists/${list.id}`],
      ['PATCH', `/tag-lists/${list.id}`, { name: 'x' }],
      ['POST', `/tag-lists/${list.id}/tags`, { name: 'x' }],
      ['DELETE', `/tag-lists/${list.id}`],
      ['GET', `/tags/${tag.id}`],
      ['PATCH', `/tags/${tag.id}`, { name: 'x' }],
      ['POST', `/tags/${tag.id}/merge`, { intoTagId: ownTag.id }],
      ['DELETE', `/tags/${tag.id}`],
    ];
    for (const [method, path, body] of routes) {
      const viaOwner = await call(method, `${t.ws}${path}`, stranger.cookie, body);
      expect(viaOwner.statusCode, `${method} ${path} via their workspace`).toBe(404);
      const viaOwn = await call(method, `${theirs}${path}`, stranger.cookie, body);
      expect(viaOwn.statusCode, `${method} ${path} via own workspace`).toBe(404);
    }
    // A client of another workspace cannot be attached to a project either.
    const attach = await call('POST', `${theirs}/projects`, stranger.cookie, { name: 'P', clientId: client.id });
    expect(attach.statusCode).toBe(422);
    // Their own merge target, and everything of the owner, is unchanged.
    expect((await call('GET', `${t.ws}/tags/${tag.id}`, t.owner.cookie)).json().name).toBe('secret');
    expect((await call('GET', `${t.ws}/projects/${privateId}`, t.owner.cookie)).json().name).toBe('Private');
  });
});

describe('"Can manage" grants on a project', () => {
  let t: Team;
  let other: SignedUp; // a second member, assigned directly without the grant
  let crewId: string;
  let grantedId: string;
  let directId: string;
  let publicId: string;
  const path = (id: string) => `${t.ws}/projects/${id}`;
  beforeAll(async () => {
    t = await team();
    other = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: t.owner.workspaceId,
      userId: other.userId,
      role: 'member',
    });
    // The member and the guest are in the granted group.
    crewId = await crew(t, [t.byRole.member, t.byRole.guest]);
    const make = async (name: string, body: object = {}) =>
      (await call('POST', `${t.ws}/projects`, t.owner.cookie, { name, ...body })).json().id as string;
    grantedId = await make('Granted');
    directId = await make('Direct');
    publicId = await make('Open', { isPublic: true });
    const granted = await call('PUT', `${path(grantedId)}/people`, t.owner.cookie, {
      userIds: [other.userId, t.byRole.guest.userId],
      groupIds: [crewId],
      managerGroupIds: [crewId],
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().people).toEqual({
      users: expect.arrayContaining([
        expect.objectContaining({ id: other.userId, canManage: false }),
        expect.objectContaining({ id: t.byRole.guest.userId, canManage: false }),
      ]),
      groups: [{ id: crewId, name: 'Crew', canManage: true }],
    });
    await call('PUT', `${path(directId)}/people`, t.owner.cookie, {
      userIds: [other.userId],
      groupIds: [],
      managerUserIds: [other.userId],
    });
  });

  it('lets a member granted through a group edit the project and its tasks, archive it, but not delete it or change people', async () => {
    const me = t.byRole.member;
    const list = (await call('GET', `${t.ws}/projects`, me.cookie)).json();
    const canEdit = Object.fromEntries(list.items.map((p: { name: string; canEdit: boolean }) => [p.name, p.canEdit]));
    expect(canEdit).toEqual({ Granted: true, Open: false });

    const client = (await call('POST', `${t.ws}/clients`, t.owner.cookie, { name: 'Grant Co' })).json();
    const edited = await call('PATCH', path(grantedId), me.cookie, {
      name: 'Granted (renamed)',
      clientId: client.id,
      color: '#eb5757',
      description: 'By a granted member',
      budget: { type: 'hours', amount: 120 },
      billableDefault: true,
      keywordsEnabled: true,
      keywords: ['grant'],
      isPublic: false, // unchanged: fine
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Granted (renamed)', clientName: 'Grant Co', canEdit: true });

    const task = await call('POST', `${path(grantedId)}/tasks`, me.cookie, { name: 'Plan' });
    expect(task.statusCode).toBe(201);
    const sub = await call('POST', `${path(grantedId)}/tasks`, me.cookie, {
      name: 'Sub',
      parentTaskId: task.json().id,
    });
    expect(sub.statusCode).toBe(201);
    expect((await call('PATCH', `${t.ws}/tasks/${task.json().id}`, me.cookie, { name: 'Plan 2' })).statusCode).toBe(
      200,
    );
    expect((await call('POST', `${t.ws}/tasks/${sub.json().id}/archive`, me.cookie)).statusCode).toBe(200);
    expect((await call('POST', `${t.ws}/tasks/${sub.json().id}/restore`, me.cookie)).statusCode).toBe(200);
    expect((await call('DELETE', `${t.ws}/tasks/${sub.json().id}`, me.cookie)).statusCode).toBe(204);
    expect((await call('POST', `${path(grantedId)}/archive`, me.cookie)).statusCode).toBe(200);
    expect((await call('POST', `${path(grantedId)}/restore`, me.cookie)).statusCode).toBe(200);

    for (const r of [
      await call('DELETE', path(grantedId), me.cookie),
      await call('PATCH', path(grantedId), me.cookie, { isPublic: true }),
      await call('PUT', `${path(grantedId)}/people`, me.cookie, { userIds: [], groupIds: [crewId] }),
      await call('PUT', `${t.ws}/tasks/${task.json().id}/people`, me.cookie, { userIds: [me.userId], groupIds: [] }),
      await call('GET', `${t.ws}/project-assignees`, me.cookie),
      // Moving a task into a project they may only see, and editing that project.
      await call('PATCH', `${t.ws}/tasks/${task.json().id}`, me.cookie, { projectId: publicId }),
      await call('PATCH', path(publicId), me.cookie, { name: 'Nope' }),
      await call('POST', `${path(publicId)}/tasks`, me.cookie, { name: 'Nope' }),
    ]) {
      expect(r.statusCode).toBe(403);
    }
    // Not assigned to "Direct" at all: invisible.
    expect((await call('PATCH', path(directId), me.cookie, { name: 'Nope' })).statusCode).toBe(404);
    const after = (await call('GET', path(grantedId), t.owner.cookie)).json();
    expect(after).toMatchObject({ name: 'Granted (renamed)', archived: false, isPublic: false });
    expect(after.people.groups).toEqual([{ id: crewId, name: 'Crew', canManage: true }]);
  });

  it('keeps a member without the grant read-only, and a directly granted one may edit', async () => {
    const seen = (await call('GET', path(grantedId), other.cookie)).json();
    expect(seen.canEdit).toBe(false);
    for (const r of [
      await call('PATCH', path(grantedId), other.cookie, { name: 'Nope' }),
      await call('POST', `${path(grantedId)}/tasks`, other.cookie, { name: 'Nope' }),
      await call('POST', `${path(grantedId)}/archive`, other.cookie),
    ]) {
      expect(r.statusCode).toBe(403);
    }
    const direct = await call('PATCH', path(directId), other.cookie, { description: 'Mine to edit' });
    expect(direct.statusCode).toBe(200);
    expect(direct.json().canEdit).toBe(true);
  });

  it('never lets a guest use a grant, and refuses to grant a guest', async () => {
    const guest = t.byRole.guest;
    expect((await call('GET', path(grantedId), guest.cookie)).json().canEdit).toBe(false);
    expect((await call('PATCH', path(grantedId), guest.cookie, { name: 'Nope' })).statusCode).toBe(403);
    expect((await call('POST', `${path(grantedId)}/tasks`, guest.cookie, { name: 'Nope' })).statusCode).toBe(403);
    const refused = await call('PUT', `${path(directId)}/people`, t.owner.cookie, {
      userIds: [guest.userId],
      groupIds: [],
      managerUserIds: [guest.userId],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.fields).toEqual({ managerUserIds: 'Guests cannot manage projects.' });
    const notAssigned = await call('PUT', `${path(directId)}/people`, t.owner.cookie, {
      userIds: [],
      groupIds: [],
      managerUserIds: [other.userId],
    });
    expect(notAssigned.statusCode).toBe(422);
  });

  it('lets managers edit every project, and an outsider gets 404', async () => {
    const manager = t.byRole.manager;
    const all = (await call('GET', `${t.ws}/projects`, manager.cookie)).json();
    expect(all.items.every((p: { canEdit: boolean }) => p.canEdit)).toBe(true);
    expect((await call('PATCH', path(grantedId), manager.cookie, { color: '#27ae60' })).statusCode).toBe(200);
    const outsider = await signUp(ctx.t.app);
    expect((await call('PATCH', path(grantedId), outsider.cookie, { name: 'x' })).statusCode).toBe(404);
    expect((await call('GET', path(grantedId), outsider.cookie)).statusCode).toBe(404);
  });

  it('takes the right away with the grant', async () => {
    await call('PUT', `${path(grantedId)}/people`, t.owner.cookie, { userIds: [], groupIds: [crewId] });
    const me = t.byRole.member;
    expect((await call('GET', path(grantedId), me.cookie)).json().canEdit).toBe(false);
    expect((await call('PATCH', path(grantedId), me.cookie, { name: 'Nope' })).statusCode).toBe(403);
  });
});
