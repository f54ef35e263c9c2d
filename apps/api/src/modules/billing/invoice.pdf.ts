import { findCountryName, formatMoney, formatVatRate, PLANS } from '@sundial/core';
import type { InvoiceLineRow, InvoiceRow } from './billing.repository.js';

const MARGIN = 56;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const INK = '#1f2933';
const MUTED = '#6b7280';
const RULE = '#d1d5db';

// The standard PDF fonts cover Latin-1 only: other characters would print as garbage.
const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/**
 * An invoice or credit note as an A4 PDF (pdfkit, standard fonts, loaded on first use): the
 * seller and buyer blocks with their VAT ids, the number, dates and period, the lines, net, VAT
 * (or the reverse-charge or no-VAT note) and gross, and the status.
 */
export async function writeInvoicePdf(
  invoice: InvoiceRow,
  lines: InvoiceLineRow[],
  creditedNumber: string | null,
): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: invoice.number } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const money = (cents: number) => formatMoney(Number(cents), invoice.currency);
  const width = doc.page.width - 2 * MARGIN;
  const isCredit = invoice.kind === 'credit_note';
  const { seller, buyer } = invoice;

  doc
    .fillColor(INK)
    .font(BOLD)
    .fontSize(20)
    .text(isCredit ? 'Credit note' : 'Invoice', MARGIN, MARGIN);
  doc.font(FONT).fontSize(10).fillColor(MUTED);
  doc.text(`No. ${invoice.number}`);
  doc.text(`Issued ${new Date(invoice.issued_at).toISOString().slice(0, 10)}`);
  if (creditedNumber) doc.text(`Credits invoice ${creditedNumber}`);
  doc
    .font(BOLD)
    .fillColor(INK)
    .text(`Status: ${isCredit ? 'credit note' : invoice.status}`);

  const top = doc.y + 18;
  const column = width / 2 - 10;
  const block = (x: number, title: string, rows: (string | null)[]) => {
    doc.font(BOLD).fontSize(9).fillColor(MUTED).text(title.toUpperCase(), x, top, { width: column });
    doc.font(FONT).fontSize(10).fillColor(INK);
    for (const row of rows) if (row) doc.text(printable(row), { width: column });
    return doc.y;
  };
  const sellerEnd = block(MARGIN, 'From', [
    seller.name,
    ...seller.addressLines,
    findCountryName(seller.country) ?? seller.country,
    seller.vatId ? `VAT ID: ${seller.vatId}` : null,
    seller.email,
  ]);
  const buyerEnd = block(MARGIN + width / 2 + 10, 'Bill to', [
    buyer.name,
    buyer.address,
    `${buyer.postalCode} ${buyer.city}`,
    findCountryName(buyer.country) ?? buyer.country,
    buyer.vatId ? `VAT ID: ${buyer.vatId}` : null,
    buyer.invoiceEmail,
  ]);

  let y = Math.max(sellerEnd, buyerEnd) + 18;
  doc.font(FONT).fontSize(10).fillColor(INK);
  const plan = `${PLANS[invoice.plan]?.name ?? invoice.plan} plan, ${invoice.cycle}, ${invoice.licenses} licenses`;
  const period = invoice.period_start && invoice.period_end ? `, ${invoice.period_start} to ${invoice.period_end}` : '';
  doc.text(printable(`${plan}${period}`), MARGIN, y, { width });
  y = doc.y + 12;

  const cols = {
    description: MARGIN,
    quantity: MARGIN + width - 230,
    unit: MARGIN + width - 170,
    amount: MARGIN + width - 85,
  };
  const row = (cells: [string, string, string, string], bold = false) => {
    doc
      .font(bold ? BOLD : FONT)
      .fontSize(9)
      .fillColor(INK);
    const height = doc.heightOfString(cells[0], { width: cols.quantity - cols.description - 10 });
    doc.text(cells[0], cols.description, y, { width: cols.quantity - cols.description - 10 });
    doc.text(cells[1], cols.quantity, y, { width: 50, align: 'right' });
    doc.text(cells[2], cols.unit, y, { width: 75, align: 'right' });
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
  row(['Description', 'Qty', 'Unit price', 'Amount'], true);
  rule();
  for (const line of lines)
    row([printable(line.description), String(line.quantity), money(line.unit_cents), money(line.amount_cents)]);
  rule();
  y += 4;
  const total = (label: string, cents: number, bold = false) => row([label, '', '', money(cents)], bold);
  total('Net', invoice.net_cents);
  total(
    invoice.tax_kind === 'standard' ? `VAT ${formatVatRate(invoice.tax_rate_basis_points)}%` : 'VAT',
    invoice.vat_cents,
  );
  total(isCredit ? 'Total credited' : 'Total', invoice.gross_cents, true);
  y += 10;
  doc.font(FONT).fontSize(9).fillColor(MUTED).text(printable(invoice.tax_note), MARGIN, y, { width });
  if (invoice.reason) doc.text(printable(`Reason: ${invoice.reason}`), { width });
  doc.text(`Amounts in ${invoice.currency}.`, { width });
  doc.end();
  return done;
}
