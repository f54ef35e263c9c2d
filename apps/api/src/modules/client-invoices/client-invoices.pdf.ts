import {
  type ClientInvoiceView,
  type ClockFormat,
  formatBasisPoints,
  formatDate,
  formatHundredths,
  formatMoney,
} from '@sundial/core';
import {
  bytesOf,
  drawFigureTable,
  drawLogo,
  type FigureRow,
  INK,
  MUTED,
  openPdf,
  writeText,
} from '../../platform/pdf.js';

const MARGIN = 56;
const LOGO = 40;

export interface InvoicePdfParty {
  /** The workspace: its name, logo (PNG or JPEG bytes), address and payment details. */
  name: string;
  logo: Buffer | null;
  address: string;
  paymentDetails: string;
}

/**
 * A client invoice as an A4 PDF (pdfkit, loaded on first use, in the fonts of
 * platform/pdf.ts, so every name prints as written): the workspace's
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
  const done = bytesOf(doc);
  const money = (cents: number) => formatMoney(cents, invoice.currency);
  const width = doc.page.width - 2 * MARGIN;

  const logoWidth = seller.logo ? drawLogo(doc, seller.logo, { x: MARGIN, y: MARGIN, height: LOGO }) : 0;
  const nameX = logoWidth ? MARGIN + logoWidth + 10 : MARGIN;
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
  const discount = invoice.discount?.kind === 'percent' ? ` (${formatBasisPoints(invoice.discount.basisPoints)})` : '';
  const total = (label: string, cents: number, bold = false): FigureRow => ({
    cells: [label, '', '', money(cents)],
    bold,
  });
  const header: FigureRow = { cells: ['Description', 'Hours', 'Rate', 'Amount'], bold: true };
  const body: FigureRow[] = invoice.lines.map((line) => ({
    cells: [
      line.description,
      line.hundredths === null ? '' : formatHundredths(line.hundredths),
      line.rateCents === null ? '' : `${money(line.rateCents)}/h`,
      money(line.amountCents),
    ],
  }));
  const totals: FigureRow[] = [
    total('Subtotal', m.subtotalCents),
    ...(m.discountCents > 0 ? [total(`Discount${discount}`, -m.discountCents)] : []),
    ...m.taxes.map((tax) => total(`${tax.name} ${formatBasisPoints(tax.basisPoints)}`, tax.amountCents)),
    total('Total', m.totalCents, true),
  ];
  y = drawFigureTable(doc, {
    left: MARGIN,
    right: MARGIN + width,
    y,
    least: [50, 75, 85],
    header,
    groups: [body, totals],
  });
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
