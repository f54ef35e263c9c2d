import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sendCsv, signUp, useTestApp } from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

const upload = (ws: string, cookie: string, query: string, file: string | Buffer, type = 'text/csv') =>
  sendCsv(ctx.t.app, `${ws}/imports?source=${query}`, cookie, file, { 'content-type': type });

/** A workspace with its owner and a member, Bob, who is matched by his e-mail. */
async function team() {
  const owner = await signUp(ctx.t.app);
  const bob = await signUp(ctx.t.app);
  await membersRepository.add(ctx.t.db, { workspaceId: owner.workspaceId, userId: bob.userId, role: 'member' });
  return { owner, bob, ws: `/api/v1/workspaces/${owner.workspaceId}` };
}

/** Starts the read import with `body`, runs the job and answers the finished import. */
async function run(ws: string, cookie: string, id: string, body?: object) {
  const started = await call('POST', `${ws}/imports/${id}/run`, cookie, body);
  expect(started.statusCode, started.body).toBe(202);
  await ctx.t.app.services.jobs.drain();
  const done = (await call('GET', `${ws}/imports/${id}`, cookie)).json();
  expect(done.status, done.message).toBe('done');
  return done;
}

/** The run body choosing a member (or null: nobody) for each unmatched name. */
const choose = (choices: Record<string, string | null>) => ({
  assignees: Object.entries(choices).map(([name, userId]) => ({ name, userId })),
});

/** A preview's assignees: `assigned` by e-mail, and the unmatched names with their numbers of tasks. */
const people = (assigned: number, unmatched: Record<string, number>) => ({
  assigned,
  unmatched: Object.entries(unmatched).map(([name, tasks]) => ({ name, tasks })),
});

/** The project's tasks as "Parent › Child" paths, each with the e-mails of its assignees. */
async function tasksOf(ws: string, cookie: string, project: string): Promise<Record<string, string[]>> {
  const found = (await call('GET', `${ws}/projects?search=${encodeURIComponent(project)}`, cookie)).json().items;
  const match = found.filter((p: { name: string }) => p.name === project);
  expect(match).toHaveLength(1);
  const tasks: { id: string; name: string; parentTaskId: string | null }[] = (
    await call('GET', `${ws}/projects/${match[0].id}/tasks`, cookie)
  ).json().items;
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const path = (t: (typeof tasks)[number]): string =>
    t.parentTaskId ? `${path(byId.get(t.parentTaskId) as (typeof tasks)[number])} › ${t.name}` : t.name;
  const out: Record<string, string[]> = {};
  for (const t of tasks) {
    const detail = (await call('GET', `${ws}/tasks/${t.id}`, cookie)).json();
    out[path(t)] = detail.people.users.map((u: { email: string }) => u.email).sort();
  }
  return out;
}

