import { writeFileSync } from 'node:fs';
import type { Role } from '@sundial/core';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { joinWorkspace, type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { pdfText } from '../../../test/pdf-text.js';
import { greyPng } from '../../../test/png.js';

/**
 * Exports: every format parsed back and held to the report's own JSON (the Summary, matrix and
 * Detailed APIs), the Detailed report streamed page by page, formula injection, who gets which
 * money columns, and refusals. Two entries per engine page, so a Detailed export takes several.
 */
const ctx = useTestApp({ EXPORT_PAGE_ROWS: '2' });
let owner: SignedUp;
let manager: SignedUp;
let memberA: SignedUp; // in the manager's group
let memberB: SignedUp;
let ws: string;
const { ok } = workspaceCalls(ctx, () => ws);
const join = (role: Role) => joinWorkspace(ctx.t, owner.workspaceId, role);
const ids = {} as Record<'alpha' | 'beta' | 't1' | 't2', string>;
const RANGE = 'preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC';

const exportOf = (who: SignedUp | undefined, query: string) =>
  ctx.t.app.inject({
    method: 'GET',
    url: `${ws}/reports/export?${query}`,
    headers: who ? { cookie: who.cookie } : {},
  });
async function file(who: SignedUp, query: string) {
  const response = await exportOf(who, query);
  expect(response.statusCode, response.body).toBe(200);
  // EXPORT_DUMP=<folder> keeps every exported file there, to open and look at (pdftoppm for the PDFs).
  if (process.env.EXPORT_DUMP)
    writeFileSync(
      `${process.env.EXPORT_DUMP}/${Date.now()}-${response.headers['content-disposition']?.toString().match(/filename="([^"]+)"/)?.[1]}`,
      response.rawPayload,
    );
  return response;
}
const csvOf = async (who: SignedUp, query: string): Promise<string[][]> =>
  parse((await file(who, `format=csv&${query}`)).rawPayload, { bom: true });
const seconds = (hms: string) => {
  const [h, m, s] = hms.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};
const hms = (total: number) =>
  `${Math.floor(total / 3600)}:${String(Math.floor((total % 3600) / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
/** A duration cell read back: exceljs reads a number formatted [h]:mm:ss as a date of 1899-12-30. */
const durationOf = (value: unknown) =>
  Math.round(value instanceof Date ? (value.getTime() - Date.UTC(1899, 11, 30)) / 1000 : Number(value) * 86_400);
const column = (rows: string[][], header: string) => {
  const i = rows[0]?.indexOf(header) ?? -1;
  expect(i, `column ${header} in ${rows[0]}`).toBeGreaterThanOrEqual(0);
  return rows.slice(1).map((r) => r[i] as string);
};

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  manager = await join('manager');
  memberA = await join('member');
  memberB = await join('member');
  ids.alpha = (await ok(owner, 'POST', '/projects', { name: 'Alpha', isPublic: true })).id;
  ids.beta = (await ok(owner, 'POST', '/projects', { name: 'Beta', isPublic: true })).id;
  const group = (await ok(owner, 'POST', '/groups', { name: 'Team' })).id;
  await ok(owner, 'PUT', `/groups/${group}/members/${manager.userId}`);
  await ok(owner, 'PUT', `/groups/${group}/members/${memberA.userId}`);
  const list = await ok(owner, 'POST', '/tag-lists', { name: 'Kinds' });
  ids.t1 = (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'T1' })).id;
  ids.t2 = (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'T2' })).id;
  const entry = async (who: SignedUp, body: object) =>
    (await ok(owner, 'POST', '/time-entries', { userId: who.userId, ...body })).id as string;
  const a = await entry(memberA, {
    start: '2026-11-02T09:00:00Z',
    end: '2026-11-02T11:00:00Z',
    projectId: ids.alpha,
    tagIds: [ids.t1],
    billable: true,
    note: '=HYPERLINK("http://evil.example","click")',
  });
  await entry(memberB, {
    start: '2026-11-02T10:00:00Z',
    end: '2026-11-02T11:30:00Z',
    projectId: ids.beta,
    tagIds: [ids.t1, ids.t2],
    note: '+1 call',
  });
  const m = await entry(manager, { start: '2026-11-03T22:00:00Z', end: '2026-11-04T02:00:00Z', note: '@SUM(A1)' });
  await entry(owner, { start: '2026-11-04T08:00:00Z', end: '2026-11-04T08:30:15Z', note: 'Café für 日本 -1' });
  await ctx.t.db
    .updateTable('time_entries')
    .set({ billable_rate_cents: 10_000, cost_rate_cents: 4_000 })
    .where('id', '=', a)
    .execute();
  await ctx.t.db.updateTable('time_entries').set({ cost_rate_cents: 3_000 }).where('id', '=', m).execute();
});

describe('CSV', () => {
  it('holds the Summary: its leaves add up to the totals the Summary API gives', async () => {
    const query = `kind=summary&${RANGE}&groupBy=project,user&measures=trackedSeconds,billableSeconds,entryCount`;
    const summary = await ok(owner, 'GET', `/reports/summary?${query}`);
    const rows = await csvOf(owner, query);
    expect(rows[0]).toEqual([
      'Project',
      'User',
      'Tracked',
      'Tracked (hours)',
      'Billable time',
      'Billable time (hours)',
      'Entries',
    ]);
    const last = rows[rows.length - 1] as string[];
    expect(last).toEqual([
      'Total',
      '',
      hms(summary.totals.trackedSeconds),
      (Math.round(summary.totals.trackedSeconds / 36) / 100).toFixed(2),
      hms(summary.totals.billableSeconds),
      (Math.round(summary.totals.billableSeconds / 36) / 100).toFixed(2),
      String(summary.totals.entryCount),
    ]);
    const leaves = rows.slice(1, -1);
    expect(leaves.map((r) => r[0])).toEqual(['Alpha', 'Beta', 'Without project', 'Without project']);
    expect(leaves.reduce((sum, r) => sum + seconds(r[2] as string), 0)).toBe(summary.totals.trackedSeconds);
  });

  it('writes a byte-order mark only when asked', async () => {
    const query = `kind=summary&format=csv&${RANGE}`;
    expect([...(await file(owner, `${query}&bom=true`)).rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect((await file(owner, query)).rawPayload.subarray(0, 5).toString()).toBe(',Trac');
    const response = await file(owner, `${query}&title=Team week`);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="team-week-2026-11-02-2026-11-04.csv"; filename*=UTF-8''team-week-2026-11-02-2026-11-04.csv`,
    );
  });

  it('streams every Detailed entry over several engine pages, in the viewer date format, formulas made inert', async () => {
    await ctx.t.db
      .updateTable('users')
      .set({ date_format: 'DD.MM.YYYY', time_format: '12h' })
      .where('id', '=', owner.userId)
      .execute();
    try {
      const rows = await csvOf(owner, `kind=detailed&${RANGE}&sort=start&order=asc`);
      expect(rows).toHaveLength(1 + 4 + 1);
      expect(column(rows, 'Description')).toEqual([
        `'=HYPERLINK("http://evil.example","click")`,
        "'+1 call",
        "'@SUM(A1)",
        'Café für 日本 -1',
        '',
      ]);
      expect(column(rows, 'Date').slice(0, 2)).toEqual(['02.11.2026', '02.11.2026']);
      expect(column(rows, 'Start')[0]).toBe('02.11.2026 9:00 AM');
      expect(column(rows, 'End')[2]).toBe('04.11.2026 2:00 AM');
      expect(column(rows, 'Tags')[1]).toBe('T1, T2');
      expect(column(rows, 'Duration')).toEqual(['2:00:00', '1:30:00', '4:00:00', '0:30:15', '8:00:15']);
      expect(column(rows, 'Duration (hours)').at(-1)).toBe('8.00');
      expect(column(rows, 'Billable amount (USD)')).toEqual(['200.00', '0.00', '0.00', '0.00', '200.00']);
      expect(column(rows, 'Cost (USD)')).toEqual(['80.00', '0.00', '120.00', '0.00', '200.00']);
    } finally {
      await ctx.t.db
        .updateTable('users')
        .set({ date_format: 'YYYY-MM-DD', time_format: '24h' })
        .where('id', '=', owner.userId)
        .execute();
    }
  });

  it('holds the matrix: cells and totals as the matrix API gives them', async () => {
    const query = `kind=matrix&${RANGE}&rows=user&columns=day&title=People by days`;
    const matrix = await ok(owner, 'GET', `/reports/matrix?${query}&measures=trackedSeconds`);
    const rows = await csvOf(owner, query);
    expect(rows[0]).toEqual(['User', '2026-11-02', '2026-11-03', '2026-11-04', 'Total']);
    // Every day of the range is a column, as on screen, also one without time.
    const empty = await csvOf(
      owner,
      `kind=matrix&preset=custom&from=2026-11-01&to=2026-11-02&timeZone=UTC&rows=user&columns=day`,
    );
    expect(empty[0]).toEqual(['User', '2026-11-01', '2026-11-02', 'Total']);
    expect(rows.at(-1)).toEqual([
      'Total',
      ...matrix.columns.map((c: { totals: { trackedSeconds: number } }) => hms(c.totals.trackedSeconds)),
      hms(matrix.totals.trackedSeconds),
    ]);
    expect(rows).toHaveLength(1 + matrix.rows.length + 1);
  });
});

