import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NAMES, pdfText } from '../../test/pdf-text.js';
import { bytesOf, drawFigureTable, drawGrid, type FigureRow, FOOT_ROOM, numberPages, openPdf } from './pdf.js';

const MARGIN = 56;
const pagesOf = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;

async function tableOf(rows: FigureRow[]): Promise<Buffer> {
  const doc = await openPdf({ margin: MARGIN, bufferPages: true });
  const done = bytesOf(doc);
  drawFigureTable(doc, {
    left: MARGIN,
    right: doc.page.width - MARGIN,
    y: MARGIN,
    least: [50, 85],
    header: { cells: ['Description', 'Hours', 'Amount'], bold: true },
    groups: [rows, [{ cells: ['Total', '', '$1,234,567.89'], bold: true }]],
    bottom: doc.page.height - MARGIN - FOOT_ROOM,
  });
  numberPages(doc, { margin: MARGIN, caption: 'Sundial · test' });
  doc.end();
  return done;
}

describe('the PDF table', () => {
  it('repeats its header on every page it spans and numbers the pages', async () => {
    const rows = Array.from({ length: 90 }, (_, k) => ({ cells: [`Line ${k + 1}`, '1.50', '$12.00'] }));
    const pdf = await tableOf(rows);
    if (process.env.EXPORT_DUMP) writeFileSync(`${process.env.EXPORT_DUMP}/platform-table.pdf`, pdf);
    const lines = pdfText(pdf).split('\n');
    const pages = pagesOf(pdf);
    expect(pages).toBeGreaterThan(1);
    expect(lines.filter((line) => line === 'Description')).toHaveLength(pages);
    for (let p = 1; p <= pages; p++) expect(lines).toContain(`Page ${p} of ${pages}`);
    for (const text of ['Line 1', 'Line 90', 'Total', '$1,234,567.89']) expect(lines).toContain(text);
  });

  it('prints names in every script the fonts cover as written', async () => {
    const pdf = await tableOf(NAMES.map((name) => ({ cells: [name, '2.00', '$300.00'] })));
    const joined = pdfText(pdf).split('\n').join('');
    for (const name of NAMES) expect(joined).toContain(name);
    expect(joined).not.toMatch(/[?…]/);
  });

  it('a grid repeats its header band on every page and wraps a long name inside its column', async () => {
    const doc = await openPdf({ autoFirstPage: false, margin: MARGIN, bufferPages: true });
    const done = bytesOf(doc);
    const addPage = () => doc.addPage({ margin: MARGIN });
    addPage();
    const long = `${NAMES.join(' ')} ${NAMES.join(' ')}`;
    const rows = Array.from({ length: 120 }, (_, k) => ({
      texts: [k === 3 ? long : `Person ${k + 1}`, `${k + 1}:00:00`],
      bold: false,
      total: false,
    }));
    drawGrid(doc, {
      columns: [
        { x: MARGIN, width: 300, header: 'Member', align: 'left', wraps: true },
        { x: MARGIN + 300, width: 80, header: 'Duration', align: 'right', wraps: false },
      ],
      rows: [...rows, { texts: ['Total', '7260:00:00'], bold: true, total: true }],
      left: MARGIN,
      width: 380,
      top: MARGIN,
      size: 8,
      pad: 8,
      bottom: () => doc.page.height - MARGIN - FOOT_ROOM,
      addPage,
    });
    numberPages(doc, { margin: MARGIN, caption: 'Sundial · grid' });
    doc.end();
    const pdf = await done;
    if (process.env.EXPORT_DUMP) writeFileSync(`${process.env.EXPORT_DUMP}/platform-grid.pdf`, pdf);
    const lines = pdfText(pdf).split('\n');
    const pages = pagesOf(pdf);
    expect(pages).toBeGreaterThan(1);
    expect(lines.filter((line) => line === 'Member')).toHaveLength(pages);
    for (const text of ['Person 120', '120:00:00', 'Total', '7260:00:00']) expect(lines).toContain(text);
    for (const name of NAMES) expect(lines.join('')).toContain(name);
  });
});
