import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { shotsAtWidths } from './support/shots';
import { signUpOverHttp, workspaceApi } from './support/users';

/** A real PNG: a dark band on white, `width`×`height` pixels (8-bit greyscale). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Array.from({ length: height }, (_, y) =>
    Buffer.concat([Buffer.from([0]), Buffer.alloc(width, y > height / 4 && y < (3 * height) / 4 ? 0x30 : 0xff)]),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('an owner uploads the workspace logo, sees it, and the PDF export shows it with the chart', async ({ page }) => {
  await signUpOverHttp(page.request);
  const ws = await workspaceApi(page.request);
  await page.request.post(`${ws}/time-entries`, { data: { start: '2026-11-02T09:00:00Z', duration: '1h30m' } });

  await page.goto('/homepage/profile');
  await expect(page.getByText('No logo')).toBeVisible();
  // A file of another type is refused with a clear message.
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(page.getByRole('alert').filter({ hasText: 'The logo must be a PNG or JPEG image.' })).toBeVisible();
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(180, 60) });
  await expect(page.getByText('Logo saved. PDF exports show it.')).toBeVisible();
  const shown = page.getByRole('img', { name: 'Workspace logo' });
  await expect(shown).toBeVisible();
  // The image loads (a broken one has no natural width).
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(180);
  await expect(page.getByRole('button', { name: 'Replace logo' })).toBeVisible();
  await shotsAtWidths(page, 'workspace-logo');

  await page.goto('/homepage/reports/summary?preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC');
  await page.getByRole('button', { name: 'Export' }).click();
  const downloaded = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'PDF' }).click();
  const pdf = readFileSync(await (await downloaded).path());
  expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image[\s\S]*\/Width 180/);
  expect(pdf.length).toBeGreaterThan(1000);

  await page.goto('/homepage/profile');
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('No logo')).toBeVisible();
});

test('the Estimates report downloads as CSV from its Export menu, with each budget and the totals', async ({
  page,
}) => {
  await signUpOverHttp(page.request);
  const ws = await workspaceApi(page.request);
  const project = await (
    await page.request.post(`${ws}/projects`, {
      data: { name: 'Atlas', budget: { type: 'hours', amount: 600, resetsMonthly: false } },
    })
  ).json();
  await page.request.post(`${ws}/time-entries`, {
    data: { start: '2026-11-02T09:00:00Z', duration: '2h', projectId: project.id },
  });
  await page.goto('/homepage/reports/estimates?preset=custom&from=2026-11-01&to=2026-11-30&timeZone=UTC');
  await expect(page.getByRole('table', { name: 'Estimates' }).getByText('Atlas')).toBeVisible();
  await page.getByRole('button', { name: 'Export' }).click();
  const downloaded = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'CSV' }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe('estimates-2026-11-01-2026-11-30.csv');
  const lines = readFileSync(await download.path(), 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  expect(lines[1]).toMatch(/^Atlas,,,Hours,,10:00:00,2:00:00,8:00:00,,,,20\.0%,On track$/);
  expect(lines.at(-1)).toMatch(/^Total,,,,,10:00:00,2:00:00,8:00:00,/);
});