describe('money columns follow the report permissions', () => {
  const detailedHeaders = async (who: SignedUp) => (await csvOf(who, `kind=detailed&${RANGE}`))[0];

  it('gives owners billable and cost columns, managers billable only, members none', async () => {
    expect(await detailedHeaders(owner)).toEqual(expect.arrayContaining(['Billable amount (USD)', 'Cost (USD)']));
    const managers = await detailedHeaders(manager);
    expect(managers).toContain('Billable amount (USD)');
    expect(managers).not.toContain('Cost (USD)');
    const members = await detailedHeaders(memberA);
    expect(members?.some((h) => h.includes('USD'))).toBe(false);
  });

  it('shows each role only the time it reaches', async () => {
    const tracked = async (who: SignedUp) => column(await csvOf(who, `kind=detailed&${RANGE}`), 'Duration').at(-1);
    expect(await tracked(owner)).toBe('8:00:15');
    expect(await tracked(manager)).toBe('6:00:00');
    expect(await tracked(memberA)).toBe('2:00:00');
    expect(await tracked(memberB)).toBe('1:30:00');
  });

  it('refuses a Summary with money the actor may not see, as the report does', async () => {
    const query = `kind=summary&format=csv&${RANGE}`;
    const refused = await exportOf(manager, `${query}&measures=costAmount`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('money_forbidden');
    expect((await exportOf(memberA, `${query}&measures=billableAmount`)).statusCode).toBe(403);
    expect((await exportOf(memberA, `kind=matrix&format=pdf&${RANGE}&measures=margin`)).statusCode).toBe(403);
    const rows = await csvOf(manager, `kind=summary&${RANGE}&measures=billableAmount`);
    expect(rows.at(-1)).toEqual(['Total', '200.00']);
  });
});

describe('XLSX', () => {
  const workbookOf = async (who: SignedUp, query: string) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await file(who, `format=xlsx&${query}`)).rawPayload as never);
    return workbook;
  };

  it('holds the Summary as typed cells: levels with bold subtotals, durations and money as numbers, a frozen header', async () => {
    const query = `kind=summary&${RANGE}&groupBy=project,user&measures=trackedSeconds,billableAmount,costAmount,margin`;
    const summary = await ok(owner, 'GET', `/reports/summary?${query}`);
    const workbook = await workbookOf(owner, query);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expect(sheet.name).toBe('Summary');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const header = sheet.getRow(1).values as unknown[];
    expect(header.slice(1)).toEqual([
      'Project',
      'User',
      'Tracked',
      'Tracked (hours)',
      'Billable amount (USD)',
      'Cost (USD)',
      'Margin (USD)',
    ]);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    const total = sheet.getRow(sheet.rowCount);
    expect(total.getCell(1).value).toBe('Total');
    expect(durationOf(total.getCell(3).value)).toBe(summary.totals.trackedSeconds);
    expect(total.getCell(3).numFmt).toBe('[h]:mm:ss');
    expect(total.getCell(5).value).toBe(summary.totals.billableAmount / 100);
    expect(total.getCell(5).numFmt).toContain('"$"#,##0.00');
    expect(total.getCell(6).value).toBe(summary.totals.costAmount / 100);
    expect(total.getCell(7).value).toBe(summary.totals.margin / 100);
    // Alpha's subtotal row is bold, its user one level in.
    expect(sheet.getRow(2).getCell(1).value).toBe('Alpha');
    expect(sheet.getRow(2).font?.bold).toBe(true);
    expect(sheet.getRow(3).getCell(1).value).toBe(null);
    expect(sheet.getRow(3).outlineLevel).toBe(1);
    expect(workbook.getWorksheet('Filters')?.getRow(3).getCell(1).value).toMatch(/^Custom range: 2026-11-02/);
  });

  it('holds the Detailed report with dates as dates', async () => {
    const workbook = await workbookOf(owner, `kind=detailed&${RANGE}&sort=start&order=asc`);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expect(sheet.rowCount).toBe(1 + 4 + 1);
    const first = sheet.getRow(2);
    expect(first.getCell(1).value).toEqual(new Date(Date.UTC(2026, 10, 2)));
    expect(first.getCell(1).numFmt).toBe('yyyy-mm-dd');
    expect(first.getCell(2).value).toEqual(new Date(Date.UTC(2026, 10, 2, 9)));
    // Text stays text in a workbook: no formula is written.
    expect(first.getCell(8).value).toBe('=HYPERLINK("http://evil.example","click")');
    expect(durationOf(sheet.getRow(6).getCell(12).value)).toBe(8 * 3600 + 15);
  });
});

