import { type CreditNoteBody, type InvoiceView, roundedShare } from '@sundial/core';
import { assertCan } from '../../platform/access.js';
import { type Actor, clockFormatOf } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, validationError } from '../../platform/errors.js';
import { billingMails } from './billing.mails.js';
import { presentInvoice } from './billing.presenter.js';
import { billingRepository as repo } from './billing.repository.js';
import { type BillingContext, m } from './billing.shared.js';
import { writeInvoicePdf } from './invoice.pdf.js';

/** Invoices and credit notes, their PDF, and the receipt mailed with it. */
export function createInvoices(ctx: BillingContext) {
  const { db, mailer, publicUrl, clock, gateway, invoiceView, issue, findOwnInvoice } = ctx;
  return {
    /** Invoices and credit notes, newest first. */
    async invoices(actor: Actor): Promise<{ items: InvoiceView[] }> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const rows = await repo.listInvoices(db, workspaceId);
      const ids = rows.map((row) => row.id);
      const [lines, credited] = await Promise.all([repo.linesOf(db, ids), repo.creditedOf(db, workspaceId, ids)]);
      return { items: rows.map((row) => presentInvoice(row, lines.get(row.id) ?? [], credited.get(row.id) ?? 0)) };
    },

    /** The invoice as an A4 PDF, and its file name. */
    async invoicePdf(actor: Actor, invoiceId: string): Promise<{ fileName: string; pdf: Buffer }> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const row = await findOwnInvoice(workspaceId, invoiceId);
      const lines = (await repo.linesOf(db, [row.id])).get(row.id) ?? [];
      const credited = row.credited_invoice_id
        ? await repo.findInvoice(db, workspaceId, row.credited_invoice_id)
        : undefined;
      return {
        fileName: `${row.number}.pdf`,
        pdf: await writeInvoicePdf(row, lines, credited?.number ?? null, clockFormatOf(actor.user)),
      };
    },

    /**
     * A credit note on a paid invoice for `amountCents` gross (all that is left when left out),
     * refunded through the gateway: never more than is left to credit (422), numbered in the same
     * series. A retry of the same credit refunds once (the gateway key names the invoice, what was
     * credited before and the amount).
     */
    async creditNote(actor: Actor, invoiceId: string, body: CreditNoteBody, now = clock()): Promise<InvoiceView> {
      assertCan(actor, 'billing:manage');
      const workspaceId = actor.membership.workspace.id;
      const invoice = await findOwnInvoice(workspaceId, invoiceId);
      if (invoice.kind === 'credit_note') throw new AppError('not_creditable', m.creditOfCredit, { status: 422 });
      if (invoice.status !== 'paid' || !invoice.charge_id)
        throw new AppError('not_creditable', m.notCreditable, { status: 409 });
      const creditedBefore = (await repo.creditedOf(db, workspaceId, [invoiceId])).get(invoiceId) ?? 0;
      const left = invoice.gross_cents - creditedBefore;
      if (left <= 0) throw new AppError('fully_credited', m.fullyCredited, { status: 409 });
      const amount = body.amountCents ?? left;
      if (amount > left) throw validationError({ amountCents: m.creditTooLarge(left) });
      const refund = await gateway.refund({
        chargeId: invoice.charge_id,
        amountCents: amount,
        idempotencyKey: `invoice:${invoiceId}:credit:${creditedBefore}:${amount}`,
        reason: body.reason,
      });
      const key = `refund:${refund.refundId}`;
      const creditId = await db.transaction().execute(async (tx) => {
        await repo.findInvoice(tx, workspaceId, invoiceId, { lock: true });
        const done = await repo.findInvoiceByKey(tx, workspaceId, key);
        if (done) return done.id;
        const vat = roundedShare(amount, invoice.tax_rate_basis_points, 10_000 + invoice.tax_rate_basis_points);
        const net = amount - vat;
        const id = await issue(tx, {
          workspaceId,
          kind: 'credit_note',
          creditedInvoiceId: invoiceId,
          terms: { plan: invoice.plan, cycle: invoice.cycle, licenses: invoice.licenses },
          period:
            invoice.period_start && invoice.period_end
              ? { start: invoice.period_start, end: invoice.period_end }
              : null,
          seller: invoice.seller,
          buyer: invoice.buyer,
          tax: {
            kind: invoice.tax_kind,
            ratePercentBasisPoints: invoice.tax_rate_basis_points,
            note: invoice.tax_note,
          },
          totals: { netCents: -net, vatCents: -vat, grossCents: -amount },
          lines: [
            {
              description: `Credit on invoice ${invoice.number}: ${body.reason}`,
              quantity: 1,
              unitCents: -net,
              amountCents: -net,
            },
          ],
          chargeId: refund.refundId,
          idempotencyKey: key,
          reason: body.reason,
          now,
        });
        await audit(tx, {
          action: 'invoice.credited',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: invoiceId,
          detail: { creditNoteId: id, grossCents: amount },
        });
        return id;
      });
      return invoiceView(db, workspaceId, await findOwnInvoice(workspaceId, creditId));
    },

    /** The receipt of a paid invoice (a renewal's or a checkout's), its PDF attached, to the owners and the invoice e-mail. */
    async sendReceipt(workspaceId: string, invoiceId: string, renewal = true): Promise<void> {
      const row = await repo.findInvoice(db, workspaceId, invoiceId);
      if (!row) return;
      const lines = (await repo.linesOf(db, [row.id])).get(row.id) ?? [];
      const { name, to } = await repo.mailTargets(db, workspaceId);
      if (to.length === 0) return;
      const mail = billingMails.receipt({
        workspace: name,
        renewal,
        number: row.number,
        grossCents: row.gross_cents,
        currency: row.currency,
        terms: { plan: row.plan, cycle: row.cycle, licenses: row.licenses },
        period: { start: row.period_start ?? '', end: row.period_end ?? '' },
        link: `${publicUrl}/homepage/invoice?invoice=${row.id}`,
      });
      await mailer.sendNow({
        to,
        ...mail,
        attachments: [
          {
            filename: `${row.number}.pdf`,
            contentType: 'application/pdf',
            content: await writeInvoicePdf(row, lines, null),
          },
        ],
      });
    },
  };
}
