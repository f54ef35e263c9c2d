import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';

/**
 * What the reports show is what they count and order by (issue 30): the Detailed report sorted by
 * duration orders by the duration it shows for the range (JSON pages and the CSV alike), a running
 * timer by its time so far.
 */
const ctx = useTestApp();
let owner: SignedUp;
let ws: string;
const { ok } = workspaceCalls(ctx, () => ws);
const entry = async (body: object) => (await ok(owner, 'POST', '/time-entries', body)).id as string;
const day = (at: number) => new Date(at).toISOString().slice(0, 10);

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
});

/** Every page of a Detailed report, `limit` entries a page, in order. */
async function allPages(query: string, limit: number) {
  const notes: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: { note: string }[]; nextCursor: string | null } = await ok(
      owner,
      'GET',
      `/reports/detailed?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    notes.push(...page.items.map((e) => e.note));
    cursor = page.nextCursor;
  } while (cursor);
  return notes;
}
async function csvNotes(query: string) {
  const response = await ctx.t.app.inject({
    method: 'GET',
    url: `${ws}/reports/export?format=csv&kind=detailed&${query}`,
    headers: { cookie: owner.cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  const rows: string[][] = parse(response.rawPayload, { bom: true });
  const i = rows[0]?.indexOf('Description') ?? -1;
  return rows.slice(1, -1).map((r) => r[i]);
}

describe('the Detailed report sorted by duration', () => {
  it('orders by the duration shown for the range, not the stored one', async () => {
    // 5 h stored, 1 h of it on 3 November; 2 h and 30 min inside the day.
    await entry({ start: '2026-11-02T20:00:00Z', end: '2026-11-03T01:00:00Z', note: 'across midnight' });
    await entry({ start: '2026-11-03T10:00:00Z', end: '2026-11-03T12:00:00Z', note: 'two hours' });
    await entry({ start: '2026-11-03T13:00:00Z', end: '2026-11-03T13:30:00Z', note: 'half an hour' });
    const query = 'preset=custom&from=2026-11-03&to=2026-11-03&timeZone=UTC&sort=duration';
    const first = await ok(owner, 'GET', `/reports/detailed?${query}&order=desc`);
    expect(first.items.map((e: { note: string; seconds: number }) => [e.note, e.seconds])).toEqual([
      ['two hours', 7200],
      ['across midnight', 3600],
      ['half an hour', 1800],
    ]);
    expect(await allPages(`${query}&order=desc`, 1)).toEqual(['two hours', 'across midnight', 'half an hour']);
    expect(await allPages(`${query}&order=asc`, 1)).toEqual(['half an hour', 'across midnight', 'two hours']);
    expect(await csvNotes(`${query}&order=desc`)).toEqual(['two hours', 'across midnight', 'half an hour']);
  });

  it('orders a running timer by its time so far', async () => {
    const now = Date.now();
    await ctx.t.db
      .insertInto('time_entries')
      .values({
        id: newId(),
        workspace_id: owner.workspaceId,
        user_id: owner.userId,
        start_at: new Date(now - 2 * 3600_000),
        note: 'running',
        created_by_user_id: owner.userId,
      })
      .execute();
    await entry({
      start: new Date(now - 6 * 3600_000).toISOString(),
      end: new Date(now - 5 * 3600_000).toISOString(),
      note: 'one hour',
    });
    const query = `preset=custom&from=${day(now - 2 * 86_400_000)}&to=${day(now + 86_400_000)}&timeZone=UTC&sort=duration&order=desc`;
    const notes = (await ok(owner, 'GET', `/reports/detailed?${query}`)).items.map((e: { note: string }) => e.note);
    expect(notes.indexOf('running')).toBeLessThan(notes.indexOf('one hour'));
    expect(await csvNotes(query)).toEqual(notes);
  });
});

describe('an instant entry belongs to the day it starts in', () => {
  it('lists and counts a 0-second entry at local midnight on its day only, everywhere', async () => {
    await entry({ start: '2026-11-10T00:00:00Z', end: '2026-11-10T00:00:00Z', note: 'instant' });
    const notesOf = async (from: string, to: string) =>
      (await ok(owner, 'GET', `/time-entries?from=${from}&to=${to}`)).items.map((e: { note: string }) => e.note);
    expect(await notesOf('2026-11-10T00:00:00Z', '2026-11-11T00:00:00Z')).toEqual(['instant']);
    expect(await notesOf('2026-11-09T00:00:00Z', '2026-11-10T00:00:00Z')).toEqual([]);

    const range = (from: string, to: string) => `preset=custom&from=${from}&to=${to}&timeZone=UTC`;
    const detailed = async (from: string, to: string) =>
      (await ok(owner, 'GET', `/reports/detailed?${range(from, to)}`)).items.map((e: { note: string }) => e.note);
    expect(await detailed('2026-11-10', '2026-11-10')).toEqual(['instant']);
    expect(await detailed('2026-11-09', '2026-11-09')).toEqual([]);

    // The report zone is the report's, so the Summary reads the rollups; a description filter reads the entries.
    await ok(owner, 'PATCH', '/time-settings', { reportTimeZone: 'UTC' });
    for (const via of ['', '&description=instant']) {
      const count = async (from: string, to: string, groupBy = '') =>
        ok(owner, 'GET', `/reports/summary?${range(from, to)}&measures=entryCount,trackedSeconds${groupBy}${via}`);
      expect((await count('2026-11-10', '2026-11-10')).totals.entryCount, via).toBe(1);
      expect((await count('2026-11-09', '2026-11-09')).totals.entryCount, via).toBe(0);
      const byDay = await count('2026-11-09', '2026-11-10', '&groupBy=day');
      expect(byDay.totals.entryCount, via).toBe(1);
      expect(
        byDay.groups.map((g: { key: { key: string }; measures: { entryCount: number } }) => [
          g.key.key,
          g.measures.entryCount,
        ]),
        via,
      ).toEqual([['2026-11-10', 1]]);
      expect((await count('2026-11-09', '2026-11-10', '&groupBy=project')).totals.entryCount, via).toBe(1);
    }
  });
});
