import { type ClockFormat, findCountryName, formatDate, formatMoney, formatVatRate, PLANS } from '@sundial/core';
import { bytesOf, drawFigureTable, INK, MUTED, openPdf, writeText } from '../../platform/pdf.js';
import type { InvoiceLineRow, InvoiceRow } from './billing.repository.js';

const MARGIN = 56;

/**
 * An invoice or credit note as an A4 PDF (pdfkit, loaded on first use, in the fonts and table of platform/pdf.ts,
 * so every name prints as written): the seller and buyer blocks with their VAT ids, the number, dates and period, the lines, net, VAT
 * (or the reverse-charge or no-VAT note) and gross, and the status.
 */
export async function writeInvoicePdf(
  invoice: InvoiceRow,
  lines: InvoiceLineRow[],
  creditedNumber: string | null,
  /** The format of the person who downloads it; a mailed copy (no reader known) reads ISO, in UTC. */
  dates: ClockFormat = { dateFormat: 'YYYY-MM-DD', timeFormat: '24h', timeZone: 'UTC' },
): Promise<Buffer> {
  const day = (when: string | Date) => formatDate(when, dates);
  const doc = await openPdf({ margin: MARGIN, info: { Title: invoice.number } });
  const done = bytesOf(doc);
  const money = (cents: number) => formatMoney(Number(cents), invoice.currency);
  const width = doc.page.width - 2 * MARGIN;
  const isCredit = invoice.kind === 'credit_note';
  const { seller, buyer } = invoice;

  writeText(doc.fillColor(INK).fontSize(20), isCredit ? 'Credit note' : 'Invoice', MARGIN, MARGIN, { bold: true });
  doc.fontSize(10).fillColor(MUTED);
  writeText(doc, `No. ${invoice.number}`);
  writeText(doc, `Issued ${day(invoice.issued_at)}`);
  if (creditedNumber) writeText(doc, `Credits invoice ${creditedNumber}`);
  writeText(doc.fillColor(INK), `Status: ${isCredit ? 'credit note' : invoice.status}`, undefined, undefined, {
    bold: true,
  });

  const top = doc.y + 18;
  const column = width / 2 - 10;
  const block = (x: number, title: string, rows: (string | null)[]) => {
    writeText(doc.fontSize(9).fillColor(MUTED), title.toUpperCase(), x, top, { width: column, bold: true });
    doc.fontSize(10).fillColor(INK);
    for (const row of rows) if (row) writeText(doc, row, x, undefined, { width: column });
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
  doc.fontSize(10).fillColor(INK);
  const plan = `${PLANS[invoice.plan]?.name ?? invoice.plan} plan, ${invoice.cycle}, ${invoice.licenses} licenses`;
  const period =
    invoice.period_start && invoice.period_end ? `, ${day(invoice.period_start)} to ${day(invoice.period_end)}` : '';
  writeText(doc, `${plan}${period}`, MARGIN, y, { width });
  y = doc.y + 12;

  const taxLabel = invoice.tax_kind === 'standard' ? `VAT ${formatVatRate(invoice.tax_rate_basis_points)}%` : 'VAT';
  const row = (cells: string[], bold = false) => ({ cells, bold });
  y = drawFigureTable(doc, {
    left: MARGIN,
    right: MARGIN + width,
    y,
    least: [50, 75, 85],
    header: row(['Description', 'Qty', 'Unit price', 'Amount'], true),
    groups: [
      lines.map((line) =>
        row([line.description, String(line.quantity), money(line.unit_cents), money(line.amount_cents)]),
      ),
      [
        row(['Net', '', '', money(invoice.net_cents)]),
        row([taxLabel, '', '', money(invoice.vat_cents)]),
        row([isCredit ? 'Total credited' : 'Total', '', '', money(invoice.gross_cents)], true),
      ],
    ],
  });
  y += 10;
  writeText(doc.fontSize(9).fillColor(MUTED), invoice.tax_note, MARGIN, y, { width });
  if (invoice.reason) writeText(doc, `Reason: ${invoice.reason}`, MARGIN, undefined, { width });
  writeText(doc, `Amounts in ${invoice.currency}.`, MARGIN, undefined, { width });
  doc.end();
  return done;
}
