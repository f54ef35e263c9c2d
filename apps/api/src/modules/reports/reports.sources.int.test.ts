import { writeFileSync } from 'node:fs';
import type { SourceSummaryView } from '@sundial/core';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { joinWorkspace, type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { up as createFocusSpans } from '../../../test/sources/focus.migration.js';
import { focusSource } from '../../../test/sources/focus.source.js';
import type { SourceGroup } from './reports.sources.js';

/**
 * A second source of facts plugs into the report engine as one file and its migration
 * (test/sources/focus.*): grouped by its own dimensions and by person, group and period as time
 * is, summed with its own sums, seen by whom the source's permission lets see it, with figures
 * added by hand below.
 */
const ctx = useTestApp({}, { reportSources: [{ source: focusSource, seeOthers: 'time:view_others' }] });
const { ok, call } = workspaceCalls(ctx, () => `/api/v1/workspaces/${owner.workspaceId}`);
let owner: SignedUp;
let member: SignedUp;

/** The Summary of the focus source as `who` asks it over HTTP (`query` on top of the range). */
const summary = (who: SignedUp, query: string): Promise<SourceSummaryView> =>
  ok(who, 'GET', `/reports/sources/focus/summary?preset=custom&from=2026-03-02&to=2026-03-05&${query}`);

const HOUR = 3600;

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  member = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
  await createFocusSpans(ctx.t.db as never);
  // Two groups; the member is in both, so a group Summary counts their facts under each.
  const red = await ok(owner, 'POST', '/groups', { name: 'Red' });
  const blue = await ok(owner, 'POST', '/groups', { name: 'Blue' });
  await ok(owner, 'PUT', `/groups/${red.id}/members/${member.userId}`);
  await ok(owner, 'PUT', `/groups/${blue.id}/members/${member.userId}`);
  await ok(owner, 'PUT', `/groups/${red.id}/members/${owner.userId}`);
  const span = (who: SignedUp, startedAt: string, hours: number, app: string, focused: boolean) => ({
    workspace_id: owner.workspaceId,
    user_id: who.userId,
    started_at: new Date(startedAt),
    seconds: hours * HOUR,
    app,
    focused,
  });
  await ctx.t.db
    .insertInto('focus_spans' as never)
    .values([
      span(owner, '2026-03-02T08:00:00Z', 2, 'Editor', true),
      span(owner, '2026-03-02T11:00:00Z', 1, 'Mail', false),
      span(owner, '2026-03-03T09:00:00Z', 3, 'Editor', true),
      span(member, '2026-03-02T09:00:00Z', 4, 'Editor', true),
      span(member, '2026-03-04T22:30:00Z', 1, 'Browser', false),
      // Outside the range: the day after it, and (in UTC) the evening before it.
      span(member, '2026-03-06T00:30:00Z', 5, 'Editor', true),
      span(owner, '2026-03-01T23:00:00Z', 7, 'Editor', true),
    ] as never)
    .execute();
});

const flat = (groups: SourceGroup[]) => Object.fromEntries(groups.map((g) => [g.label ?? g.key, g.sums]));

describe('a source of facts besides time', () => {
  it('is summed by its own dimensions within each person, with subtotals and totals', async () => {
    const report = await summary(owner, 'timeZone=UTC&groupBy=user,app');
    expect(report.totals).toEqual({ seconds: 11 * HOUR, focused_seconds: 9 * HOUR, spans: 5 });
    const byUser = new Map(report.groups.map((g) => [g.key, g]));
    const mine = byUser.get(owner.userId);
    const theirs = byUser.get(member.userId);
    const { name } = await ctx.t.db
      .selectFrom('users')
      .select('name')
      .where('id', '=', owner.userId)
      .executeTakeFirstOrThrow();
    expect(mine?.label).toBe(name);
    expect(mine?.sums).toEqual({ seconds: 6 * HOUR, focused_seconds: 5 * HOUR, spans: 3 });
    expect(flat(mine?.children ?? [])).toEqual({
      Editor: { seconds: 5 * HOUR, focused_seconds: 5 * HOUR, spans: 2 },
      Mail: { seconds: HOUR, focused_seconds: 0, spans: 1 },
    });
    // Each level in order of its names (as on screen), whatever order the database gave.
    expect(mine?.children?.map((g) => g.key)).toEqual(['Editor', 'Mail']);
    expect(theirs?.children?.map((g) => g.key)).toEqual(['Browser', 'Editor']);
    expect(flat(theirs?.children ?? [])).toEqual({
      Editor: { seconds: 4 * HOUR, focused_seconds: 4 * HOUR, spans: 1 },
      Browser: { seconds: HOUR, focused_seconds: 0, spans: 1 },
    });
  });

  it('takes its days in the zone asked for, and groups them by period', async () => {
    const report = await summary(owner, 'timeZone=Asia/Tokyo&groupBy=day&sums=seconds');
    // In Tokyo (UTC+9) the span at 23:00 UTC on March 1 falls on March 2, and the member's
    // 22:30 on March 4 on March 5; the one at 00:30 on March 6 stays outside.
    expect(flat(report.groups)).toEqual({
      '2026-03-02': { seconds: 14 * HOUR },
      '2026-03-03': { seconds: 3 * HOUR },
      '2026-03-05': { seconds: HOUR },
    });
    expect(report.groups.map((g) => g.key)).toEqual(['2026-03-02', '2026-03-03', '2026-03-05']);
    const weeks = await summary(owner, 'timeZone=UTC&weekStart=monday&groupBy=week,focused&sums=seconds');
    expect(weeks.groups).toHaveLength(1);
    expect(weeks.groups[0]?.key).toBe('2026-03-02');
    expect(flat(weeks.groups[0]?.children ?? [])).toEqual({
      true: { seconds: 9 * HOUR },
      false: { seconds: 2 * HOUR },
    });
  });

  it('counts a person in two groups under each, and once in the total', async () => {
    const report = await summary(owner, 'timeZone=UTC&groupBy=group&sums=seconds,spans');
    expect(flat(report.groups)).toEqual({
      Red: { seconds: 11 * HOUR, spans: 5 },
      Blue: { seconds: 5 * HOUR, spans: 2 },
    });
    expect(report.totals).toEqual({ seconds: 11 * HOUR, spans: 5 });
  });

  it("shows a member their own facts only, as time's permission says", async () => {
    const report = await summary(member, 'timeZone=UTC&groupBy=user');
    expect(report.groups.map((g) => g.key)).toEqual([member.userId]);
    expect(report.totals).toEqual({ seconds: 5 * HOUR, focused_seconds: 4 * HOUR, spans: 2 });
  });

  it('refuses an unknown source, dimension or sum with a clear message', async () => {
    const refusal = async (url: string) => {
      const response = await call(owner, 'GET', url);
      return { status: response.statusCode, message: response.json().error?.message };
    };
    expect(await refusal('/reports/sources/weather/summary')).toEqual({
      status: 404,
      message: 'There is no report of weather.',
    });
    expect(await refusal('/reports/sources/focus/summary?groupBy=project')).toEqual({
      status: 422,
      message: 'Group focus by one of: user, group, day, week, month, year, app, focused.',
    });
    expect(await refusal('/reports/sources/focus/summary?sums=billable_cents')).toEqual({
      status: 422,
      message: 'The sums of focus are among: seconds, focused_seconds, spans.',
    });
    expect((await refusal('/reports/sources/focus/summary?groupBy=user,app,day,week')).status).toBe(422);
    expect((await call(undefined, 'GET', '/reports/sources/focus/summary')).statusCode).toBe(401);
  });
});

