import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, sendCsv, signUp, useTestApp } from '../../../test/harness.js';

/**
 * Project totals are kept by triggers on time_entries (project_time_totals), not summed on read.
 * Every kind of write that changes time is made here through the API, and after each one the
 * totals the Projects list shows must equal a real sum over the entries.
 */
const ctx = useTestApp();

let owner: SignedUp;
let ws: string;

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
});

async function call(method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, body?: object) {
  const response = await ctx.call(method, `${ws}${url}`, owner.cookie, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.body ? response.json() : undefined;
}

/** What the Projects list shows, by project name. */
async function shown(): Promise<Record<string, number>> {
  const { items } = await call('GET', '/projects?archived=all&limit=500');
  return Object.fromEntries(
    (items as { name: string; trackedSeconds: number }[]).map((p) => [p.name, p.trackedSeconds]),
  );
}

/** The real sum over the workspace's finished entries, by project name (every project listed). */
async function summed(): Promise<Record<string, number>> {
  const rows = await ctx.t.db
    .selectFrom('projects as p')
    .leftJoin('time_entries as te', (j) => j.onRef('te.project_id', '=', 'p.id'))
    .select(['p.name', sql<number>`coalesce(sum(te.duration_seconds), 0)::int`.as('s')])
    .where('p.workspace_id', '=', owner.workspaceId)
    .groupBy(['p.id', 'p.name'])
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.s]));
}

async function expectTotalsTrue(expected?: Record<string, number>) {
  const real = await summed();
  expect(await shown()).toEqual(real);
  if (expected) expect(real).toMatchObject(expected);
}

const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 10, day, hour, minute)).toISOString();

describe('project totals kept by the database', () => {
  it('match a real sum after every kind of write', async () => {
    const alpha = await call('POST', '/projects', { name: 'Alpha' });
    const beta = await call('POST', '/projects', { name: 'Beta' });
    const gamma = await call('POST', '/projects', { name: 'Gamma' });
    const design = await call('POST', `/projects/${alpha.id}/tasks`, { name: 'Design' });
    await expectTotalsTrue({ Alpha: 0, Beta: 0, Gamma: 0 });

    // Created: one with a task, two on the project only, one without a project.
    const one = await call('POST', '/time-entries', {
      start: at(2, 9),
      end: at(2, 10),
      projectId: alpha.id,
      taskId: design.id,
    });
    const two = await call('POST', '/time-entries', { start: at(2, 11), end: at(2, 11, 30), projectId: alpha.id });
    const three = await call('POST', '/time-entries', { start: at(3, 9), end: at(3, 9, 45), projectId: beta.id });
    await call('POST', '/time-entries', { start: at(3, 10), end: at(3, 10, 15) });
    await expectTotalsTrue({ Alpha: 5400, Beta: 2700 });

    // Edited: a longer duration, then moved to another project, then taken off any project.
    await call('PATCH', `/time-entries/${two.id}`, { duration: '1h' });
    await expectTotalsTrue({ Alpha: 7200 });
    await call('PATCH', `/time-entries/${two.id}`, { projectId: gamma.id });
    await expectTotalsTrue({ Alpha: 3600, Gamma: 3600 });
    await call('PATCH', `/time-entries/${three.id}`, { projectId: null });
    await expectTotalsTrue({ Beta: 0 });

    // A running timer counts once it stops.
    const running = await call('POST', '/timer/start', { projectId: beta.id });
    await expectTotalsTrue({ Beta: 0 });
    // Started ten minutes ago, so that stopping it gives it a duration.
    await ctx.t.db
      .updateTable('time_entries')
      .set({ start_at: sql`now() - interval '10 minutes'` })
      .where('id', '=', running.entry.id)
      .execute();
    await call('POST', '/timer/stop', {});
    const afterStop = await summed();
    expect(afterStop.Beta).toBeGreaterThan(0);
    await expectTotalsTrue();

    // Bulk changes, bulk delete and Undo.
    await call('POST', '/time-entries/bulk-update', { ids: [one.id, three.id], set: { projectId: gamma.id } });
    await expectTotalsTrue({ Alpha: 0, Gamma: 3600 + 3600 + 2700 });
    await call('POST', '/time-entries/bulk-delete', { ids: [one.id, two.id] });
    await expectTotalsTrue({ Gamma: 2700 });
    await call('POST', '/time-entries/restore', { ids: [one.id, two.id] });
    await expectTotalsTrue({ Gamma: 3600 + 3600 + 2700 });
    await call('DELETE', `/time-entries/${three.id}`);
    await expectTotalsTrue({ Gamma: 7200 });

    // An import creates projects and entries in one go.
    const csv = [
      'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags',
      `Ann,${owner.email},Acme,Website,Design,Wireframes,Yes,2026-11-05,09:00:00,2026-11-05,10:30:00,01:30:00,`,
      `Ann,${owner.email},,Alpha,,Review,No,2026-11-05,14:00:00,2026-11-05,14:45:00,00:45:00,`,
    ].join('\n');
    const upload = await sendCsv(ctx.t.app, `${ws}/imports?source=toggl`, owner.cookie, csv);
    expect(upload.statusCode, upload.body).toBe(201);
    await call('POST', `/imports/${upload.json().id}/run`);
    await ctx.t.app.services.jobs.drain();
    await expectTotalsTrue({ Website: 5400, Alpha: 2700 });

    // Deleting a task keeps its time on the project; deleting a project takes its total with it.
    const review = await call('POST', `/projects/${gamma.id}/tasks`, { name: 'Review' });
    await call('PATCH', `/time-entries/${one.id}`, { taskId: review.id, projectId: gamma.id });
    await call('DELETE', `/tasks/${review.id}`);
    await expectTotalsTrue({ Gamma: 7200 });
    await call('DELETE', `/projects/${gamma.id}`);
    await expectTotalsTrue();
    const kept = await ctx.t.db
      .selectFrom('project_time_totals')
      .select('project_id')
      .where('project_id', '=', gamma.id)
      .execute();
    expect(kept).toEqual([]);
  });
});
