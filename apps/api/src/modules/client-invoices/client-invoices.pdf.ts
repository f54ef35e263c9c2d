import {
  type ClientInvoiceView,
  type ClockFormat,
  formatBasisPoints,
  formatDate,
  formatHundredths,
  formatMoney,
} from '@sundial/core';
import { figureColumns, heightOf, openPdf, writeText } from '../../platform/pdf-fonts.js';

const MARGIN = 56;
const LOGO = 40;
const INK = '#1f2933';
const MUTED = '#6b7280';
const RULE = '#d1d5db';

export interface InvoicePdfParty {
  /** The workspace: its name, logo (PNG or JPEG bytes), address and payment details. */
  name: string;
  logo: Buffer | null;
  address: string;
  paymentDetails: string;
}

/**
 * A client invoice as an A4 PDF (pdfkit, loaded on first use, in the fonts of
 * platform/pdf-fonts.ts, so every name prints as written): the workspace's
 * logo and name, the number (or DRAFT), days, the seller's and the client's addresses, the lines
 * with hours and rate, subtotal, discount, taxes, total, notes and payment details. Dates are in
 * `dates`, the format of the person who makes the file (their profile).
 */
export async function writeClientInvoicePdf(
  invoice: ClientInvoiceView,
  clientAddress: string,
  seller: InvoicePdfParty,
  dates: ClockFormat,
) {
  const day = (when: string) => formatDate(when, dates);
  const title = invoice.number ? `Invoice ${invoice.number}` : 'Draft invoice';
  const doc = await openPdf({ margin: MARGIN, info: { Title: title } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const width = doc.page.width - 2 * MARGIN;

  let nameX = MARGIN;
  if (seller.logo) {
    try {
      doc.image(seller.logo, MARGIN, MARGIN, { fit: [LOGO * 3, LOGO], valign: 'center' });
      const image = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(
        seller.logo,
      );
      nameX = MARGIN + Math.min(LOGO * 3, (image.width * LOGO) / image.height) + 10;
    } catch {
      // A logo pdfkit cannot read (the upload checks it) leaves the name alone.
    }
  }
  writeText(doc.fontSize(14).fillColor(INK), seller.name, nameX, MARGIN + 10, { width: width / 2, bold: true });
  writeText(doc.fontSize(20), invoice.number ? 'Invoice' : 'Draft invoice', MARGIN + width / 2, MARGIN, {
    width: width / 2,
    align: 'right',
    bold: true,
  });
  doc.fontSize(10).fillColor(MUTED);
  const facts = [
    invoice.number ? `No. ${invoice.number}` : 'Not issued: no number yet',
    invoice.issuedOn ? `Issued ${day(invoice.issuedOn)}` : null,
    invoice.dueOn ? `Due ${day(invoice.dueOn)}` : null,
    `Period ${day(invoice.periodFrom)} to ${day(invoice.periodTo)}`,
    invoice.status === 'paid' && invoice.paidOn ? `Paid ${day(invoice.paidOn)}` : null,
    invoice.status === 'void'
      ? `VOID${invoice.voidedAt ? ` ${day(invoice.voidedAt)}` : ''}${invoice.voidedBy ? ` by ${invoice.voidedBy}` : ''}`
      : null,
  ];
  for (const fact of facts)
    if (fact) writeText(doc, fact, MARGIN + width / 2, undefined, { width: width / 2, align: 'right' });

  const top = Math.max(doc.y, MARGIN + LOGO) + 20;
  const column = width / 2 - 10;
  const block = (x: number, heading: string, rows: string[]) => {
    writeText(doc.fontSize(9).fillColor(MUTED), heading.toUpperCase(), x, top, { width: column, bold: true });
    doc.fontSize(10).fillColor(INK);
    for (const row of rows) if (row.trim()) writeText(doc, row, x, undefined, { width: column });
    return doc.y;
  };
  const fromEnd = block(MARGIN, 'From', [seller.name, seller.address]);
  const toEnd = block(MARGIN + width / 2 + 10, 'Bill to', [invoice.clientName, clientAddress]);

  let y = Math.max(fromEnd, toEnd) + 24;
  const { money: m } = invoice;
  type Row = { cells: [string, string, string, string]; bold?: boolean };
  const discount = invoice.discount?.kind === 'percent' ? ` (${formatBasisPoints(invoice.discount.basisPoints)})` : '';
  const total = (label: string, cents: number, bold = false): Row => ({ cells: [label, '', '', money(cents)], bold });
  const header: Row = { cells: ['Description', 'Hours', 'Rate', 'Amount'], bold: true };
  const body: Row[] = invoice.lines.map((line) => ({
    cells: [
      line.description,
      line.hundredths === null ? '' : formatHundredths(line.hundredths),
      line.rateCents === null ? '' : `${money(line.rateCents)}/h`,
      money(line.amountCents),
    ],
  }));
  const totals: Row[] = [
    total('Subtotal', m.subtotalCents),
    ...(m.discountCents > 0 ? [total(`Discount${discount}`, -m.discountCents)] : []),
    ...m.taxes.map((tax) => total(`${tax.name} ${formatBasisPoints(tax.basisPoints)}`, tax.amountCents)),
    total('Total', m.totalCents, true),
  ];
  const cols = figureColumns(doc.fontSize(9), [header, ...body, ...totals], {
    left: MARGIN,
    right: MARGIN + width,
    least: [50, 75, 85],
  });
  const row = ({ cells, bold = false }: Row) => {
    doc.fontSize(9).fillColor(INK);
    const height = heightOf(doc, cells[0], { width: cols.description, bold });
    if (y + height > doc.page.height - MARGIN) {
      doc.addPage();
      y = MARGIN;
    }
    writeText(doc, cells[0], MARGIN, y, { width: cols.description, bold });
    cols.figures.forEach((column, k) => {
      writeText(doc, cells[k + 1] ?? '', column.x, y, { width: column.width, align: 'right', lineBreak: false, bold });
    });
    y += Math.max(height, 12) + 6;
  };
  const rule = () => {
    doc
      .moveTo(MARGIN, y - 3)
      .lineTo(MARGIN + width, y - 3)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
  };
  row(header);
  rule();
  body.forEach(row);
  rule();
  y += 4;
  totals.forEach(row);
  y += 12;
  doc.fontSize(9).fillColor(INK);
  doc.y = y;
  if (invoice.notes.trim()) writeText(doc, invoice.notes, MARGIN, y, { width });
  if (seller.paymentDetails.trim()) {
    doc.moveDown();
    writeText(doc.fillColor(MUTED), 'PAYMENT DETAILS', MARGIN, undefined, { width, bold: true });
    writeText(doc.fillColor(INK), seller.paymentDetails, MARGIN, undefined, { width });
  }
  doc.moveDown();
  const conversion = invoice.conversion
    ? ` Converted from ${invoice.conversion.from} at 1 ${invoice.conversion.from} = ${invoice.conversion.rate} ${invoice.conversion.currency} (${invoice.conversion.source}, ${invoice.conversion.on}).`
    : '';
  writeText(doc.fillColor(MUTED), `Amounts in ${invoice.currency}.${conversion}`, MARGIN, undefined, { width });
  doc.end();
  return done;
}