describe('exports of a source of facts', () => {
  const query = 'kind=source&source=focus&preset=custom&from=2026-03-02&to=2026-03-05&timeZone=UTC&groupBy=user,app';
  const download = async (url: string) => {
    const response = await call(owner, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const names = async () => {
    const rows = await ctx.t.db.selectFrom('users').select(['id', 'name']).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  };

  it('writes its Summary as CSV with its own columns, one row a group, and the totals', async () => {
    const response = await download(`/reports/export?${query}&format=csv`);
    expect(response.headers['content-disposition']).toContain('focus-2026-03-02-2026-03-05.csv');
    const rows: string[][] = parse(response.rawPayload, { bom: true });
    const name = await names();
    const me = name.get(owner.userId);
    const them = name.get(member.userId);
    expect(rows[0]).toEqual([
      'User',
      'Application',
      'Time',
      'Time (hours)',
      'Focused time',
      'Focused time (hours)',
      'Spans',
    ]);
    // The CSV keeps the leaves and the total (sums stay sums); the people's subtotals are left out.
    expect(rows.slice(1).sort()).toEqual(
      [
        [me, 'Editor', '5:00:00', '5.00', '5:00:00', '5.00', '2'],
        [me, 'Mail', '1:00:00', '1.00', '0:00:00', '0.00', '1'],
        [them, 'Editor', '4:00:00', '4.00', '4:00:00', '4.00', '1'],
        [them, 'Browser', '1:00:00', '1.00', '0:00:00', '0.00', '1'],
        ['Total', '', '11:00:00', '11.00', '9:00:00', '9.00', '5'],
      ].sort(),
    );
  });

  it('writes it as XLSX with typed cells, as PDF, and as a background job with the same figures', async () => {
    const xlsx = await download(`/reports/export?${query}&format=xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as never);
    const sheet = book.worksheets[0];
    const last = sheet?.getRow(sheet.rowCount);
    expect(last?.getCell(1).value).toBe('Total');
    // A duration is stored as days, shown [h]:mm:ss (exceljs reads it back as a date from 1899-12-30): 11 hours.
    const value = last?.getCell(3).value;
    expect(value).toBeInstanceOf(Date);
    expect(((value as Date).getTime() - Date.UTC(1899, 11, 30)) / 1000).toBe(11 * HOUR);
    expect(last?.getCell(7).value).toBe(5);

    const pdf = await download(`/reports/export?${query}&format=pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // EXPORT_DUMP=<folder> keeps the PDF there, to look at (pdftoppm).
    if (process.env.EXPORT_DUMP) writeFileSync(`${process.env.EXPORT_DUMP}/focus.pdf`, pdf.rawPayload);

    const job = await ok(owner, 'POST', '/reports/export-jobs', { query, format: 'csv' });
    await ctx.t.app.services.jobs.drain();
    const file = await download(`/reports/export-jobs/${job.id}/file`);
    const rows: string[][] = parse(file.rawPayload, { bom: true });
    expect(rows.at(-1)).toEqual(['Total', '', '11:00:00', '11.00', '9:00:00', '9.00', '5']);
  });

  it('refuses a source that is not there (an export or a job), and a source export without a source', async () => {
    const unknown = await call(owner, 'GET', '/reports/export?kind=source&source=weather&format=csv');
    expect([unknown.statusCode, unknown.json().error.message]).toEqual([404, 'There is no report of weather.']);
    // An export job is refused when asked for, not when it runs.
    const job = await call(owner, 'POST', '/reports/export-jobs', {
      query: 'kind=source&source=weather',
      format: 'csv',
    });
    expect([job.statusCode, job.json().error.message]).toEqual([404, 'There is no report of weather.']);
    const unnamed = await call(owner, 'GET', '/reports/export?kind=source&format=csv');
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.body).toContain('Name the source of facts to export.');
  });
});
