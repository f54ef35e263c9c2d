import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { Style, ValueType } from 'exceljs';
import { excelDateFormat, isDayValue } from './exports.format.js';
import type { Cell, ColumnType, ExportTable } from './exports.table.js';

/** A currency's number format ("$"#,##0.00), with the symbol Intl knows for it. */
function moneyFormat(currency: string): string {
  let symbol = currency;
  try {
    symbol =
      new Intl.NumberFormat('en-US', { style: 'currency', currency })
        .formatToParts(1)
        .find((p) => p.type === 'currency')?.value ?? currency;
  } catch {}
  const s = `"${symbol.replace(/"/g, '')}"`;
  return `${s}#,##0.00;-${s}#,##0.00`;
}

function numberFormat(type: ColumnType, table: ExportTable): string | undefined {
  switch (type) {
    case 'date':
      return excelDateFormat(table.dateFormat);
    case 'datetime':
      return `${excelDateFormat(table.dateFormat)} ${table.timeFormat === '12h' ? 'h:mm AM/PM' : 'hh:mm'}`;
    case 'duration':
      return '[h]:mm:ss';
    case 'hours':
      return '0.00';
    case 'money':
      return moneyFormat(table.currency);
    case 'count':
      return '0';
    default:
      return undefined;
  }
}

const utcOf = (local: string) =>
  new Date(
    Date.UTC(
      Number(local.slice(0, 4)),
      Number(local.slice(5, 7)) - 1,
      Number(local.slice(8, 10)),
      Number(local.slice(11, 13) || 0),
      Number(local.slice(14, 16) || 0),
      Number(local.slice(17, 19) || 0),
    ),
  );

/** A cell's value as the spreadsheet stores it: dates as dates, durations as days, money as units. */
function cellValue(type: ColumnType, value: Cell): string | number | Date | null {
  if (value === null) return null;
  switch (type) {
    case 'date':
    case 'datetime':
      return isDayValue(value) ? utcOf(String(value)) : String(value);
    case 'duration':
      return Number(value) / 86_400;
    case 'hours':
      return Math.round(Number(value) / 36) / 100;
    case 'money':
      return Number(value) / 100;
    case 'count':
      return Number(value);
    case 'text':
      return String(value);
  }
}

const sheetName = (title: string) => title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Report';

/**
 * The table as an XLSX workbook through exceljs's streaming writer (each row is committed and
 * leaves memory): typed cells (dates as dates, durations as numbers shown [h]:mm:ss, money in
 * the currency's format), a bold frozen header, column widths, a Summary's levels as outline
 * groups with bold subtotals, the totals row last; a second sheet holds the title and filters.
 */
export function writeXlsx(table: ExportTable): Readable {
  const out = new PassThrough();
  (async () => {
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    workbook.creator = 'Sundial';
    const levels = table.columns.filter((c) => c.level !== undefined).length;
    const sheet = workbook.addWorksheet(sheetName(table.title), {
      views: [{ state: 'frozen', ySplit: 1 }],
      properties: { outlineLevelRow: Math.max(0, levels - 1) } as never,
    });
    sheet.columns = table.columns.map((c, i) => ({
      key: String(i),
      width: Math.min(60, Math.max(c.width, c.header.length + 2)),
      style: { numFmt: numberFormat(c.type, table) } as never,
    }));
    const header = sheet.addRow(table.columns.map((c) => c.header));
    header.font = { bold: true };
    header.alignment = { vertical: 'middle', wrapText: true };
    header.commit();
    // exceljs gives each cell a style object of its own and looks each up by its XML when the row is
    // written; it remembers the objects it has seen, so plain rows share one per column and cell type.
    const shared = table.columns.map(() => new Map<ValueType, Partial<Style>>());
    let n = 0;
    for await (const row of table.rows) {
      const cells = row.cells.map((value, i) => {
        const column = table.columns[i];
        if (!column) return null;
        // Below a Summary group, the levels above show once, on the group's own row.
        if (column.level !== undefined && column.level < row.depth) return null;
        return cellValue(column.type, value);
      });
      const added = sheet.addRow(cells);
      if (row.kind === 'row')
        for (let i = 0; i < cells.length; i++) {
          const cell = added.findCell(i + 1);
          const styles = shared[i];
          if (!cell || !styles) continue;
          const style = styles.get(cell.type);
          if (style) cell.style = style;
          else styles.set(cell.type, cell.style);
        }
      if (row.kind !== 'row') added.font = { bold: true };
      if (row.depth > 0) added.outlineLevel = row.depth;
      if (row.kind === 'total') added.border = { top: { style: 'thin' } } as never;
      added.commit();
      // Let the response drain now and then, so a large workbook streams rather than piles up.
      if (++n % 1000 === 0 && out.writableNeedDrain) await once(out, 'drain');
    }
    sheet.commit();
    const about = workbook.addWorksheet('Filters');
    about.columns = [{ width: 100 }];
    const title = about.addRow([table.title]);
    title.font = { bold: true, size: 14 };
    title.commit();
    about.addRow([table.workspace]).commit();
    for (const line of table.lines) about.addRow([line]).commit();
    about.commit();
    await workbook.commit();
  })().catch((error) => out.destroy(error));
  return out;
}