describe('PDF', () => {
  it('has the title, workspace, filters in words, the totals and page numbers', async () => {
    const query = `kind=summary&${RANGE}&groupBy=project,user&projects=${ids.alpha},${ids.beta}`;
    const summary = await ok(owner, 'GET', `/reports/summary?${query}`);
    const pdf = (await file(owner, `format=pdf&${query}`)).rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Summary');
    expect(text).toContain('Projects: Alpha, Beta');
    expect(text).toContain('Custom range: 2026-11-02 – 2026-11-04 (UTC)');
    expect(text).toContain('Total');
    expect(text).toContain(hms(summary.totals.trackedSeconds));
    expect(text).toContain('Page 1 of 1');
    // The chart: tracked hours per day of the range, each day labelled, the hours axis in "h".
    expect(text).toContain('Tracked time by day');
    for (const day of ['Mon', 'Tue', 'Wed']) expect(text).toContain(day);
    expect(text).toMatch(/\b0 h\b/);
  });

  it("labels a long range's chart by week in the reader's date order", async () => {
    const query = 'kind=summary&preset=custom&from=2026-10-01&to=2026-11-30&timeZone=UTC&groupBy=project';
    const text = pdfText((await file(owner, `format=pdf&${query}`)).rawPayload);
    expect(text).toContain('Tracked time by week');
    // Day before month for a YYYY-MM-DD reader, as the Summary screen writes it ("Nov 2" for MM/DD/YYYY).
    expect(text).toContain('2 Nov');
    expect(text).not.toContain('Nov 2');
  });

  it('lays a month of days out across a landscape page, with the totals the matrix API gives', async () => {
    const month = 'preset=custom&from=2026-11-01&to=2026-11-30&timeZone=UTC&rows=user&columns=day';
    const matrix = await ok(owner, 'GET', `/reports/matrix?${month}&measures=trackedSeconds`);
    const pdf = (await file(owner, `kind=matrix&format=pdf&${month}&title=People by days`)).rawPayload;
    // Landscape: A4, or A3 when the figures need it.
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 (841\.89 595\.28|1190\.55 841\.89)\]/);
    const text = pdfText(pdf);
    expect(text).toContain('People by days');
    expect(text).toContain('User by day: tracked');
    expect(text).toContain('Mon 30');
    // Every figure whole, as the report gives it (issue 30: it was cut to h:mm, then to "24…").
    expect(text.split('\n')).toContain(hms(matrix.totals.trackedSeconds));
    expect(text).not.toContain('…');
  });

  it('repeats the table header on every page of a long report', async () => {
    const day = 'preset=custom&from=2026-11-10&to=2026-11-10&timeZone=UTC';
    for (let i = 0; i < 70; i++) {
      const start = new Date(Date.UTC(2026, 10, 10, 0, i * 10)).toISOString();
      await ok(owner, 'POST', '/time-entries', { start, duration: '5m', note: `Row ${i}` });
    }
    const text = pdfText((await file(owner, `kind=detailed&format=pdf&${day}`)).rawPayload);
    const pages = Number(text.match(/Page 1 of (\d+)/)?.[1]);
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text.match(/^Description$/gm)?.length).toBe(pages);
    expect(text).toContain('Row 0');
    expect(text).toContain('5:50:00');
  });

  it("shows the workspace's logo beside its name, the title and totals still read", async () => {
    const logo = greyPng(160, 48, 0x30);
    expect((await ctx.call('PUT', `${ws}/logo`, owner.cookie, { data: logo.toString('base64') })).statusCode).toBe(200);
    const query = `kind=summary&${RANGE}&groupBy=project`;
    const summary = await ok(owner, 'GET', `/reports/summary?${query}`);
    const pdf = (await file(owner, `format=pdf&${query}`)).rawPayload;
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image[\s\S]*\/Width 160/);
    const text = pdfText(pdf);
    expect(text).toContain('Summary');
    expect(text).toContain(hms(summary.totals.trackedSeconds));
    expect((await ctx.call('DELETE', `${ws}/logo`, owner.cookie)).statusCode).toBe(204);
    expect(pdfText((await file(owner, `format=pdf&${query}`)).rawPayload)).toContain('Summary');
  });
});

