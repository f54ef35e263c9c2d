import { describe, expect, it } from 'vitest';
import { sendCsv, signUp, useTestApp } from '../../../test/harness.js';
import { membersRepository } from '../members/members.repository.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

/** Uploads `csv` as the raw body, the way the web sends a chosen file. */
const upload = (ws: string, cookie: string, source: string, csv: string | Buffer) =>
  sendCsv(ctx.t.app, `${ws}/imports?source=${source}`, cookie, csv);

/** Uploads, starts the import, runs the job and answers the finished import. */
async function importFile(ws: string, cookie: string, source: string, csv: string) {
  const read = await upload(ws, cookie, source, csv);
  expect(read.statusCode, read.body).toBe(201);
  const started = await call('POST', `${ws}/imports/${read.json().id}/run`, cookie);
  expect(started.statusCode, started.body).toBe(202);
  await ctx.t.app.services.jobs.drain();
  const done = (await call('GET', `${ws}/imports/${read.json().id}`, cookie)).json();
  expect(done.status, done.message).toBe('done');
  return done;
}

const OURS = `Client,Project,Task,Parent Task
Acme,Website,Design,
Acme,Website,Logo,Design
Acme,Website,Sketch,Design > Logo
,Internal,Hiring,
Globex,Website,,
`;

