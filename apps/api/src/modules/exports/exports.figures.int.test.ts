import { measureKind, type ReportMeasure } from '@sundial/core';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { joinWorkspace, type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { pdfText } from '../../../test/pdf-text.js';
import { decimalHours, decimalMoney, hms } from './exports.format.js';

/**
 * What an export sells is what the report says (issue 30): every measure in its own kind (money as
 * money, not as a duration), and every filter of the Detailed report in every format listing the
 * rows the report's JSON lists, on both databases.
 */
const ctx = useTestApp();
let owner: SignedUp;
let member: SignedUp;
let ws: string;
const { ok } = workspaceCalls(ctx, () => ws);
const ids = {} as Record<'client' | 'alpha' | 'beta' | 'task' | 'group' | 't1' | 't2', string>;
const RANGE = 'preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC';

async function file(format: 'csv' | 'xlsx' | 'pdf', query: string) {
  const response = await ctx.t.app.inject({
    method: 'GET',
    url: `${ws}/reports/export?format=${format}&${query}`,
    headers: { cookie: owner.cookie },
  });
  expect(response.statusCode, `${format} ${query}: ${response.body.slice(0, 300)}`).toBe(200);
  return response.rawPayload;
}
/** A cell's number; exceljs reads a cell shown as a duration back as a date from 1899-12-30. */
const numberOf = (value: unknown) =>
  value instanceof Date ? (value.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000 : Number(value);
const csvOf = async (query: string): Promise<string[][]> => parse(await file('csv', query), { bom: true });
async function sheetOf(query: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await file('xlsx', query)) as never);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  return sheet;
}

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  member = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
  ids.client = (await ok(owner, 'POST', '/clients', { name: 'Acme' })).id;
  ids.alpha = (await ok(owner, 'POST', '/projects', { name: 'Alpha', isPublic: true, clientId: ids.client })).id;
  ids.beta = (await ok(owner, 'POST', '/projects', { name: 'Beta', isPublic: true })).id;
  ids.task = (await ok(owner, 'POST', `/projects/${ids.alpha}/tasks`, { name: 'Design' })).id;
  ids.group = (await ok(owner, 'POST', '/groups', { name: 'Team' })).id;
  await ok(owner, 'PUT', `/groups/${ids.group}/members/${member.userId}`);
  const list = await ok(owner, 'POST', '/tag-lists', { name: 'Kinds' });
  ids.t1 = (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'T1' })).id;
  ids.t2 = (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'T2' })).id;
  const entry = async (who: SignedUp, body: object) =>
    (await ok(owner, 'POST', '/time-entries', { userId: who.userId, ...body })).id as string;
  const one = await entry(member, {
    start: '2026-11-02T09:00:00Z',
    end: '2026-11-02T10:30:00Z',
    projectId: ids.alpha,
    taskId: ids.task,
    tagIds: [ids.t1],
    billable: true,
    note: 'alphaone',
  });
  const two = await entry(owner, {
    start: '2026-11-03T13:00:00Z',
    end: '2026-11-03T14:00:00Z',
    projectId: ids.beta,
    tagIds: [ids.t1, ids.t2],
    billable: true,
    note: 'betatwo',
  });
  await entry(owner, { start: '2026-11-04T08:00:00Z', end: '2026-11-04T08:45:00Z', note: 'plainthree' });
  // 1.5 h at 100.00 invoiced (15000 cents), 1 h at 100.00 not (10000 cents).
  await ctx.t.db
    .updateTable('time_entries')
    .set({ billable_rate_cents: 10_000 })
    .where('id', 'in', [one, two])
    .execute();
  await ctx.t.db.updateTable('time_entries').set({ invoiced_at: new Date() }).where('id', '=', one).execute();
});

