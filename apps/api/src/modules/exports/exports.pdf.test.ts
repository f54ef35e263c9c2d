import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NAMES, pdfText } from '../../../test/pdf-text.js';
import { writePdf } from './exports.pdf.js';
import type { ExportRow, ExportTable } from './exports.table.js';

async function* rowsOf(rows: ExportRow[]): AsyncGenerator<ExportRow> {
  yield* rows;
}

async function render(table: ExportTable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of writePdf(table, { maxRows: 1000, compress: false })) chunks.push(chunk as Buffer);
  const pdf = Buffer.concat(chunks);
  // EXPORT_DUMP=<folder> keeps the files, to look at with pdftoppm.
  if (process.env.EXPORT_DUMP) writeFileSync(`${process.env.EXPORT_DUMP}/${table.fileName}.pdf`, pdf);
  return pdf;
}

const textOf = pdfText;

const table = (chart: ExportTable['chart'], fileName: string): ExportTable => ({
  title: 'Summary',
  workspace: 'Acme',
  lines: ['Custom range'],
  columns: [
    { header: 'Project', type: 'text', width: 24 },
    { header: 'Tracked', type: 'duration', width: 12 },
  ],
  rows: rowsOf([
    { cells: ['Alpha', 7200], kind: 'row', depth: 0 },
    { cells: ['Total', 7200], kind: 'total', depth: 0 },
  ]),
  dateFormat: 'YYYY-MM-DD',
  timeFormat: '24h',
  currency: 'EUR',
  fileName,
  ...(chart ? { chart } : {}),
});

describe('the PDF chart', () => {
  it('draws a bar per day of a month, its axis and its values', async () => {
    const bars = Array.from({ length: 31 }, (_, i) => ({ label: String(i + 1), sub: 'Mon', seconds: (i % 7) * 3600 }));
    const pdf = textOf(await render(table({ title: 'Tracked time by day', bars }, 'month')));
    expect(pdf).toContain('Tracked time by day');
    // Six hours is the tallest bar: the axis reads up to 6 h.
    expect(pdf.split('\n')).toContain('6 h');
    expect(pdf.split('\n')).toContain('31');
  });

  it('labels months and leaves an empty range without a chart', async () => {
    const bars = ['Jan 2026', 'Feb 2026', 'Mar 2026', 'Apr 2026', 'May 2026', 'Jun 2026'].map((label, i) => ({
      label,
      seconds: (i + 1) * 40 * 3600,
    }));
    const pdf = textOf(await render(table({ title: 'Tracked time by month', bars }, 'year')));
    expect(pdf).toContain('Jun 2026');
    const empty = textOf(
      await render(table({ title: 'Tracked time by day', bars: [{ label: '1', seconds: 0 }] }, 'empty')),
    );
    expect(empty).not.toContain('Tracked time by day');
  });
});

describe('the PDF table', () => {
  it('prints every name as written and every large figure whole', async () => {
    const big = { cells: ['', 4_468_217, 12_588_100_00], kind: 'row', depth: 0 } as const;
    const rows: ExportRow[] = NAMES.map((name, k) => ({ ...big, cells: [name, big.cells[1] + k, big.cells[2] + k] }));
    rows.push({ cells: ['Total', 35_745_764, 100_704_800_28], kind: 'total', depth: 0 });
    const pdf = await render({
      ...table(undefined, 'names'),
      workspace: 'Zoë Ψ 張偉',
      columns: [
        { header: 'Client', type: 'text', width: 24 },
        { header: 'Tracked', type: 'duration', width: 12 },
        { header: 'Amount', type: 'money', width: 12 },
      ],
      rows: rowsOf(rows),
      currency: 'USD',
    });
    const text = textOf(pdf).split('\n');
    for (const name of NAMES) expect(text).toContain(name);
    // One line of two faces is two runs of text, side by side.
    expect(text.join('')).toContain('Zoë Ψ 張偉');
    expect(text).toContain('1241:10:17');
    expect(text).toContain('$12,588,100.00');
    expect(text).toContain('9929:22:44');
    expect(text).toContain('$100,704,800.28');
    expect(text.join('')).not.toMatch(/[?…]/);
  });

  it('keeps the full figures of a month of days, on a page wide enough for them', async () => {
    const days = Array.from({ length: 31 }, (_, d) => ({
      header: `2026-12-${String(d + 1).padStart(2, '0')}`,
      pdfHeader: `Mon ${d + 1}`,
      type: 'duration' as const,
      width: 9,
    }));
    const cells = (name: string, k: number) => [name, ...days.map((_, d) => 86_400 + d * 61 + k), 2_700_000 + k];
    const rows: ExportRow[] = NAMES.map((name, k) => ({ cells: cells(name, k), kind: 'row', depth: 0 }));
    rows.push({ cells: cells('Total', 99), kind: 'total', depth: 0 });
    const text = textOf(
      await render({
        ...table(undefined, 'matrix'),
        columns: [
          { header: 'User', type: 'text', width: 20 },
          ...days,
          { header: 'Total', type: 'duration', width: 10 },
        ],
        rows: rowsOf(rows),
      }),
    ).split('\n');
    for (const name of NAMES) expect(text).toContain(name);
    expect(text).toContain('24:00:00');
    expect(text).toContain('24:30:37');
    expect(text).toContain('750:00:00');
    expect(text).toContain('750:01:39');
    expect(text.join('')).not.toContain('…');
  });
});
