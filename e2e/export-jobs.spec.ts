import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expectNoSeriousViolations } from './support/axe';
import { shotsAtWidths } from './support/shots';
import { allow } from './support/time';
import { signUpOverHttp, workspaceApi } from './support/users';

const ENTRIES = 30;
const FILTERS = 'preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC';

test.describe('export jobs', () => {
  test('a Detailed report over the threshold exports in the background: progress, download, Recent exports', async ({
    page,
  }) => {
    await signUpOverHttp(page.request);
    const ws = await workspaceApi(page.request);
    const project = await (await page.request.post(`${ws}/projects`, { data: { name: 'Atlas' } })).json();
    for (let i = 0; i < ENTRIES; i++) {
      const start = new Date(Date.UTC(2026, 10, 2, 6) + i * 3_600_000).toISOString();
      const response = await page.request.post(`${ws}/time-entries`, {
        data: { start, duration: `${20 + i}m`, projectId: project.id, note: `Task ${i + 1}` },
      });
      expect(response.status()).toBe(201);
    }

    // Nothing exported yet.
    await page.goto('/homepage/exports');
    await expect(page.getByText('No exports yet')).toBeVisible();
    await shotsAtWidths(page, 'export-jobs-empty');

    await page.goto(`/homepage/reports/detailed?${FILTERS}`);
    await expect(page.getByText('Task 1', { exact: true }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'CSV' }).click();

    const dialog = page.getByRole('dialog', { name: 'Exporting in the background' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('progressbar')).toBeVisible();
    await expect(dialog.getByText(/Your file is ready/)).toBeVisible({ timeout: allow(30_000) });
    await expect(dialog.getByText(`${ENTRIES + 1} of ${ENTRIES + 1} rows · 100%`)).toBeVisible();
    await expectNoSeriousViolations(page, 'export job dialog');
    await shotsAtWidths(page, 'export-jobs-dialog-done');

    const downloaded = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe('detailed-2026-11-02-2026-11-04.csv');
    const rows: string[][] = parse(readFileSync(await download.path()), { bom: true });
    const header = rows.findIndex((r) => r[0] === 'Date');
    expect(header).toBeGreaterThanOrEqual(0);
    const body = rows.slice(header + 1);
    expect(body).toHaveLength(ENTRIES + 1);
    expect(body.filter((r) => r.includes('Atlas'))).toHaveLength(ENTRIES);
    const hours = rows[header]?.indexOf('Duration (hours)') ?? -1;
    const minutes = Array.from({ length: ENTRIES }, (_, i) => 20 + i).reduce((a, b) => a + b, 0);
    expect(Number(body.at(-1)?.[hours])).toBeCloseTo(minutes / 60, 2);

    // Recent exports lists it, ready to download again.
    await dialog.getByRole('link', { name: 'Recent exports' }).click();
    await expect(page).toHaveURL(/\/homepage\/exports$/);
    const table = page.getByRole('table', { name: 'Recent exports' });
    await expect(table.getByText('detailed-2026-11-02-2026-11-04.csv')).toBeVisible();
    await expect(table.getByText('Ready', { exact: true })).toBeVisible();
    await expectNoSeriousViolations(page, 'recent exports');
    const again = page.waitForEvent('download');
    await table.getByRole('button', { name: /Download detailed/ }).click();
    expect((await again).suggestedFilename()).toBe('detailed-2026-11-02-2026-11-04.csv');
    await shotsAtWidths(page, 'export-jobs-done');

    // Running and failed jobs as the page shows them (statuses held still for the picture).
    const hold = async (patch: object) => {
      await page.unroute('**/reports/export-jobs');
      await page.route('**/reports/export-jobs', async (route) => {
        const response = await route.fetch();
        const list = await response.json();
        list.items[0] = { ...list.items[0], ...patch };
        await route.fulfill({ response, json: list });
      });
      await page.reload();
    };
    await hold({
      status: 'running',
      percent: 40,
      rowsDone: 12,
      rowsTotal: 31,
      downloadable: false,
      expiresAt: null,
      sizeBytes: null,
    });
    await expect(table.getByText('Running', { exact: true })).toBeVisible();
    await shotsAtWidths(page, 'export-jobs-running');
    await hold({
      status: 'failed',
      percent: 0,
      rowsDone: 0,
      downloadable: false,
      expiresAt: null,
      sizeBytes: null,
      fileName: null,
      error: 'The export failed. Start it again, or narrow the report.',
    });
    await expect(table.getByText('Failed', { exact: true })).toBeVisible();
    await shotsAtWidths(page, 'export-jobs-failed');
  });
});
