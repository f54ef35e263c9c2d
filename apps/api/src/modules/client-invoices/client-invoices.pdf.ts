import { type ClientInvoiceView, formatBasisPoints, formatHundredths, formatMoney } from '@sundial/core';

const MARGIN = 56;
const LOGO = 40;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const INK = '#1f2933';
const MUTED = '#6b7280';
const RULE = '#d1d5db';

// The standard PDF fonts cover Latin-1 only: other characters would print as garbage.
const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff\n]/g, '?');

export interface InvoicePdfParty {
  /** The workspace: its name, logo (PNG or JPEG bytes), address and payment details. */
  name: string;
  logo: Buffer | null;
  address: string;
  paymentDetails: string;
}

/**
 * A client invoice as an A4 PDF (pdfkit, standard fonts, loaded on first use): the workspace's
 * logo and name, the number (or DRAFT), days, the seller's and the client's addresses, the lines
 * with hours and rate, subtotal, discount, taxes, total, notes and payment details.
 */
export async function writeClientInvoicePdf(
  invoice: ClientInvoiceView,
  clientAddress: string,
  seller: InvoicePdfParty,
) {
  const { default: PDFDocument } = await import('pdfkit');
  const title = invoice.number ? `Invoice ${invoice.number}` : 'Draft invoice';
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title } });
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
  doc
    .font(BOLD)
    .fontSize(14)
    .fillColor(INK)
    .text(printable(seller.name), nameX, MARGIN + 12, { width: width / 2 });
  doc
    .font(BOLD)
    .fontSize(20)
    .text(invoice.number ? 'Invoice' : 'Draft invoice', MARGIN + width / 2, MARGIN, {
      width: width / 2,
      align: 'right',
    });
  doc.font(FONT).fontSize(10).fillColor(MUTED);
  const facts = [
    invoice.number ? `No. ${invoice.number}` : 'Not issued: no number yet',
    invoice.issuedOn ? `Issued ${invoice.issuedOn}` : null,
    invoice.dueOn ? `Due ${invoice.dueOn}` : null,
    `Period ${invoice.periodFrom} to ${invoice.periodTo}`,
    invoice.status === 'paid' && invoice.paidOn ? `Paid ${invoice.paidOn}` : null,
    invoice.status === 'void'
      ? `VOID${invoice.voidedAt ? ` ${invoice.voidedAt.slice(0, 10)}` : ''}${invoice.voidedBy ? ` by ${printable(invoice.voidedBy)}` : ''}`
      : null,
  ];
  for (const fact of facts)
    if (fact) doc.text(fact, MARGIN + width / 2, undefined, { width: width / 2, align: 'right' });

  const top = Math.max(doc.y, MARGIN + LOGO) + 20;
  const column = width / 2 - 10;
  const block = (x: number, heading: string, rows: string[]) => {
    doc.font(BOLD).fontSize(9).fillColor(MUTED).text(heading.toUpperCase(), x, top, { width: column });
    doc.font(FONT).fontSize(10).fillColor(INK);
    for (const row of rows) if (row.trim()) doc.text(printable(row), { width: column });
    return doc.y;
  };
  const fromEnd = block(MARGIN, 'From', [seller.name, seller.address]);
  const toEnd = block(MARGIN + width / 2 + 10, 'Bill to', [invoice.clientName, clientAddress]);

  let y = Math.max(fromEnd, toEnd) + 24;
  const cols = {
    description: MARGIN,
    hours: MARGIN + width - 230,
    rate: MARGIN + width - 170,
    amount: MARGIN + width - 85,
  };
  const row = (cells: [string, string, string, string], bold = false) => {
    doc
      .font(bold ? BOLD : FONT)
      .fontSize(9)
      .fillColor(INK);
    const descriptionWidth = cols.hours - cols.description - 10;
    const height = doc.heightOfString(cells[0], { width: descriptionWidth });
    if (y + height > doc.page.height - MARGIN) {
      doc.addPage();
      y = MARGIN;
    }
    doc.text(cells[0], cols.description, y, { width: descriptionWidth });
    doc.text(cells[1], cols.hours, y, { width: 50, align: 'right' });
    doc.text(cells[2], cols.rate, y, { width: 75, align: 'right' });
    doc.text(cells[3], cols.amount, y, { width: 85, align: 'right' });
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
  row(['Description', 'Hours', 'Rate', 'Amount'], true);
  rule();
  for (const line of invoice.lines)
    row([
      printable(line.description),
      line.hundredths === null ? '' : formatHundredths(line.hundredths),
      line.rateCents === null ? '' : `${money(line.rateCents)}/h`,
      money(line.amountCents),
    ]);
  rule();
  y += 4;
  const { money: m } = invoice;
  const total = (label: string, cents: number, bold = false) => row([label, '', '', money(cents)], bold);
  total('Subtotal', m.subtotalCents);
  if (m.discountCents > 0) {
    const discount =
      invoice.discount?.kind === 'percent' ? ` (${formatBasisPoints(invoice.discount.basisPoints)})` : '';
    total(`Discount${discount}`, -m.discountCents);
  }
  for (const tax of m.taxes) total(printable(`${tax.name} ${formatBasisPoints(tax.basisPoints)}`), tax.amountCents);
  total('Total', m.totalCents, true);

  y += 12;
  doc.font(FONT).fontSize(9).fillColor(INK);
  if (invoice.notes.trim()) doc.text(printable(invoice.notes), MARGIN, y, { width });
  if (seller.paymentDetails.trim()) {
    doc.moveDown();
    doc.font(BOLD).fillColor(MUTED).text('PAYMENT DETAILS', MARGIN, undefined, { width });
    doc.font(FONT).fillColor(INK).text(printable(seller.paymentDetails), { width });
  }
  doc.moveDown();
  const conversion = invoice.conversion
    ? ` Converted from ${invoice.conversion.from} at 1 ${invoice.conversion.from} = ${invoice.conversion.rate} ${invoice.conversion.currency} (${printable(invoice.conversion.source)}, ${invoice.conversion.on}).`
    : '';
  doc.fillColor(MUTED).text(`Amounts in ${invoice.currency}.${conversion}`, MARGIN, undefined, { width });
  doc.end();
  return done;
}