describe('imports of project tools', () => {
  it('imports a Jira CSV: sub-tasks under their parents, assignees by e-mail, the unmatched as chosen; again, nothing new', async () => {
    const { owner, bob, ws } = await team();
    // Jira Cloud's "Export CSV (all fields)": repeated Labels and Sprint columns, Parent = the parent's issue id.
    const jira = [
      'Summary,Issue key,Issue id,Issue Type,Status,Project key,Project name,Assignee,Assignee Id,Parent,Parent summary,Sprint,Sprint,Labels,Labels,Original Estimate,Due Date',
      `Checkout,SHOP-1,10001,Epic,To Do,SHOP,Web shop,,,,,,,,,,`,
      `Cart page,SHOP-2,10002,Story,In Progress,SHOP,Web shop,Bob Stone,${bob.email},10001,Checkout,Sprint 1,Sprint 2,ui,web,28800,12/Dec/26`,
      `Fix totals,SHOP-3,10003,Sub-task,Done,SHOP,Web shop,Cy Ray,cy@elsewhere.test,10002,Cart page,Sprint 2,,,,3600,`,
      `Payment page,SHOP-4,10004,Story,To Do,SHOP,Web shop,Dee Fox,5b10a2844c20165700ede21g,10001,Checkout,,,,,,`,
    ].join('\n');
    const preview = await upload(ws, owner.cookie, 'jira', jira);
    expect(preview.statusCode, preview.body).toBe(201);
    expect(preview.json()).toMatchObject({
      status: 'ready',
      rowsRead: 4,
      summary: { clients: 0, projects: 1, tasks: 4, tags: 0, timeEntries: 0 },
      assignees: people(1, { 'cy@elsewhere.test': 1, 'Dee Fox': 1 }),
    });
    expect(preview.json().rows[2]).toMatchObject({
      project: 'Web shop',
      taskPath: ['Checkout', 'Cart page', 'Fix totals'],
      assignees: ['cy@elsewhere.test'],
    });
    const id = preview.json().id;

    // Every unmatched person needs a choice, and only a member can be chosen.
    const unchosen = await call('POST', `${ws}/imports/${id}/run`, owner.cookie, choose({ 'Dee Fox': null }));
    expect(unchosen.statusCode).toBe(422);
    expect(unchosen.json().error.message).toBe(
      'Choose a member, or “Leave unassigned”, for “cy@elsewhere.test”: no member has that e-mail.',
    );
    const stranger = await signUp(ctx.t.app);
    const outsider = await call(
      'POST',
      `${ws}/imports/${id}/run`,
      owner.cookie,
      choose({ 'cy@elsewhere.test': stranger.userId, 'Dee Fox': null }),
    );
    expect(outsider.statusCode).toBe(422);
    expect(outsider.json().error.fields).toEqual({ assignees: 'Choose a member of this workspace.' });
    expect((await call('GET', `${ws}/projects`, owner.cookie)).json().total).toBe(0);

    const choices = choose({ 'CY@elsewhere.test': owner.userId, 'Dee Fox': null });
    const done = await run(ws, owner.cookie, id, choices);
    expect(done.summary).toEqual({ clients: 0, projects: 1, tasks: 4, tags: 0, timeEntries: 0 });
    expect(done.assignees).toEqual({ assigned: 2, unmatched: [] });
    expect(await tasksOf(ws, owner.cookie, 'Web shop')).toEqual({
      Checkout: [],
      'Checkout › Cart page': [bob.email],
      'Checkout › Cart page › Fix totals': [owner.email],
      'Checkout › Payment page': [],
    });
    // Asking again answers the same import.
    expect((await call('POST', `${ws}/imports/${id}/run`, owner.cookie, choices)).json().status).toBe('done');

    // The same file again reuses the project, its tasks and their assignments.
    const again = (await upload(ws, owner.cookie, 'jira', jira)).json();
    const second = await run(ws, owner.cookie, again.id, choices);
    expect(second.summary).toEqual({ clients: 0, projects: 0, tasks: 0, tags: 0, timeEntries: 0 });
    expect(second.assignees).toEqual({ assigned: 0, unmatched: [] });
    expect((await call('GET', `${ws}/projects`, owner.cookie)).json().total).toBe(1);
  });

  it('refuses a file that is not the tool’s export, naming the column, and a row without a name, naming its line', async () => {
    const { owner, ws } = await team();
    const notJira = await upload(ws, owner.cookie, 'jira', 'Title,Project\nA,B\n');
    expect(notJira.statusCode).toBe(422);
    expect(notJira.json().error.message).toBe(
      'The file is not a Jira export: it needs a “Summary” column. Its columns are: title, project.',
    );
    const broken = await upload(ws, owner.cookie, 'jira', 'Summary,Project name\n"unclosed,Web\n');
    expect(broken.statusCode).toBe(422);
    expect(broken.json().error.message).toMatch(/^The file is not a readable CSV file: .*line 2/);

    const emptyName = (
      await upload(ws, owner.cookie, 'asana', 'Task ID,Name,Projects\n1,Plan,Launch\n2,,Launch\n')
    ).json();
    expect(emptyName).toMatchObject({ status: 'invalid', errors: [{ line: 3, error: 'The “Name” column is empty.' }] });
    const refused = await call('POST', `${ws}/imports/${emptyName.id}/run`, owner.cookie);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toMatch(/^1 row has errors \(first: line 3: The “Name” column is empty\.\)/);

    const trello = await upload(ws, owner.cookie, 'trello', '{"name": "Board", "cards": [', 'application/octet-stream');
    expect(trello.statusCode).toBe(422);
    expect(trello.json().error.message).toMatch(/^The file is not a Trello board export \(JSON\): /);
    const monday = await upload(ws, owner.cookie, 'monday', 'not a workbook', 'application/octet-stream');
    expect(monday.statusCode).toBe(422);
    expect(monday.json().error.message).toMatch(/^The file is not a monday\.com board export/);
  });

  it('imports an Asana project export into the existing project of that name, sub-tasks in their parent’s project', async () => {
    const { owner, bob, ws } = await team();
    const existing = await call('POST', `${ws}/projects`, owner.cookie, { name: 'Launch' });
    expect(existing.statusCode, existing.body).toBe(201);
    const asana = [
      'Task ID,Created At,Completed At,Last Modified,Name,Section/Column,Assignee,Assignee Email,Start Date,Due Date,Tags,Notes,Projects,Parent task',
      `1201,2026-11-01,,2026-11-02,Press kit,To do,Bob Stone,${bob.email},,2026-12-01,"pr, launch",Collect logos,Launch,`,
      '1202,2026-11-01,2026-11-03,2026-11-03,Logos,To do,Ann Lee,ann@elsewhere.test,,,,,,Press kit',
      `1203,2026-11-01,,2026-11-02,Announce,Doing,,,,,,,Launch,`,
    ].join('\n');
    const preview = (await upload(ws, owner.cookie, 'asana', asana)).json();
    expect(preview).toMatchObject({
      status: 'ready',
      summary: { projects: 0, tasks: 3 },
      assignees: people(1, { 'ann@elsewhere.test': 1 }),
    });
    await run(ws, owner.cookie, preview.id, choose({ 'ann@elsewhere.test': bob.userId }));
    expect(await tasksOf(ws, owner.cookie, 'Launch')).toEqual({
      'Press kit': [bob.email],
      'Press kit › Logos': [bob.email],
      Announce: [],
    });
  });

  it('imports a Trello board: open cards, checklist items as sub-tasks, members by their name', async () => {
    const { owner, bob, ws } = await team();
    const board = {
      name: 'Roadmap',
      lists: [
        { id: 'l1', name: 'Doing', closed: false },
        { id: 'l2', name: 'Old', closed: true },
      ],
      cards: [
        {
          id: 'c1',
          name: 'Onboarding',
          idList: 'l1',
          idMembers: ['m1'],
          closed: false,
          due: null,
          desc: '',
          labels: [],
        },
        { id: 'c2', name: 'Archived card', idList: 'l1', idMembers: [], closed: true, labels: [] },
        { id: 'c3', name: 'In a closed list', idList: 'l2', idMembers: [], closed: false, labels: [] },
        {
          id: 'c4',
          name: 'Billing',
          idList: 'l1',
          idMembers: ['m1', 'm2'],
          closed: false,
          labels: [{ name: 'money' }],
        },
      ],
      members: [
        { id: 'm1', fullName: 'Bob Stone', username: 'bobstone' },
        { id: 'm2', fullName: '', username: 'ann' },
      ],
      checklists: [{ id: 'k1', idCard: 'c1', name: 'Steps', checkItems: [{ name: 'Welcome mail' }, { name: 'Tour' }] }],
    };
    const preview = await upload(ws, owner.cookie, 'trello', JSON.stringify(board), 'application/octet-stream');
    expect(preview.statusCode, preview.body).toBe(201);
    expect(preview.json()).toMatchObject({
      summary: { projects: 1, tasks: 4 },
      assignees: people(0, { 'Bob Stone': 2, ann: 1 }),
    });
    await run(ws, owner.cookie, preview.json().id, choose({ 'Bob Stone': bob.userId, ann: null }));
    expect(await tasksOf(ws, owner.cookie, 'Roadmap')).toEqual({
      Onboarding: [bob.email],
      'Onboarding › Welcome mail': [],
      'Onboarding › Tour': [],
      Billing: [bob.email],
    });
  });

  it('imports a ClickUp export: the List is the project, Parent ID makes sub-tasks, Assignees is a list', async () => {
    const { owner, bob, ws } = await team();
    const clickup = [
      'Task ID,Task Name,Task Content,Status,Date Created,Due Date,Start Date,Parent ID,Assignees,Priority,Tags,Space Name,Folder Name,List Name,Time Estimated',
      `86a1,Write tests,,in progress,1730000000000,,,86a0,"[${bob.email}, ${owner.email}]",high,[],Engineering,Q4,Sprint 9,3600000`,
      `86a0,Release 2.0,Ship it,open,1730000000000,,,,[${bob.email}],,[],Engineering,Q4,Sprint 9,`,
    ].join('\n');
    const preview = (await upload(ws, owner.cookie, 'clickup', clickup)).json();
    expect(preview).toMatchObject({ status: 'ready', summary: { projects: 1, tasks: 2 }, assignees: { assigned: 3 } });
    await run(ws, owner.cookie, preview.id);
    expect(await tasksOf(ws, owner.cookie, 'Sprint 9')).toEqual({
      'Release 2.0': [bob.email],
      'Release 2.0 › Write tests': [bob.email, owner.email].sort(),
    });
  });

  it('imports a monday.com board workbook: groups skipped, sub-items under their item', async () => {
    const { owner, bob, ws } = await team();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Marketing');
    sheet.addRow(['Marketing plan']);
    sheet.addRow([]);
    sheet.addRow(['This month']);
    sheet.addRow(['Name', 'Person', 'Status', 'Date']);
    sheet.addRow(['Newsletter', 'Bob Stone', 'Working on it', '2026-12-01']);
    sheet.addRow([null, 'Subitems', 'Owner', 'Status']);
    sheet.addRow([null, 'Draft', 'Eve Moss', 'Done']);
    sheet.addRow(['Webinar']);
    sheet.addRow([]);
    sheet.addRow(['Next month']);
    sheet.addRow(['Name', 'Person', 'Status', 'Date']);
    sheet.addRow(['Blog post', `Bob Stone, ${bob.email}`, 'Stuck', '']);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const preview = (await upload(ws, owner.cookie, 'monday', file, 'application/octet-stream')).json();
    expect(preview).toMatchObject({
      status: 'ready',
      rowsRead: 4,
      summary: { projects: 1, tasks: 4 },
      assignees: people(1, { 'Bob Stone': 2, 'Eve Moss': 1 }),
    });
    expect(preview.rows.map((r: { line: number }) => r.line)).toEqual([5, 7, 8, 12]);
    await run(ws, owner.cookie, preview.id, choose({ 'Bob Stone': bob.userId, 'Eve Moss': null }));
    expect(await tasksOf(ws, owner.cookie, 'Marketing plan')).toEqual({
      Newsletter: [bob.email],
      'Newsletter › Draft': [],
      Webinar: [],
      'Blog post': [bob.email],
    });
  });

  it('imports a Todoist template named after its project: indents make sub-tasks, sections and notes are skipped', async () => {
    const { owner, bob, ws } = await team();
    const todoist = [
      'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE',
      'section,Week 1,,,,,,,,',
      'task,Move office,,1,1,Ann (123),Bob Stone (456),,en,Europe/Berlin',
      'task,Book movers,,4,2,Ann (123),,tomorrow,en,Europe/Berlin',
      'note,Call before 10,,,,Ann (123),,,,',
      'task,Pack boxes,,4,3,Ann (123),Bob Stone (456),,en,Europe/Berlin',
      'task,Party,,4,1,Ann (123),,,en,Europe/Berlin',
    ].join('\n');
    const preview = (await upload(ws, owner.cookie, 'todoist&fileName=Office%20move.csv', todoist)).json();
    expect(preview).toMatchObject({
      status: 'ready',
      summary: { projects: 1, tasks: 4 },
      assignees: { unmatched: [{ name: 'Bob Stone', tasks: 2 }] },
    });
    await run(ws, owner.cookie, preview.id, choose({ 'Bob Stone': bob.userId }));
    expect(await tasksOf(ws, owner.cookie, 'Office move')).toEqual({
      'Move office': [bob.email],
      'Move office › Book movers': [],
      'Move office › Book movers › Pack boxes': [bob.email],
      Party: [],
    });

    const tooDeep = (
      await upload(ws, owner.cookie, 'todoist', `${todoist.split('\n')[0]}\ntask,Orphan,,1,2,,,,,\n`)
    ).json();
    expect(tooDeep.errors).toEqual([
      { line: 2, error: 'The “INDENT” column holds “2”, deeper than the task before it allows.' },
    ]);
  });
});
