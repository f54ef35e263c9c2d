import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
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

/** The strings an uncompressed PDF of pdfkit shows: each TJ array's hex pieces, decoded. */
const textOf = (pdf: Buffer) =>
  [...pdf.toString('latin1').matchAll(/\[([^\]]*)\] TJ/g)]
    .map((m) =>
      [...(m[1] ?? '').matchAll(/<([0-9a-f]*)>/g)]
        .map((h) => Buffer.from(h[1] ?? '', 'hex').toString('latin1'))
        .join(''),
    )
    .join('\n');

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