describe('measures read in their own kind', () => {
  const query = `kind=summary&${RANGE}&groupBy=project&measures=billableSeconds,invoicedAmount,invoicedSeconds,uninvoicedAmount`;

  it('writes invoiced and not invoiced amounts as money in CSV, XLSX and PDF', async () => {
    const summary = await ok(owner, 'GET', `/reports/summary?${query}`);
    expect(summary.totals).toMatchObject({ invoicedAmount: 15_000, uninvoicedAmount: 10_000 });

    const rows = await csvOf(query);
    expect(rows[0]).toEqual([
      'Project',
      'Billable time',
      'Billable time (hours)',
      'Invoiced amount (USD)',
      'Invoiced time',
      'Invoiced time (hours)',
      'Not invoiced amount (USD)',
    ]);
    expect(rows[rows.length - 1]).toEqual(['Total', '2:30:00', '2.50', '150.00', '1:30:00', '1.50', '100.00']);

    const sheet = await sheetOf(query);
    const total = sheet.getRow(sheet.rowCount);
    expect(total.getCell(4).value).toBe(150);
    expect(total.getCell(4).numFmt).toContain('"$"#,##0.00');
    expect(total.getCell(7).value).toBe(100);
    expect(total.getCell(7).numFmt).toContain('"$"#,##0.00');

    const text = pdfText(await file('pdf', query));
    expect(text).toContain('150.00');
    expect(text).toContain('100.00');
    expect(text).not.toContain('4:10:00');
    expect(text).not.toContain('2:46:40');
  });

  it('writes a matrix of an invoiced amount as money', async () => {
    const rows = await csvOf(`kind=matrix&${RANGE}&rows=project&columns=day&measures=uninvoicedAmount`);
    expect(rows[rows.length - 1]?.slice(-1)).toEqual(['100.00']);
  });
});

describe('every budgeting report and the Estimates report total in every format what the screen shows', () => {
  // The pages' measures (apps/web BudgetingPages): Billable, Revenues, Costs, Margin.
  const budgeting: [string, ReportMeasure[]][] = [
    [
      'Billable, unbillable, invoiced',
      [
        'trackedSeconds',
        'billableSeconds',
        'unbillableSeconds',
        'invoicedSeconds',
        'uninvoicedSeconds',
        'billableAmount',
        'invoicedAmount',
        'uninvoicedAmount',
      ],
    ],
    ['Revenues', ['billableSeconds', 'billableAmount']],
    ['Costs', ['trackedSeconds', 'costAmount']],
    ['Margin', ['billableAmount', 'costAmount', 'margin']],
  ];

  it.each(budgeting)('%s', async (_name, measures) => {
    const query = `kind=summary&${RANGE}&groupBy=project&measures=${measures.join(',')}`;
    const { totals } = await ok(owner, 'GET', `/reports/summary?${query}`);
    // CSV: a duration as h:mm:ss and decimal hours, money as decimals, in the measures' order.
    const csvCells = measures.flatMap((m) =>
      measureKind(m) === 'money' ? [decimalMoney(totals[m])] : [hms(totals[m]), decimalHours(totals[m])],
    );
    const rows = await csvOf(query);
    expect(rows[rows.length - 1]).toEqual(['Total', ...csvCells]);
    // XLSX: durations in days, money in units, the same columns.
    const sheetCells = measures.flatMap((m) =>
      measureKind(m) === 'money' ? [totals[m] / 100] : [totals[m] / 86_400, Math.round(totals[m] / 36) / 100],
    );
    const sheet = await sheetOf(query);
    const total = sheet.getRow(sheet.rowCount);
    expect(total.getCell(1).value).toBe('Total');
    sheetCells.forEach((value, i) => {
      expect(numberOf(total.getCell(i + 2).value)).toBeCloseTo(value, 9);
    });
    const text = pdfText(await file('pdf', query));
    for (const m of measures)
      expect(text, m).toContain(measureKind(m) === 'money' ? decimalMoney(totals[m]) : hms(totals[m]));
  });

  it('Estimates: a project’s task budgets inside its budget are not counted twice', async () => {
    // 100 h on Alpha, 50 h of it on its task: 100 h in all (the export said 150 h).
    await ok(owner, 'PATCH', `/projects/${ids.alpha}`, { budget: { type: 'hours', amount: 100 * 60 } });
    await ok(owner, 'PATCH', `/tasks/${ids.task}`, { budget: { type: 'hours', amount: 50 * 60 } });
    try {
      const query = `kind=estimates&${RANGE}`;
      const view = await ok(owner, 'GET', `/reports/estimates?${RANGE}`);
      expect(view.items).toHaveLength(2);
      expect(view.totals).toEqual({ hours: { budget: 360_000, used: 5400, remaining: 354_600 }, fee: null });
      const { budget, used, remaining } = view.totals.hours;
      const rows = await csvOf(query);
      const header = rows[0] ?? [];
      const last = rows[rows.length - 1] ?? [];
      expect(last[0]).toBe('Total');
      const at = (name: string) => last[header.indexOf(name)];
      expect([at('Hours budget'), at('Hours used'), at('Hours left')]).toEqual([
        hms(budget),
        hms(used),
        hms(remaining),
      ]);
      const sheet = await sheetOf(query);
      const heads = sheet.getRow(1).values as unknown[];
      const total = sheet.getRow(sheet.rowCount);
      expect(total.getCell(1).value).toBe('Total');
      expect(numberOf(total.getCell(heads.indexOf('Hours budget')).value)).toBeCloseTo(budget / 86_400, 9);
      expect(numberOf(total.getCell(heads.indexOf('Hours used')).value)).toBeCloseTo(used / 86_400, 9);
      const text = pdfText(await file('pdf', query));
      expect(text).toContain(hms(budget));
      expect(text).not.toContain(hms(budget + 50 * 3600));
    } finally {
      await ok(owner, 'PATCH', `/projects/${ids.alpha}`, { budget: null });
      await ok(owner, 'PATCH', `/tasks/${ids.task}`, { budget: null });
    }
  });
});

