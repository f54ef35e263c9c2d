import { heightOf, widthOf, writeText } from './pdf-fonts.js';

/**
 * What every PDF we write shares: the document in our fonts (pdf-fonts.ts, re-exported so a module
 * needs this file only), its bytes, the workspace's logo, a table of figures and the page numbers.
 * The modules keep their own texts, rows and page layout.
 */
export { heightOf, openPdf, type PdfTextOptions, widthOf, writeText } from './pdf-fonts.js';

/** Body text, secondary text, rules: one palette so the three documents look like one product's. */
export const INK = '#1f2933';
export const MUTED = '#6b7280';
export const RULE = '#d1d5db';

/** The whole document once it ends (attach before writing: pdfkit streams as it goes). */
export function bytesOf(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/**
 * Draws a logo (PNG or JPEG) `height` tall and at most three times as wide at (x, y), returning the
 * width it took, or 0 when pdfkit cannot read it (the upload checks it; an old one may slip by) so
 * the name beside it stays where it would be without one.
 */
export function drawLogo(doc: PDFKit.PDFDocument, logo: Buffer, at: { x: number; y: number; height: number }): number {
  try {
    doc.image(logo, at.x, at.y, { fit: [at.height * 3, at.height], valign: 'center' });
    // pdfkit's types leave openImage out; it reads the image's size.
    const image = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(logo);
    return Math.min(at.height * 3, (image.width * at.height) / image.height);
  } catch {
    return 0;
  }
}

/** A row of a figure table: a description then its figures, as printed. */
export interface FigureRow {
  cells: string[];
  bold?: boolean;
}

/**
 * A table's columns laid out right to left: each figure column (after the first, the description)
 * as wide as its widest cell (bold, to be safe) and at least `least[k]`, 10 points apart, so a
 * six-figure amount prints whole; the description takes the rest, less a 10-point gap.
 */
export function figureColumns(
  doc: PDFKit.PDFDocument,
  rows: FigureRow[],
  box: { left: number; right: number; least: number[] },
): { description: number; figures: { x: number; width: number }[] } {
  const figures: { x: number; width: number }[] = [];
  let right = box.right;
  for (let k = box.least.length - 1; k >= 0; k--) {
    const width = Math.max(box.least[k] ?? 0, ...rows.map((r) => widthOf(doc, r.cells[k + 1] ?? '', true)));
    figures.unshift({ x: right - width, width });
    right -= width + 10;
  }
  return { description: right - box.left, figures };
}

/**
 * An invoice-style table at 9 points from `y`: the header, then each group of rows (the lines, the
 * totals) below a thin rule. The description wraps; figures are right-aligned on one line, never cut
 * (see figureColumns). A row that does not fit goes to a new page under the header again. Returns
 * the y below the last row.
 */
export function drawFigureTable(
  doc: PDFKit.PDFDocument,
  table: {
    left: number;
    right: number;
    y: number;
    least: number[];
    header: FigureRow;
    groups: FigureRow[][];
    /** The lowest a row may reach: the bottom margin unless the pages are numbered (FOOT_ROOM above it). */
    bottom?: number;
  },
): number {
  const { left, right, header } = table;
  const cols = figureColumns(doc.fontSize(9), [header, ...table.groups.flat()], table);
  let y = table.y;
  const rule = () => {
    doc
      .moveTo(left, y - 3)
      .lineTo(right, y - 3)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
  };
  const write = ({ cells, bold = false }: FigureRow, height: number) => {
    writeText(doc, cells[0] ?? '', left, y, { width: cols.description, bold });
    cols.figures.forEach((column, k) => {
      writeText(doc, cells[k + 1] ?? '', column.x, y, { width: column.width, align: 'right', lineBreak: false, bold });
    });
    y += Math.max(height, 12) + 6;
  };
  const heightOfRow = ({ cells, bold = false }: FigureRow) =>
    heightOf(doc.fontSize(9).fillColor(INK), cells[0] ?? '', { width: cols.description, bold });
  write(header, heightOfRow(header));
  table.groups.forEach((group, k) => {
    rule();
    if (k > 0) y += 4;
    for (const r of group) {
      const height = heightOfRow(r);
      if (y + height > (table.bottom ?? doc.page.height - doc.page.margins.bottom)) {
        doc.addPage();
        y = doc.page.margins.top;
        write(header, heightOfRow(header));
        rule();
      }
      write(r, height);
    }
  });
  return y;
}

/** A row of a grid: its cells' text, whether it is bold, whether it is a total (a dark rule above it). */
export interface GridRow {
  texts: string[];
  bold: boolean;
  total: boolean;
}

export interface GridColumn {
  x: number;
  width: number;
  header: string;
  align: 'left' | 'right';
  /** A long text (names, descriptions) wraps; anything else stays on one line, its column sized to hold it. */
  wraps: boolean;
}

/** The light rule under every row of a grid (and a chart's grid lines). */
export const GRID_RULE = '#e5e7eb';

/**
 * A report's grid at `size` points from `top`: the header on a grey band (its words wrap), then the
 * rows, each under a light rule and a total above a dark one, each cell `pad / 2` inside its column.
 * A row that would pass `bottom()` goes to a page of `addPage()` under the header again. Returns the
 * y below the last row.
 */
export function drawGrid(
  doc: PDFKit.PDFDocument,
  grid: {
    columns: GridColumn[];
    rows: Iterable<GridRow>;
    left: number;
    width: number;
    top: number;
    size: number;
    pad: number;
    bottom: () => number;
    addPage: () => void;
  },
): number {
  const { columns, left, width, size, pad } = grid;
  const inset = pad / 2;
  const rowMin = size * 1.36 + 4;
  doc.fontSize(size);
  const headerHeight = Math.max(
    rowMin + 3,
    ...columns.map((c) => heightOf(doc, c.header, { width: c.width - pad, bold: true }) + 6),
  );
  const drawHeader = (y: number) => {
    doc.rect(left, y, width, headerHeight).fill('#f3f4f6');
    doc.fontSize(size).fillColor(INK);
    for (const c of columns)
      writeText(doc, c.header, c.x + inset, y + 3, { width: c.width - pad, align: c.align, lineGap: 0, bold: true });
    return y + headerHeight;
  };
  let y = drawHeader(grid.top);
  for (const row of grid.rows) {
    doc.fontSize(size);
    // A line unless a name is longer than its column could hold at a full em per character.
    const height = Math.max(
      rowMin,
      ...row.texts.map((text, k) => {
        const c = columns[k];
        return c?.wraps && text.length * size > c.width - pad
          ? heightOf(doc, text, { width: c.width - pad, bold: row.bold }) + 4
          : 0;
      }),
    );
    if (y + height > grid.bottom()) {
      grid.addPage();
      y = drawHeader(doc.page.margins.top);
    }
    if (row.total)
      doc
        .moveTo(left, y)
        .lineTo(left + width, y)
        .lineWidth(0.8)
        .stroke(INK);
    doc.fontSize(size).fillColor(INK);
    columns.forEach((c, k) => {
      const text = row.texts[k];
      if (!text) return;
      // Figures never wrap: their column holds the widest.
      writeText(doc, text, c.x + inset, y + 2, {
        width: c.width - pad,
        align: c.align,
        bold: row.bold,
        ...(c.wraps ? { lineGap: 0 } : { lineBreak: false }),
      });
    });
    y += height;
    if (!row.total)
      doc
        .moveTo(left, y)
        .lineTo(left + width, y)
        .lineWidth(0.4)
        .stroke(GRID_RULE);
  }
  return y;
}

/** The room numberPages' foot takes above the bottom margin: a table that numbers its pages ends higher. */
export const FOOT_ROOM = 22;

/**
 * Writes "Page n of m" at the right of every page's foot and `caption` at its left, in 8-point muted
 * text `margin` above the bottom edge. The document must buffer its pages (`bufferPages: true`).
 */
export function numberPages(doc: PDFKit.PDFDocument, options: { margin: number; caption: string }): void {
  const { margin, caption } = options;
  const { start, count } = doc.bufferedPageRange();
  for (let p = start; p < start + count; p++) {
    doc.switchToPage(p);
    const width = doc.page.width - 2 * margin;
    const footY = doc.page.height - margin - FOOT_ROOM + 10;
    // Below the bottom margin pdfkit would otherwise start a new page for the foot.
    doc.page.margins.bottom = 0;
    doc.fontSize(8).fillColor(MUTED);
    writeText(doc, caption, margin, footY, { width: width / 2, lineBreak: false });
    writeText(doc, `Page ${p - start + 1} of ${count}`, margin + width / 2, footY, {
      width: width / 2,
      align: 'right',
      lineBreak: false,
    });
  }
}
