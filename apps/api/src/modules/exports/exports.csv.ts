import { PassThrough, pipeline, Readable } from 'node:stream';
import { decimalHours, decimalMoney, formatDateTime, formatDay, hms, safeText } from './exports.format.js';
import type { Cell, ColumnType, ExportTable } from './exports.table.js';

/** A field in quotes, its quotes doubled, when it holds a comma, a quote or a line break (RFC 4180). */
const NEEDS_QUOTES = /[",\n\r]/;
const field = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** One record as a CSV line, as csv-stringify writes it with its defaults (exports.csv.test.ts holds them to it). */
export const csvLine = (fields: readonly string[]): string => `${fields.map(field).join(',')}\n`;

/** Records turned into text and sent on together: one stream chunk per batch, not per row. */
const BATCH_ROWS = 1000;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** How a column's cells read as text (null is always empty), chosen once per column. */
function textOf(type: ColumnType, table: ExportTable): (value: string | number) => string {
  switch (type) {
    case 'date':
      return (value) => formatDay(String(value), table.dateFormat);
    case 'datetime':
      return (value) => formatDateTime(String(value), table.dateFormat, table.timeFormat);
    case 'duration':
      return (value) => hms(Number(value));
    case 'hours':
      return (value) => decimalHours(Number(value));
    case 'money':
      return (value) => decimalMoney(Number(value));
    case 'count':
      return (value) => String(value);
    case 'text':
      return (value) => safeText(String(value));
  }
}

/**
 * The table as CSV, streamed: a header, one line per row (a Summary's leaves with their whole
 * path; its subtotal rows are left out so every column adds up), the totals last. UTF-8, with a
 * byte-order mark when asked; dates in the viewer's format; durations as h:mm:ss and as decimal
 * hours; money as plain decimals; text that a spreadsheet would run as a formula made inert.
 * Lines are sent on a batch at a time.
 */
export function writeCsv(table: ExportTable, options: { bom: boolean }): Readable {
  const texts = table.columns.map((c) => textOf(c.type, table));
  const plain = textOf('text', table);
  const textsOf = (cells: Cell[]) => cells.map((value, i) => (value === null ? '' : (texts[i] ?? plain)(value)));
  async function* chunks() {
    if (options.bom) yield BOM;
    // Headers carry names too (a matrix's columns are projects, tags, people): made inert like any text.
    let batch = csvLine(table.columns.map((c) => safeText(c.header)));
    let lines = 1;
    for await (const row of table.rows) {
      if (row.kind === 'group') continue;
      batch += csvLine(textsOf(row.cells));
      if (++lines >= BATCH_ROWS) {
        yield batch;
        batch = '';
        lines = 0;
      }
    }
    if (batch) yield batch;
  }
  const out = new PassThrough();
  pipeline(Readable.from(chunks()), out, (error) => {
    if (error) out.destroy(error);
  });
  return out;
}