describe('Estimates', () => {
  it('exports every budget with its use as on screen, in CSV, Excel and PDF', async () => {
    await ok(owner, 'POST', '/projects', {
      name: 'Gamma',
      isPublic: true,
      budget: { type: 'hours', amount: 600, resetsMonthly: false },
    });
    await ok(owner, 'PATCH', `/projects/${ids.alpha}`, {
      budget: { type: 'hours', amount: 300, resetsMonthly: false },
    });
    const report = (await ok(owner, 'GET', `/reports/estimates?${RANGE}`)) as {
      items: { projectName: string; budget: number; used: number; percent: number }[];
    };
    expect(report.items.length).toBeGreaterThanOrEqual(2);
    const rows = await csvOf(owner, `kind=estimates&${RANGE}`);
    expect(rows[0]?.slice(0, 6)).toEqual(['Project', 'Client', 'Task', 'Type', 'Month', 'Hours budget']);
    expect(rows.map((r) => r[0])).toEqual(['Project', ...report.items.map((i) => i.projectName), 'Total']);
    const alpha = report.items.find((i) => i.projectName === 'Alpha');
    const line = rows.find((r) => r[0] === 'Alpha');
    expect(line?.[5]).toBe(hms(alpha?.budget ?? -1));
    expect(line?.[6]).toBe(hms(alpha?.used ?? -1));
    expect(line?.[11]).toBe(`${alpha?.percent.toFixed(1)}%`);
    const sum = report.items.reduce((total, i) => total + i.budget, 0);
    expect(rows.at(-1)?.[5]).toBe(hms(sum));
    // No fee budget: the fee totals stay empty.
    expect(rows.at(-1)?.[8]).toBe('');

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await file(owner, `kind=estimates&format=xlsx&${RANGE}`)).rawPayload as never);
    expect(workbook.worksheets[0]?.getRow(1).getCell(1).value).toBe('Project');

    const text = pdfText((await file(owner, `kind=estimates&format=pdf&${RANGE}`)).rawPayload);
    expect(text).toContain('Estimates');
    expect(text).toContain('Gamma');
    expect(text).toContain(hms(sum));
    // A member sees the same budgets, never an amount they may not see.
    expect((await exportOf(memberA, `kind=estimates&format=csv&${RANGE}`)).statusCode).toBe(200);
  });
});

describe('refusals', () => {
  it('answers 401 signed out, 404 for another workspace, 422 for a bad export', async () => {
    expect((await exportOf(undefined, `kind=summary&format=csv`)).statusCode).toBe(401);
    const outsider = await signUp(ctx.t.app);
    expect((await exportOf(outsider, `kind=summary&format=csv`)).statusCode).toBe(404);
    const badFormat = await exportOf(owner, 'kind=summary&format=docx');
    expect(badFormat.statusCode).toBe(422);
    expect(badFormat.json().error.message).toMatch(/csv, xlsx, pdf/);
    const badFilter = await exportOf(owner, 'kind=summary&format=csv&groupBy=planet');
    expect(badFilter.statusCode).toBe(422);
    expect(badFilter.json().error.message).toMatch(/Group by one of/);
  });
});
