/**
 * What every export writes, whatever its format: a table of typed columns and rows, produced from
 * one report of the engine. The CSV, XLSX and PDF writers only lay it out, so the three formats
 * (and later the export jobs and scheduled reports, which pipe the same stream into a file) hold
 * the same figures as the report on screen.
 */

/**
 * How a column's cells read: `text` a string; `date` a local day ("2026-11-02"); `datetime` a
 * local wall-clock time ("2026-11-02T09:30:00"); `duration` and `hours` seconds (shown as h:mm:ss
 * and as decimal hours); `money` integer cents; `count` an integer.
 */
export type ColumnType = 'text' | 'date' | 'datetime' | 'duration' | 'hours' | 'money' | 'count';

export interface ExportColumn {
  header: string;
  type: ColumnType;
  /** A rough width in characters, for XLSX column widths and the PDF's layout. */
  width: number;
  /** A grouping level's column (Summary): a row at depth d leaves the levels above it out on XLSX and PDF. */
  level?: number;
  /** A shorter header for the PDF ("Mon 2" for a day of a month's columns). */
  pdfHeader?: string;
  /** Left out of the PDF (decimal hours beside h:mm:ss would only crowd a printed page). */
  pdf?: false;
}

export type Cell = string | number | null;

export interface ExportRow {
  cells: Cell[];
  /** `group`: a Summary level's subtotal, above its children (CSV leaves it out: sums stay sums). */
  kind: 'row' | 'group' | 'total';
  /** The grouping level (0 for the first) of a Summary row; 0 elsewhere. */
  depth: number;
}

export interface ExportTable {
  /** The report's name ("Summary", "People by days"). */
  title: string;
  workspace: string;
  /** The range and the filters in words, one line each. */
  lines: string[];
  columns: ExportColumn[];
  /** Every row, the totals last. Detailed reads them chunk by chunk from one statement's cursor. */
  rows: AsyncIterable<ExportRow>;
  /** How dates and times read where a format writes text (the viewer's settings). */
  dateFormat: string;
  timeFormat: string;
  currency: string;
  /** The file's name without extension ("summary-2026-11-01-2026-11-30"). */
  fileName: string;
  /**
   * The PDF's chart (a Summary's): tracked seconds per day, week or month of the range, as bars
   * above the table, like the chart on screen.
   */
  chart?: { title: string; bars: { label: string; sub?: string; seconds: number }[] };
  /** The workspace's logo (PNG or JPEG bytes), drawn beside its name at the top of the PDF. */
  logo?: Buffer;
  /** Set when the PDF stopped before the last row (a note says how to get everything). */
  pdfRowLimit?: number;
}
