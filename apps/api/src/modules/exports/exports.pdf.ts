import { PassThrough, type Readable } from 'node:stream';
import { formatCalendarDay, formatMoney } from '@sundial/core';
import {
  drawGrid,
  drawLogo,
  FOOT_ROOM,
  GRID_RULE,
  type GridRow,
  INK,
  MUTED,
  numberPages,
  openPdf,
  widthOf,
  writeText,
} from '../../platform/pdf.js';
import { decimalHours, formatClock, formatDateTime, hms, isDayValue } from './exports.format.js';
import type { Cell, ExportColumn, ExportTable } from './exports.table.js';

const MARGIN = 36;
const SIZE = 8;
/** Points per character of a column's rough width, at the table's font size. */
const CHAR = 4.3;
const LOGO = 28;
const BAR = '#4a6fa5';
const NUMERIC = new Set(['duration', 'hours', 'money', 'count']);
/** A4 and A3 in points (width, height) as portrait. */
const A4: [number, number] = [595.28, 841.89];
const A3: [number, number] = [841.89, 1190.55];

function cellText(column: ExportColumn, value: Cell, table: ExportTable, day: Cell): string {
  if (value === null) return '';
  if ((column.type === 'date' || column.type === 'datetime') && !isDayValue(value)) return String(value);
  switch (column.type) {
    case 'date':
      return formatCalendarDay(String(value), table.dateFormat);
    case 'datetime':
      // Beside the row's date a time reads as a time; one on another day keeps its date.
      return String(value).slice(0, 10) === day
        ? formatClock(String(value), table.timeFormat)
        : formatDateTime(String(value), table.dateFormat, table.timeFormat);
    case 'duration':
      return hms(Number(value));
    case 'hours':
      return decimalHours(Number(value));
    case 'money':
      try {
        return formatMoney(Number(value), table.currency, 'en-US');
      } catch {
        return `${(Number(value) / 100).toFixed(2)} ${table.currency}`;
      }
    case 'count':
      return Number(value).toLocaleString('en-US');
    case 'text':
      return String(value);
  }
}

/** A step of the hours axis that gives at most five lines: 1, 2 or 5 times a power of ten. */
function niceStep(max: number): number {
  for (let power = 0.1; ; power *= 10)
    for (const m of [1, 2, 5]) if (Math.ceil(max / (m * power)) <= 5) return m * power;
}

const hoursText = (hours: number) => (Number.isInteger(hours) ? String(hours) : hours.toFixed(1));

/**
 * The chart (pdfkit's vector drawing, one ink: it prints in greyscale): a bar of tracked hours per
 * period with its value above it, the hours axis with light grid lines, the period beneath each
 * bar (every second or third label when they do not fit). Returns the y below it.
 */
function drawChart(
  doc: PDFKit.PDFDocument,
  chart: NonNullable<ExportTable['chart']>,
  x: number,
  y: number,
  width: number,
): number {
  const plotHeight = 120;
  const axis = 34;
  const hasSub = chart.bars.some((b) => b.sub);
  writeText(doc.fontSize(10).fillColor(INK), chart.title, x, y, { bold: true, lineBreak: false });
  const top = y + 18;
  const left = x + axis;
  const plotWidth = width - axis;
  const bottom = top + plotHeight;
  const hours = chart.bars.map((b) => b.seconds / 3600);
  const step = niceStep(Math.max(...hours, 0.1));
  const max = Math.max(step, Math.ceil(Math.max(...hours) / step) * step);
  doc.fontSize(7);
  for (let tick = 0; tick <= max + 1e-9; tick += step) {
    const ty = bottom - (tick / max) * plotHeight;
    doc
      .moveTo(left, ty)
      .lineTo(left + plotWidth, ty)
      .lineWidth(tick === 0 ? 0.8 : 0.4)
      .stroke(tick === 0 ? INK : GRID_RULE);
    writeText(doc.fillColor(MUTED), `${hoursText(Math.round(tick * 10) / 10)} h`, x, ty - 4, {
      width: axis - 6,
      align: 'right',
      lineBreak: false,
    });
  }
  const slot = plotWidth / Math.max(1, chart.bars.length);
  const barWidth = Math.max(1, Math.min(slot * 0.7, 48));
  const labelSize = slot < 14 ? 5.5 : slot < 22 ? 6.5 : 7;
  doc.fontSize(labelSize);
  const widest = Math.max(...chart.bars.map((b) => widthOf(doc, b.label)));
  const every = Math.max(1, Math.ceil((widest + 3) / slot));
  chart.bars.forEach((bar, i) => {
    const h = ((hours[i] ?? 0) / max) * plotHeight;
    const cx = left + slot * i + slot / 2;
    if (h > 0) doc.rect(cx - barWidth / 2, bottom - h, barWidth, h).fill(BAR);
    // The value above its bar, where it fits.
    const value = hoursText(Math.round((hours[i] ?? 0) * 10) / 10);
    if (bar.seconds > 0 && widthOf(doc.fontSize(labelSize), value) <= slot - 1)
      writeText(doc.fillColor(INK), value, cx - slot / 2, bottom - h - labelSize - 3, {
        width: slot,
        align: 'center',
        lineBreak: false,
      });
    if (i % every === 0) {
      writeText(doc.fillColor(INK), bar.label, cx - (slot * every) / 2, bottom + 2, {
        width: slot * every,
        align: 'center',
        lineBreak: false,
      });
      if (bar.sub)
        writeText(
          doc.fillColor(MUTED),
          bar.sub.slice(0, slot * every < 14 ? 1 : 3),
          cx - (slot * every) / 2,
          bottom + 3 + labelSize,
          {
            width: slot * every,
            align: 'center',
            lineBreak: false,
          },
        );
    }
  });
  return bottom + 6 + labelSize * (hasSub ? 2 : 1);
}

