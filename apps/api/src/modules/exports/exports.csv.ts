import { PassThrough, pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { decimalHours, decimalMoney, formatDateTime, formatDay, hms, safeText } from './exports.format.js';
import type { Cell, ColumnType, ExportTable } from './exports.table.js';

function cellText(type: ColumnType, value: Cell, table: ExportTable): string {
  if (value === null) return '';
  switch (type) {
    case 'date':
      return formatDay(String(value), table.dateFormat);
    case 'datetime':
      return formatDateTime(String(value), table.dateFormat, table.timeFormat);
    case 'duration':
      return hms(Number(value));
    case 'hours':
      return decimalHours(Number(value));
    case 'money':
      return decimalMoney(Number(value));
    case 'count':
      return String(value);
    case 'text':
      return safeText(String(value));
  }
}

/**
 * The table as CSV, streamed: a header, one line per row (a Summary's leaves with their whole
 * path; its subtotal rows are left out so every column adds up), the totals last. UTF-8, with a
 * byte-order mark when asked; dates in the viewer's format; durations as h:mm:ss and as decimal
 * hours; money as plain decimals; text that a spreadsheet would run as a formula made inert.
 */
export function writeCsv(table: ExportTable, options: { bom: boolean }): Readable {
  const types = table.columns.map((c) => c.type);
  async function* records() {
    yield table.columns.map((c) => c.header);
    for await (const row of table.rows) {
      if (row.kind === 'group') continue;
      yield row.cells.map((value, i) => cellText(types[i] ?? 'text', value, table));
    }
  }
  const out = new PassThrough();
  pipeline(Readable.from(records()), stringify({ bom: options.bom }), out, (error) => {
    if (error) out.destroy(error);
  });
  return out;
}