describe('every Detailed filter in every format lists what the report lists', () => {
  const filters: [string, () => string, string[]][] = [
    ['users', () => `users=${member.userId}`, ['alphaone']],
    ['groups', () => `groups=${ids.group}`, ['alphaone']],
    ['clients', () => `clients=${ids.client}`, ['alphaone']],
    ['projects', () => `projects=${ids.beta}`, ['betatwo']],
    ['projects or none', () => `projects=${ids.beta}&withoutProject=true`, ['betatwo', 'plainthree']],
    ['tasks', () => `tasks=${ids.task}`, ['alphaone']],
    ['tags (any)', () => `tags=${ids.t1}`, ['alphaone', 'betatwo']],
    ['tags (all)', () => `tags=${ids.t1},${ids.t2}&tagMode=all`, ['betatwo']],
    ['tags (none)', () => `tags=${ids.t2}&tagMode=none`, ['alphaone', 'plainthree']],
    ['billable', () => 'billable=true', ['alphaone', 'betatwo']],
    ['not billable', () => 'billable=false', ['plainthree']],
    ['invoiced', () => 'invoiced=true', ['alphaone']],
    ['not invoiced', () => 'invoiced=false', ['betatwo', 'plainthree']],
    ['description', () => 'description=two', ['betatwo']],
    ['without project', () => 'withoutProject=true', ['plainthree']],
    ['without tag', () => 'withoutTag=true', ['plainthree']],
  ];

  it.each(filters)('%s', async (_name, filter, expected) => {
    const query = `kind=detailed&${RANGE}&sort=start&order=asc&${filter()}`;
    const report = await ok(owner, 'GET', `/reports/detailed?${query}&limit=1000`);
    const notes = report.items.map((e: { note: string }) => e.note);
    expect(notes).toEqual(expected);

    const rows = await csvOf(query);
    const description = rows[0]?.indexOf('Description') ?? -1;
    expect(rows.slice(1, -1).map((r) => r[description])).toEqual(notes);
    expect(rows[rows.length - 1]?.[0]).toBe('Total');

    const sheet = await sheetOf(query);
    const header = (sheet.getRow(1).values as unknown[]).indexOf('Description');
    const listed: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1 && n < sheet.rowCount) listed.push(row.getCell(header).value);
    });
    expect(listed).toEqual(notes);

    const text = pdfText(await file('pdf', query));
    for (const note of ['alphaone', 'betatwo', 'plainthree'])
      expect(text.includes(note), `${note} in the PDF`).toBe(notes.includes(note));
  });
});

describe("a saved report's public CSV link", () => {
  it('lists a Detailed report filtered by client as the report does', async () => {
    const query = `${RANGE}&sort=start&order=asc&clients=${ids.client}`;
    const saved = await ok(owner, 'POST', '/saved-reports', { name: 'By client', kind: 'detailed', query });
    const link = await ok(owner, 'POST', `/saved-reports/${saved.id}/csv-link`, {});
    const response = await ctx.t.app.inject({ method: 'GET', url: link.path });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const rows: string[][] = parse(response.rawPayload, { bom: true });
    const description = rows[0]?.indexOf('Description') ?? -1;
    expect(rows.slice(1, -1).map((r) => r[description])).toEqual(['alphaone']);
  });
});