/**
 * The table as a PDF (pdfkit, Noto Sans with CJK fallbacks: platform/pdf.ts): the workspace,
 * the report's title and its filters in words, then the table with its header repeated on every
 * page, a Summary's subtotals and the totals in bold, and "Page n of m" with the workspace and
 * title at the foot of each page. Every figure is printed whole: its column is as wide as its widest
 * cell, measured in the font; names wrap. A table too wide for A4 portrait turns to landscape, then
 * smaller letters, then A3, then a page as wide as it needs. Past `maxRows` rows the PDF stops with a
 * note (CSV and Excel have every row).
 */
export function writePdf(table: ExportTable, options: { maxRows: number; compress?: boolean }): Readable {
  const out = new PassThrough();
  (async () => {
    const shown = table.columns.map((c, i) => ({ c, i })).filter(({ c }) => c.pdf !== false);
    const headerOf = (c: ExportColumn) => c.pdfHeader ?? c.header;
    // A long text column (names, descriptions) wraps; every other column is sized to its content.
    const wraps = shown.map(({ c }) => c.type === 'text' && c.width > 10);

    // The rows first (at most maxRows: the PDF stops there), to size the columns to what they hold.
    const dateColumn = table.columns.findIndex((c) => c.type === 'date');
    const rows: GridRow[] = [];
    let stopped = false;
    let listed = 0;
    for await (const row of table.rows) {
      if (row.kind !== 'total' && listed++ >= options.maxRows) {
        stopped = true;
        break;
      }
      const day = dateColumn < 0 ? null : (row.cells[dateColumn] ?? null);
      rows.push({
        texts: shown.map(({ c, i }) =>
          c.level !== undefined && c.level < row.depth ? '' : cellText(c, row.cells[i] ?? null, table, day),
        ),
        bold: row.kind !== 'row',
        total: row.kind === 'total',
      });
    }

    const doc = await openPdf({
      autoFirstPage: false,
      margin: MARGIN,
      bufferPages: true,
      compress: options.compress ?? true,
      info: { Title: table.title, Author: table.workspace, Creator: 'Sundial' },
    });
    doc.on('error', (error: Error) => out.destroy(error));
    doc.pipe(out);

    // Each sized column's widest text at SIZE (widths scale with the size): its header's words
    // and, of its cells, the longest strings (the only ones that can be widest in these fonts).
    doc.fontSize(SIZE);
    const widest = shown.map(({ c }, k) => {
      const words = Math.max(
        ...headerOf(c)
          .split(' ')
          .map((w) => widthOf(doc, w, true)),
      );
      const whole = widthOf(doc, headerOf(c), true);
      if (wraps[k]) return { words, whole, cells: 0 };
      const longest = Math.max(0, ...rows.map((r) => r.texts[k]?.length ?? 0));
      const candidates = new Map<string, boolean>();
      for (const r of rows) {
        const text = r.texts[k] ?? '';
        if (text.length >= longest - 1 && candidates.size < 400) candidates.set(text, r.bold || !!candidates.get(text));
      }
      const cells = Math.max(0, ...[...candidates].map(([text, bold]) => widthOf(doc, text, bold)));
      return { words, whole, cells };
    });
    const layoutFor = (size: number) => {
      const scale = size / SIZE;
      const pad = size < 7 ? 5 : 8;
      // A figure's column: its widest cell and its header's longest word, or its whole header if that is close.
      const fixed = widest.map((m, k) => {
        if (wraps[k]) return 0;
        const content = Math.max(m.cells, m.words) * scale + pad + 1;
        return Math.max(content, m.whole * scale + pad <= content * 1.6 ? m.whole * scale + pad : 0);
      });
      // Text columns share what the figures leave, at least this much each.
      const textMin = shown.reduce((sum, { c }, k) => sum + (wraps[k] ? Math.min(c.width, 14) * 3.6 * scale : 0), 0);
      return { size, pad, fixed, needed: fixed.reduce((a, b) => a + b, 0) + textMin };
    };
    const natural = shown.map(({ c }) => (c.type === 'datetime' ? 9 : c.width) * CHAR);
    const portrait = natural.reduce((a, b) => a + b, 0) <= A4[0] - 2 * MARGIN;
    const pages: { size: [number, number]; sizes: number[] }[] = [
      ...(portrait ? [{ size: A4, sizes: [8, 7] }] : []),
      { size: [A4[1], A4[0]], sizes: [8, 7, 6.5, 6] },
      { size: [A3[1], A3[0]], sizes: [7, 6.5, 6] },
    ];
    let page = pages[pages.length - 1]?.size ?? A4;
    let chosen: ReturnType<typeof layoutFor> | undefined;
    for (const p of pages) {
      chosen = p.sizes.map(layoutFor).find((l) => l.needed <= p.size[0] - 2 * MARGIN);
      if (chosen) {
        page = p.size;
        break;
      }
    }
    if (!chosen) {
      // Wider than A3 at 6 points (many columns of large figures): a page as wide as the table.
      chosen = layoutFor(6);
      page = [Math.ceil(chosen.needed + 2 * MARGIN), A3[0]];
    }
    const { size, pad, fixed } = chosen;
    const addPage = () => doc.addPage({ size: page, margin: MARGIN });
    addPage();
    const width = doc.page.width - 2 * MARGIN;
    const textShare = natural.reduce((sum, w, k) => sum + (wraps[k] ? w : 0), 0);
    const room = Math.max(0, width - fixed.reduce((a, b) => a + b, 0));
    const widths = shown.map((_, k) => (wraps[k] ? ((natural[k] ?? 0) * room) / (textShare || 1) : (fixed[k] ?? 0)));
    // With no text column to take the room, the figures spread over the width.
    const spare = textShare ? 0 : room / Math.max(1, widths.length);
    for (let k = 0; k < widths.length; k++) widths[k] = (widths[k] ?? 0) + spare;
    const xs = widths.map((_, k) => MARGIN + widths.slice(0, k).reduce((a, b) => a + b, 0));
    const bottom = () => doc.page.height - MARGIN - FOOT_ROOM;

    // Page one: who (the workspace's logo beside its name), what, which filters, the chart.
    const logoWidth = table.logo ? drawLogo(doc, table.logo, { x: MARGIN, y: MARGIN, height: LOGO }) : 0;
    const nameX = logoWidth ? MARGIN + logoWidth + 8 : MARGIN;
    const titleY = logoWidth ? MARGIN + LOGO + 6 : MARGIN + 14;
    writeText(
      doc.fontSize(10).fillColor(MUTED),
      table.workspace,
      nameX,
      nameX === MARGIN ? MARGIN - 2 : MARGIN + LOGO / 2 - 8,
      { width: width - (nameX - MARGIN), lineBreak: false, bold: true },
    );
    writeText(doc.fontSize(18).fillColor(INK), table.title, MARGIN, titleY - 4, { paragraphGap: 2, bold: true });
    doc.fontSize(9).fillColor(INK);
    for (const line of table.lines) writeText(doc, line, MARGIN, undefined, { width });
    let top = doc.y + 12;
    const chart = table.chart;
    if (chart?.bars.some((b) => b.seconds > 0)) top = drawChart(doc, chart, MARGIN, top, width) + 14;
    let y = drawGrid(doc, {
      columns: shown.map(({ c }, k) => ({
        x: xs[k] ?? 0,
        width: widths[k] ?? 0,
        header: headerOf(c),
        align: NUMERIC.has(c.type) ? 'right' : 'left',
        wraps: wraps[k] ?? false,
      })),
      rows,
      left: MARGIN,
      width,
      top,
      size,
      pad,
      bottom,
      addPage,
    });
    if (stopped) {
      if (y + 30 > bottom()) {
        addPage();
        y = MARGIN;
      }
      writeText(
        doc.fontSize(9).fillColor(MUTED),
        `This PDF shows the first ${options.maxRows.toLocaleString('en-US')} rows. Export CSV or Excel for every row and the totals.`,
        MARGIN,
        y + 8,
        { width },
      );
    }

    // The foot of every page, once their number is known.
    numberPages(doc, { margin: MARGIN, caption: `${table.workspace} · ${table.title}` });
    doc.end();
  })().catch((error) => out.destroy(error));
  return out;
}
