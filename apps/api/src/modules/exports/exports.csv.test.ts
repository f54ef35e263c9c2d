import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvHeader, csvLine, csvRecord, writeCopiedCsv } from './exports.csv.js';
import type { ExportColumn } from './exports.table.js';

describe('CSV lines', () => {
  it('are what csv-stringify writes with its defaults, whatever the fields hold', () => {
    const pieces = ['', 'a', ',', '"', '\n', '\r', '\r\n', ' ', ';', "'", '\t', 'é', '日本', '=', '-', '“', '""'];
    const records: string[][] = [];
    for (const a of pieces) for (const b of pieces) records.push([a, `${a}${b}`, `x${b}y`, b]);
    records.push([], ['']);
    for (const record of records) expect(csvLine(record)).toBe(stringify([record]));
  });
});

describe('a CSV the database copied', () => {
  it('counts records, not line breaks inside quotes, however the chunks cut them', async () => {
    const records = [
      ['plain', 'row'],
      ['a line\nbreak', 'and "quotes"'],
      ['"\n"', '\n'],
      ['last', ''],
    ];
    const copied = Buffer.from(records.map((r) => stringify([r])).join(''));
    for (const size of [1, 2, 3, 7, copied.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < copied.length; at += size) chunks.push(copied.subarray(at, at + size));
      let heard = 0;
      const out = writeCopiedCsv({
        bom: false,
        header: 'A,B\n',
        rows: Readable.from(chunks),
        footer: Promise.resolve('Total,\n'),
        onRow: () => heard++,
      });
      const written: Buffer[] = [];
      for await (const piece of out) written.push(Buffer.from(piece));
      expect(heard, `chunks of ${size}`).toBe(records.length);
      expect(Buffer.concat(written).toString('utf8')).toBe(`A,B\n${copied.toString('utf8')}Total,\n`);
    }
  });
});

/**
 * How Excel and LibreOffice split a .csv on `separator`: a quote opens a quoted part only at a
 * field's start (`""` inside it is a quote), anything after it is taken as it comes, and a line
 * break outside quotes ends the record. German and French Excel split our comma-separated lines
 * on semicolons this way.
 */
function spreadsheetCells(text: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let atStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (atStart && c === '"') {
      atStart = false;
      for (i++; i < text.length; i++) {
        if (text[i] !== '"') cell += text[i];
        else if (text[i + 1] === '"') cell += text[++i];
        else break;
      }
    } else if (c === separator || c === '\n' || c === '\r') {
      cells.push(cell);
      cell = '';
      atStart = true;
    } else {
      cell += c;
      atStart = false;
    }
  }
  cells.push(cell);
  return cells;
}

/** A cell a spreadsheet runs as a formula: = + - @ first, past blank space. */
const isFormula = (cell: string) => /^[ \t\r\n]*[=+\-@]/.test(cell);

describe('formula injection', () => {
  const formats = { dateFormat: 'DD.MM.YYYY', timeFormat: '24h' };
  const text = (header: string): ExportColumn => ({ header, type: 'text', width: 10 });

  it('no text cell reads as a formula, split on commas, semicolons or tabs', () => {
    const unit = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '"', ' ', "'", 'a', '1', '(', ')');
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit, maxLength: 12 }), { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (rows) => {
          const width = Math.max(...rows.map((row) => row.length));
          const columns = Array.from({ length: width }, (_, i) => text(rows[0]?.[i] ?? `C${i}`));
          const line = csvRecord(columns, formats);
          const csv = csvHeader(columns) + rows.map((row) => line(row)).join('');
          for (const separator of [',', ';', '\t'])
            for (const cell of spreadsheetCells(csv, separator))
              expect(
                isFormula(cell),
                `${JSON.stringify(cell)} split on ${JSON.stringify(separator)} in ${JSON.stringify(csv)}`,
              ).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('makes "safe;=1+1" inert where semicolons separate lists, and keeps numbers and dates as they are', () => {
    const columns: ExportColumn[] = [
      text('Description'),
      { header: 'Date', type: 'date', width: 10 },
      { header: 'Amount', type: 'money', width: 10 },
      { header: 'Hours', type: 'hours', width: 10 },
    ];
    const csv = csvRecord(columns, formats)(['safe;=1+1', '2026-11-02', -500, -5400]);
    expect(csv).toBe("safe;'=1+1,02.11.2026,-5.00,-1.50\n");
    expect(spreadsheetCells(csv, ';').filter(isFormula)).toEqual([]);
    expect(spreadsheetCells(csv, ',')).toEqual(["safe;'=1+1", '02.11.2026', '-5.00', '-1.50', '']);
  });
});
