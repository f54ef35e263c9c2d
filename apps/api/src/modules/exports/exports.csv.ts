import { PassThrough, pipeline, Readable } from 'node:stream';
import { formatCalendarDay } from '@sundial/core';
import { decimalHours, decimalMoney, formatDateTime, hms, isDayValue, safeText } from './exports.format.js';
import type { Cell, ColumnType, ExportColumn, ExportTable } from './exports.table.js';

/** A field in quotes, its quotes doubled, when it holds a comma, a quote or a line break (RFC 4180). */
const NEEDS_QUOTES = /[",\n\r]/;
const field = (text: string) => (NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** One record as a CSV line, as csv-stringify writes it with its defaults (exports.csv.test.ts holds them to it). */
export const csvLine = (fields: readonly string[]): string => `${fields.map(field).join(',')}\n`;

/** Records turned into text and sent on together: one stream chunk per batch, not per row. */
const BATCH_ROWS = 1000;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The viewer's formats for dates and times. */
type Formats = Pick<ExportTable, 'dateFormat' | 'timeFormat'>;

/** How a column's cells read as text (null is always empty), chosen once per column. */
function textOf(type: ColumnType, table: Formats): (value: string | number) => string {
  switch (type) {
    // A date column's cell may be a label too (the totals row's "Total"): only days are formatted.
    case 'date':
      return (value) =>
        isDayValue(value) ? formatCalendarDay(String(value), table.dateFormat) : safeText(String(value));
    case 'datetime':
      return (value) =>
        isDayValue(value) ? formatDateTime(String(value), table.dateFormat, table.timeFormat) : safeText(String(value));
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
  const line = csvRecord(table.columns, table);
  async function* chunks() {
    if (options.bom) yield BOM;
    let batch = csvHeader(table.columns);
    let lines = 1;
    for await (const row of table.rows) {
      if (row.kind === 'group') continue;
      batch += line(row.cells);
      if (++lines >= BATCH_ROWS) {
        yield batch;
        batch = '';
        lines = 0;
      }
    }
    if (batch) yield batch;
  }
  return streamOf(chunks());
}

/** The header line. Headers carry names too (a matrix's columns are projects, tags, people): made inert like any text. */
export const csvHeader = (columns: readonly ExportColumn[]): string => csvLine(columns.map((c) => safeText(c.header)));

/** A row's line, its cells read as their columns' types say. */
export function csvRecord(columns: readonly ExportColumn[], formats: Formats): (cells: readonly Cell[]) => string {
  const texts = columns.map((c) => textOf(c.type, formats));
  const plain = textOf('text', formats);
  return (cells) => csvLine(cells.map((value, i) => (value === null ? '' : (texts[i] ?? plain)(value))));
}

/**
 * A CSV whose rows the database wrote (`COPY`, see reports' `detailedCsv`): the byte-order mark
 * when asked, the header, the copied rows as they come, the totals line last (counted beside the
 * copy: it is awaited only there). `onRow` hears each copied record: a line break inside a quoted
 * field (a description's) does not end one.
 */
export function writeCopiedCsv(parts: {
  bom: boolean;
  header: string;
  rows: Readable;
  footer: Promise<string>;
  onRow?: () => void;
}): Readable {
  const { onRow } = parts;
  async function* chunks() {
    if (parts.bom) yield BOM;
    yield parts.header;
    let quoted = false;
    for await (const chunk of parts.rows as AsyncIterable<Buffer>) {
      if (onRow) quoted = countRecords(chunk, quoted, onRow);
      yield chunk;
    }
    yield await parts.footer;
  }
  const out = streamOf(chunks());
  // The copy holds a database connection until it is read or destroyed: a reader gone early destroys it.
  out.once('close', () => parts.rows.destroy());
  return out;
}

/**
 * Calls `onRecord` for each line break outside quotes in `chunk` (a CSV's `""` inside a quoted
 * field turns the state twice); answers whether the chunk ends inside quotes.
 */
function countRecords(chunk: Buffer, quoted: boolean, onRecord: () => void): boolean {
  let inside = quoted;
  let at = 0;
  for (;;) {
    if (inside) {
      const close = chunk.indexOf(34, at);
      if (close === -1) return true;
      inside = false;
      at = close + 1;
    } else {
      const quote = chunk.indexOf(34, at);
      let line = chunk.indexOf(10, at);
      while (line !== -1 && (quote === -1 || line < quote)) {
        onRecord();
        line = chunk.indexOf(10, line + 1);
      }
      if (quote === -1) return false;
      inside = true;
      at = quote + 1;
    }
  }
}

function streamOf(chunks: AsyncGenerator<string | Buffer>): Readable {
  const out = new PassThrough();
  pipeline(Readable.from(chunks), out, (error) => {
    if (error) out.destroy(error);
  });
  return out;
}
