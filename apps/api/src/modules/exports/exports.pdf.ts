import { PassThrough, type Readable } from 'node:stream';
import { formatMoney } from '@sundial/core';
import { decimalHours, formatClock, formatDateTime, formatDay, hms, isDayValue } from './exports.format.js';
import type { Cell, ExportColumn, ExportTable } from './exports.table.js';

const MARGIN = 36;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const SIZE = 8;
const ROW = 15;
const HEADER = 18;
const FOOTER = 22;
/** Points per character of a column's rough width, at the table's font size. */
const CHAR = 4.3;
const INK = '#1f2933';
const MUTED = '#6b7280';
const RULE = '#e5e7eb';
const LOGO = 28;
const BAR = '#4a6fa5';
const NUMERIC = new Set(['duration', 'hours', 'money', 'count']);

/** Seconds as h:mm, for a table too wide for seconds (a month of days). */
function hm(seconds: number): string {
  const minutes = Math.round(Math.abs(seconds) / 60);
  const text = `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
  return seconds < 0 && minutes > 0 ? `-${text}` : text;
}

/** What the widest figure of a column looks like, to size it. */
const SAMPLES: Record<string, (table: ExportTable, short: boolean) => string> = {
  date: (t) => formatDay('2026-12-28', t.dateFormat),
  datetime: (t) => (t.timeFormat === '12h' ? '12:00 PM' : '00:00'),
  duration: (_, short) => (short ? '000:00' : '000:00:00'),
  hours: () => '0000.00',
  money: (t) => {
    try {
      return formatMoney(99_999_99, t.currency, 'en-US');
    } catch {
      return `99999.99 ${t.currency}`;
    }
  },
  count: () => '00000',
  text: () => 'No',
};

/** The PDF's standard fonts speak Windows-1252: anything else reads as "?" rather than as garbage. */
const printable = (text: string) =>
  text.replace(/[^\x20-\x7E\xA0-\xFF\u2013\u2014\u2018\u2019\u201C\u201D\u2022\u2026\u20AC]/g, '?');

function cellText(column: ExportColumn, value: Cell, table: ExportTable, day: Cell, short: boolean): string {
  if (value === null) return '';
  if ((column.type === 'date' || column.type === 'datetime') && !isDayValue(value)) return String(value);
  switch (column.type) {
    case 'date':
      return formatDay(String(value), table.dateFormat);
    case 'datetime':
      // Beside the row's date a time reads as a time; one on another day keeps its date.
      return String(value).slice(0, 10) === day
        ? formatClock(String(value), table.timeFormat)
        : formatDateTime(String(value), table.dateFormat, table.timeFormat);
    case 'duration':
      return short ? hm(Number(value)) : hms(Number(value));
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
      return printable(String(value));
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
  doc.font(BOLD).fontSize(10).fillColor(INK).text(printable(chart.title), x, y, { lineBreak: false });
  const top = y + 18;
  const left = x + axis;
  const plotWidth = width - axis;
  const bottom = top + plotHeight;
  const hours = chart.bars.map((b) => b.seconds / 3600);
  const step = niceStep(Math.max(...hours, 0.1));
  const max = Math.max(step, Math.ceil(Math.max(...hours) / step) * step);
  doc.font(FONT).fontSize(7);
  for (let tick = 0; tick <= max + 1e-9; tick += step) {
    const ty = bottom - (tick / max) * plotHeight;
    doc
      .moveTo(left, ty)
      .lineTo(left + plotWidth, ty)
      .lineWidth(tick === 0 ? 0.8 : 0.4)
      .stroke(tick === 0 ? INK : RULE);
    doc.fillColor(MUTED).text(`${hoursText(Math.round(tick * 10) / 10)} h`, x, ty - 3, {
      width: axis - 6,
      align: 'right',
      lineBreak: false,
    });
  }
  const slot = plotWidth / Math.max(1, chart.bars.length);
  const barWidth = Math.max(1, Math.min(slot * 0.7, 48));
  const labelSize = slot < 14 ? 5.5 : slot < 22 ? 6.5 : 7;
  doc.font(FONT).fontSize(labelSize);
  const widest = Math.max(...chart.bars.map((b) => doc.widthOfString(printable(b.label))));
  const every = Math.max(1, Math.ceil((widest + 3) / slot));
  chart.bars.forEach((bar, i) => {
    const h = ((hours[i] ?? 0) / max) * plotHeight;
    const cx = left + slot * i + slot / 2;
    if (h > 0) doc.rect(cx - barWidth / 2, bottom - h, barWidth, h).fill(BAR);
    // The value above its bar, where it fits.
    const value = hoursText(Math.round((hours[i] ?? 0) * 10) / 10);
    if (bar.seconds > 0 && doc.font(FONT).fontSize(labelSize).widthOfString(value) <= slot - 1)
      doc
        .fillColor(INK)
        .text(value, cx - slot / 2, bottom - h - labelSize - 2, { width: slot, align: 'center', lineBreak: false });
    if (i % every === 0) {
      doc.fillColor(INK).text(printable(bar.label), cx - (slot * every) / 2, bottom + 3, {
        width: slot * every,
        align: 'center',
        lineBreak: false,
      });
      if (bar.sub)
        doc
          .fillColor(MUTED)
          .text(
            printable(bar.sub.slice(0, slot * every < 14 ? 1 : 3)),
            cx - (slot * every) / 2,
            bottom + 4 + labelSize,
            {
              width: slot * every,
              align: 'center',
              lineBreak: false,
            },
          );
    }
  });
  return bottom + 5 + labelSize * (hasSub ? 2 : 1);
}

/**
 * The table as a PDF (pdfkit, standard fonts): the workspace, the report's title and its filters
 * in words, then the table with its header repeated on every page, a Summary's subtotals and the
 * totals in bold, and "Page n of m" with the workspace and title at the foot of each page. A wide
 * table turns the page to landscape. Past `maxRows` rows the PDF stops with a note (CSV and Excel
 * have every row).
 */
export function writePdf(table: ExportTable, options: { maxRows: number; compress?: boolean }): Readable {
  const out = new PassThrough();
  (async () => {
    const { default: PDFDocument } = await import('pdfkit');
    const shown = table.columns.map((c, i) => ({ c, i })).filter(({ c }) => c.pdf !== false);
    const headerOf = (c: ExportColumn) => printable(c.pdfHeader ?? c.header);
    // Text columns share what the figures leave, at least this much each (points per character).
    const textMin = (c: ExportColumn) => Math.min(c.width, 14) * 3.6;
    const layoutFor = (doc: PDFKit.PDFDocument, size: number, short: boolean) => {
      doc.font(BOLD).fontSize(size);
      const pad = size < 7 ? 5 : 8;
      // A figure's (or a short text's) column is as wide as its widest figure and its header's
      // longest word, or its whole header if that is close.
      const fixed = shown.map(({ c }) => {
        if (c.type === 'text' && c.width > 10) return 0;
        const figure = doc.widthOfString(c.pdfSample ?? SAMPLES[c.type]?.(table, short) ?? '') + pad + 2;
        const word = Math.max(
          ...headerOf(c)
            .split(' ')
            .map((w) => doc.widthOfString(w) + pad),
        );
        const whole = doc.widthOfString(headerOf(c)) + pad;
        return Math.max(figure, word, whole <= figure * 1.6 ? whole : 0);
      });
      const scale = size / SIZE;
      const needed =
        fixed.reduce((a, b) => a + b, 0) +
        shown.reduce((sum, { c }, k) => sum + (fixed[k] ? 0 : textMin(c) * scale), 0);
      return { size, short, fixed, needed, pad };
    };
    const natural = shown.map(({ c }) => (c.type === 'datetime' ? 9 : c.width) * CHAR);
    const layout = natural.reduce((a, b) => a + b, 0) > 595 - 2 * MARGIN ? 'landscape' : 'portrait';
    const doc = new PDFDocument({
      size: 'A4',
      layout,
      margin: MARGIN,
      bufferPages: true,
      compress: options.compress ?? true,
      info: { Title: printable(table.title), Author: printable(table.workspace), Creator: 'Sundial' },
    });
    doc.on('error', (error: Error) => out.destroy(error));
    doc.pipe(out);
    const width = doc.page.width - 2 * MARGIN;
    // The largest letters that fit; a table too wide even then (a month of days) shows h:mm.
    const tries = [false, true].flatMap((short) => [8, 7, 6.5, 6, 5.5, 5].map((size) => ({ size, short })));
    const chosen =
      tries.map((t) => layoutFor(doc, t.size, t.short)).find((l) => l.needed <= width) ?? layoutFor(doc, 5, true);
    const { size, short, fixed, pad } = chosen;
    const inset = pad / 2;
    doc.font(BOLD).fontSize(size);
    const textShare = natural.reduce((sum, w, k) => sum + (fixed[k] ? 0 : w), 0);
    const room = Math.max(0, width - fixed.reduce((a, b) => a + b, 0));
    const raw = shown.map((_, k) => fixed[k] || ((natural[k] ?? 0) * room) / (textShare || 1));
    const widths = raw.map((w) => (w * Math.min(1, width / raw.reduce((a, b) => a + b, 0))) as number);
    const xs = widths.map((_, k) => MARGIN + widths.slice(0, k).reduce((a, b) => a + b, 0));
    const headerHeight = Math.max(
      HEADER,
      ...shown.map(({ c }, k) => doc.heightOfString(headerOf(c), { width: (widths[k] ?? 0) - pad }) + 10),
    );
    const bottom = () => doc.page.height - MARGIN - FOOTER;

    /** One line of text in a box, cut with an ellipsis when it is too wide. */
    const fit = (text: string, w: number) => {
      if (doc.widthOfString(text) <= w) return text;
      let lo = 0;
      let hi = text.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (doc.widthOfString(`${text.slice(0, mid)}…`) <= w) lo = mid;
        else hi = mid - 1;
      }
      return `${text.slice(0, lo)}…`;
    };

    const drawHeader = (y: number) => {
      doc.rect(MARGIN, y, width, headerHeight).fill('#f3f4f6');
      doc.font(BOLD).fontSize(size).fillColor(INK);
      shown.forEach(({ c }, k) => {
        const w = (widths[k] ?? 0) - pad;
        doc.text(headerOf(c), (xs[k] ?? 0) + inset, y + 5, {
          width: w,
          align: NUMERIC.has(c.type) ? 'right' : 'left',
          lineGap: 0,
        });
      });
      return y + headerHeight;
    };

    // Page one: who (the workspace's logo beside its name), what, which filters, the chart.
    let nameX = MARGIN;
    let titleY = MARGIN + 14;
    if (table.logo) {
      try {
        doc.image(table.logo, MARGIN, MARGIN, { fit: [LOGO * 3, LOGO], valign: 'center' });
        // pdfkit's types leave openImage out; it reads the image's size.
        const image = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(
          table.logo,
        );
        nameX = MARGIN + Math.min(LOGO * 3, (image.width * LOGO) / image.height) + 8;
        titleY = MARGIN + LOGO + 6;
      } catch {
        // A logo pdfkit cannot read (the upload checks it) leaves the name alone.
      }
    }
    doc
      .font(BOLD)
      .fontSize(10)
      .fillColor(MUTED)
      .text(printable(table.workspace), nameX, nameX === MARGIN ? MARGIN : MARGIN + LOGO / 2 - 6, {
        width: width - (nameX - MARGIN),
        lineBreak: false,
      });
    doc.font(BOLD).fontSize(18).fillColor(INK).text(printable(table.title), MARGIN, titleY, { paragraphGap: 4 });
    doc.font(FONT).fontSize(9).fillColor(INK);
    for (const line of table.lines) doc.text(printable(line), { width });
    let top = doc.y + 12;
    const chart = table.chart;
    if (chart?.bars.some((b) => b.seconds > 0)) top = drawChart(doc, chart, MARGIN, top, width) + 14;
    let y = drawHeader(top);

    const dateColumn = table.columns.findIndex((c) => c.type === 'date');
    let rows = 0;
    let stopped = false;
    for await (const row of table.rows) {
      if (row.kind !== 'total' && rows >= options.maxRows) {
        stopped = true;
        break;
      }
      if (row.kind !== 'total') rows++;
      if (y + ROW > bottom()) {
        doc.addPage();
        y = drawHeader(MARGIN);
      }
      const bold = row.kind !== 'row';
      if (row.kind === 'total')
        doc
          .moveTo(MARGIN, y)
          .lineTo(MARGIN + width, y)
          .lineWidth(0.8)
          .stroke(INK);
      doc
        .font(bold ? BOLD : FONT)
        .fontSize(SIZE)
        .fillColor(INK);
      const day = dateColumn < 0 ? null : (row.cells[dateColumn] ?? null);
      shown.forEach(({ c, i }, k) => {
        if (c.level !== undefined && c.level < row.depth) return;
        const text = cellText(c, row.cells[i] ?? null, table, day, short);
        if (!text) return;
        const w = (widths[k] ?? 0) - pad;
        doc.text(fit(text, w), (xs[k] ?? 0) + inset, y + 4, {
          width: w,
          align: NUMERIC.has(c.type) ? 'right' : 'left',
          lineBreak: false,
        });
      });
      y += ROW;
      if (row.kind !== 'total')
        doc
          .moveTo(MARGIN, y)
          .lineTo(MARGIN + width, y)
          .lineWidth(0.4)
          .stroke(RULE);
    }
    if (stopped) {
      if (y + 2 * ROW > bottom()) {
        doc.addPage();
        y = MARGIN;
      }
      doc
        .font(FONT)
        .fontSize(9)
        .fillColor(MUTED)
        .text(
          `This PDF shows the first ${options.maxRows.toLocaleString('en-US')} rows. Export CSV or Excel for every row and the totals.`,
          MARGIN,
          y + 8,
          { width },
        );
    }

    // The foot of every page, once their number is known.
    const { start, count } = doc.bufferedPageRange();
    for (let p = start; p < start + count; p++) {
      doc.switchToPage(p);
      const footY = doc.page.height - MARGIN - 10;
      doc.page.margins.bottom = 0;
      doc.font(FONT).fontSize(8).fillColor(MUTED);
      doc.text(printable(`${table.workspace} · ${table.title}`), MARGIN, footY, { width: width / 2, lineBreak: false });
      doc.text(`Page ${p - start + 1} of ${count}`, MARGIN + width / 2, footY, {
        width: width / 2,
        align: 'right',
        lineBreak: false,
      });
    }
    doc.end();
  })().catch((error) => out.destroy(error));
  return out;
}