describe('imports', () => {
  it('previews a CSV with per-row errors and imports it in one transaction, nothing half-imported', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const bad = `${OURS},,Orphan task,\nAcme,${'x'.repeat(256)},,\n`;

    const preview = await upload(ws, owner.cookie, 'csv', bad);
    expect(preview.statusCode, preview.body).toBe(201);
    expect(preview.json()).toMatchObject({
      status: 'invalid',
      rowsRead: 7,
      errorCount: 2,
      summary: { clients: 2, projects: 3, tasks: 4, tags: 0, timeEntries: 0 },
      errors: [
        { line: 7, error: 'A task needs a project.' },
        { line: 8, error: 'Project name must be at most 255 characters.' },
      ],
    });
    const errors = preview.json().rows.filter((r: { error: string | null }) => r.error);
    expect(errors).toEqual([
      expect.objectContaining({ line: 7, error: 'A task needs a project.' }),
      expect.objectContaining({ line: 8, error: 'Project name must be at most 255 characters.' }),
    ]);

    const refused = await call('POST', `${ws}/imports/${preview.json().id}/run`, owner.cookie);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toMatch(/^2 rows have errors \(first: line 7: A task needs a project\.\)/);
    expect((await call('GET', `${ws}/projects`, owner.cookie)).json().total).toBe(0);

    const done = await importFile(ws, owner.cookie, 'csv', OURS);
    expect(done).toMatchObject({ rowsRead: 5, rowsImported: 5, errorCount: 0 });
    expect(done.summary).toEqual({ clients: 2, projects: 3, tasks: 4, tags: 0, timeEntries: 0 });
    const projects = (await call('GET', `${ws}/projects?search=website`, owner.cookie)).json().items;
    expect(projects.map((p: { clientName: string }) => p.clientName).sort()).toEqual(['Acme', 'Globex']);
    const acme = projects.find((p: { clientName: string }) => p.clientName === 'Acme');
    const tasks = (await call('GET', `${ws}/projects/${acme.id}/tasks`, owner.cookie)).json().items;
    const byName = Object.fromEntries(tasks.map((t: { name: string }) => [t.name, t]));
    expect(byName.Logo.parentTaskId).toBe(byName.Design.id);
    expect(byName.Sketch.parentTaskId).toBe(byName.Logo.id);

    // Importing again reuses what exists.
    const again = await importFile(ws, owner.cookie, 'csv', OURS);
    expect(again.summary).toEqual({ clients: 0, projects: 0, tasks: 0, tags: 0, timeEntries: 0 });
  });

  it('imports a Toggl Track detailed export with tags and time entries in the importer’s time zone', async () => {
    const owner = await signUp(ctx.t.app);
    const teammate = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: teammate.userId,
      role: 'member',
    });
    await call('PATCH', '/api/v1/me', owner.cookie, { timeZone: 'Europe/Berlin' });
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const toggl = [
      'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount ()',
      `Ann,${owner.email},Acme,Website,Design,Wireframes,Yes,2026-11-02,09:00:00,2026-11-02,10:30:00,01:30:00,"design, meeting",`,
      `Bob,${teammate.email},Acme,Website,,Review,No,2026-11-03,14:00:00,2026-11-03,14:45:00,00:45:00,meeting,`,
      'Cy,cy@elsewhere.test,,,,Email,No,2026-11-04,08:00:00,2026-11-04,08:15:00,00:15:00,,',
    ].join('\n');
    const preview = (await upload(ws, owner.cookie, 'toggl', toggl)).json();
    expect(preview).toMatchObject({
      status: 'ready',
      errorCount: 0,
      summary: { clients: 1, projects: 1, tasks: 1, tags: 2, timeEntries: 3 },
    });
    const { summary } = await importFile(ws, owner.cookie, 'toggl', toggl);
    expect(summary).toEqual({ clients: 1, projects: 1, tasks: 1, tags: 2, timeEntries: 3 });

    const entries = await ctx.t.db
      .selectFrom('time_entries')
      .selectAll()
      .where('workspace_id', '=', owner.workspaceId)
      .orderBy('start_at')
      .execute();
    expect(entries.map((e) => [new Date(e.start_at).toISOString(), e.duration_seconds, e.user_id, e.billable])).toEqual(
      [
        ['2026-11-02T08:00:00.000Z', 5400, owner.userId, true],
        ['2026-11-03T13:00:00.000Z', 2700, teammate.userId, false],
        // Someone who is not a member: the entry is the importer's.
        ['2026-11-04T07:00:00.000Z', 900, owner.userId, false],
      ],
    );
    const lists = (await call('GET', `${ws}/tag-lists`, owner.cookie)).json().items;
    expect(lists).toEqual([
      expect.objectContaining({
        name: 'Imported from Toggl Track',
        tags: [expect.objectContaining({ name: 'design' }), expect.objectContaining({ name: 'meeting' })],
      }),
    ]);
    const links = await ctx.t.db
      .selectFrom('time_entry_tags')
      .select('tag_id')
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
    expect(links).toHaveLength(3);
    const project = (await call('GET', `${ws}/projects`, owner.cookie)).json().items[0];
    expect(project).toMatchObject({ name: 'Website', clientName: 'Acme', trackedSeconds: 8100 });
  });

  it('reads Clockify and Harvest exports', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const clockify = [
      'Project,Client,Description,Task,User,Group,Email,Tags,Billable,Start Date,Start Time,End Date,End Time,Duration (h),Duration (decimal)',
      `App,Initech,Standup,Meetings,Ann,,${owner.email},Internal,No,11/02/2026,09:00:00 AM,11/02/2026,09:15:00 AM,00:15:00,0.25`,
    ].join('\n');
    expect((await importFile(ws, owner.cookie, 'clockify', clockify)).summary).toEqual({
      clients: 1,
      projects: 1,
      tasks: 1,
      tags: 1,
      timeEntries: 1,
    });
    const harvest = [
      'Date,Client,Project,Project Code,Task,Notes,Hours,Hours Rounded,Billable?,Invoiced?,First Name,Last Name',
      '2026-11-05,Initech,App,,Development,Feature X,2.5,2.5,Yes,No,Ann,Lee',
      'not a date,Initech,App,,Development,,1,1,Yes,No,Ann,Lee',
    ].join('\n');
    const preview = (await upload(ws, owner.cookie, 'harvest', harvest)).json();
    expect(preview.errorCount).toBe(1);
    expect(preview.rows[1].error).toBe('The date “not a date” is not understood.');
    const fixed = harvest.split('\n').slice(0, 2).join('\n');
    expect((await importFile(ws, owner.cookie, 'harvest', fixed)).summary).toEqual({
      clients: 0,
      projects: 0,
      tasks: 1,
      tags: 0,
      timeEntries: 1,
    });
    const missing = await upload(ws, owner.cookie, 'csv', 'Foo,Bar\n1,2\n');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.message).toBe('The file needs a “Project” column. Its columns are: foo, bar.');
  });

  it('is for Admins and Managers only, and 404 for another workspace', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: member.userId,
      role: 'member',
    });
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    expect((await upload(ws, member.cookie, 'csv', OURS)).statusCode).toBe(403);
    const stranger = await signUp(ctx.t.app);
    expect((await upload(ws, stranger.cookie, 'csv', OURS)).statusCode).toBe(404);
    const mine = (await upload(ws, owner.cookie, 'csv', OURS)).json();
    expect((await call('GET', `${ws}/imports/${mine.id}`, member.cookie)).statusCode).toBe(403);
    expect((await call('POST', `${ws}/imports/${mine.id}/run`, member.cookie)).statusCode).toBe(403);
    // Another workspace's import does not exist here.
    const other = `/api/v1/workspaces/${stranger.workspaceId}`;
    expect((await call('GET', `${other}/imports/${mine.id}`, stranger.cookie)).statusCode).toBe(404);
    expect((await call('POST', `${other}/imports/${mine.id}/run`, stranger.cookie)).statusCode).toBe(404);
  });
});
