import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { pdfText } from '../apps/api/test/pdf-text';
import { signUpOverHttp, workspaceApi } from './support/users';

const SHOTS = process.env.E2E_SHOTS_DIR;

const hms = (total: number) =>
  `${Math.floor(total / 3600)}:${String(Math.floor((total % 3600) / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;

/** Chooses a format in the report's Export menu and returns the file the browser saved. */
async function exportAs(page: Page, format: 'CSV' | 'Excel (XLSX)' | 'PDF') {
  await page.getByRole('button', { name: 'Export' }).click();
  const downloaded = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: format }).click();
  const download = await downloaded;
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}

test.describe('exports', () => {
  test('an owner exports the Summary as CSV, Excel and PDF, and each file holds the totals on screen', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const atlas = await (await page.request.post(`${ws}/projects`, { data: { name: 'Atlas' } })).json();
    const beacon = await (await page.request.post(`${ws}/projects`, { data: { name: 'Beacon' } })).json();
    for (const [start, duration, projectId, note] of [
      ['2026-11-02T09:00:00Z', '1h30m', atlas.id, 'Logo sketches'],
      ['2026-11-03T13:00:00Z', '45m', atlas.id, '=cmd|calc'],
      ['2026-11-04T10:00:00Z', '2h5m', beacon.id, 'Wireframes'],
    ])
      expect(
        (await page.request.post(`${ws}/time-entries`, { data: { start, duration, projectId, note } })).status(),
      ).toBe(201);
    const filters = 'preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC';
    const summary = await (
      await page.request.get(`${ws}/reports/summary?${filters}&groupBy=project,user&measures=trackedSeconds`)
    ).json();
    const total = hms(summary.totals.trackedSeconds);
    expect(total).toBe('4:20:00');

    await page.goto(`/homepage/reports/summary?${filters}`);
    await expect(page.getByRole('table').getByText(total).first()).toBeVisible();

    // CSV: a header, one line per project and user, the totals last.
    const csv = await exportAs(page, 'CSV');
    expect(csv.name).toBe('summary-2026-11-02-2026-11-04.csv');
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(csv.bytes, { bom: true });
    expect(rows[0]?.slice(0, 3)).toEqual(['Project', 'User', 'Tracked']);
    expect(rows.map((r) => r[0])).toEqual(['Project', 'Atlas', 'Beacon', 'Total']);
    expect(rows.at(-1)?.[2]).toBe(total);

    // Excel: the same total as a duration, typed.
    const xlsx = await exportAs(page, 'Excel (XLSX)');
    expect(xlsx.name).toBe('summary-2026-11-02-2026-11-04.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.bytes as never);
    const sheet = workbook.worksheets[0];
    const last = sheet?.getRow(sheet.rowCount);
    expect(last?.getCell(1).value).toBe('Total');
    const tracked = last?.getCell(3);
    expect(tracked?.numFmt).toBe('[h]:mm:ss');
    const value = tracked?.value;
    const seconds = Math.round(
      value instanceof Date ? (value.getTime() - Date.UTC(1899, 11, 30)) / 1000 : Number(value) * 86_400,
    );
    expect(seconds).toBe(summary.totals.trackedSeconds);

    // PDF: the title, the filters in words and the totals.
    const pdf = await exportAs(page, 'PDF');
    expect(pdf.name).toBe('summary-2026-11-02-2026-11-04.pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.bytes);
    expect(text).toContain('Summary');
    expect(text).toContain('Grouped by project, then user');
    expect(text).toContain('Total');
    expect(text).toContain(total);
    expect(text).toContain('Page 1 of 1');

    if (SHOTS) {
      await page.getByRole('button', { name: 'Export' }).click();
      await expect(page.getByRole('menuitem', { name: 'PDF' })).toBeVisible();
      for (const width of [1440, 1024]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${SHOTS}/exports-menu-${width}.png` });
      }
      await page.keyboard.press('Escape');
    }
  });

  test('an export the server refuses says why in a notification', async ({ page }) => {
    await signUpOverHttp(page.request);
    await page.goto('/homepage/reports/detailed?preset=custom&from=2026-11-02&to=2026-11-04');
    await expect(page.getByRole('button', { name: 'Export' })).toBeVisible();
    // The session ends (signed out in another tab, say) before the export is asked for.
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'CSV' }).click();
    await expect(page.getByText('The export could not be made')).toBeVisible();
  });
});
