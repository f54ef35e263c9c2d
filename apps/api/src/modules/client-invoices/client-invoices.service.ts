import {
  type ClientInvoiceListView,
  type ClientInvoicePreviewView,
  type ClientInvoiceSettingsBody,
  type ClientInvoiceSettingsView,
  type ClientInvoiceView,
  type CreateClientInvoiceBody,
  formatExchangeRate,
  formatInvoiceNumber,
  formatMoney,
  type ListClientInvoicesQuery,
  MAX_INVOICE_CENTS,
  clientInvoiceMessages as messages,
  NO_ROUNDING,
  type PreviewClientInvoiceBody,
  parseExchangeRate,
  type SendClientInvoiceBody,
  type UpdateClientInvoiceBody,
} from '@sundial/core';
import type { Db } from '../../db/connection.js';
import { assertCan, assertFeature } from '../../platform/access.js';
import { type Actor, clockFormatOf } from '../../platform/actor.js';
import { type AuditAction, audit } from '../../platform/audit.js';
import { AppError, type ConstraintTable, mapConstraints, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { FIXED_LINES_FROM, timeLines } from './client-invoices.lines.js';
import { writeClientInvoicePdf } from './client-invoices.pdf.js';
import { moneyOf, presentInvoice, presentLine, presentSettings, presentSummary } from './client-invoices.presenter.js';
import { type InvoiceRow, type LineRow, clientInvoicesRepository as repo } from './client-invoices.repository.js';

const CONSTRAINTS: ConstraintTable = {
  client_invoice_entries_pkey: { message: messages.alreadyInvoiced, code: 'entries_already_invoiced', status: 409 },
  client_invoices_number_key: {
    message: 'That invoice number exists already: set the next number in the invoice settings past it.',
    code: 'invoice_number_taken',
    status: 409,
  },
  client_invoices_workspace_id_client_id_fkey: { message: messages.clientNotFound, field: 'clientId', status: 422 },
};

const DEFAULT_SETTINGS = {
  number_pattern: '{YYYY}-{0000}',
  next_number: 1,
  address: '',
  payment_details: '',
  round_as_reports: true,
};

const conflict = (code: string, message: string) => new AppError(code, message, { status: 409 });

export interface ClientInvoicesDeps {
  db: Db;
  timeEntries: TimeEntriesService;
  mailer: Mailer;
  /** The workspace's logo (PNG or JPEG bytes) for the PDF, from the workspaces service. */
  logoOf: (workspaceId: string) => Promise<Buffer | null>;
  now?: () => Date;
}

/**
 * Client invoices (Pro's "invoicing", `invoices:manage`): a draft takes the client's unbilled
 * billable time of some days (linking each entry, which locks it), is edited, then issued: numbered
 * from the workspace's counter under its row lock and its entries marked invoiced, in one
 * transaction. Sent and paid follow; voiding keeps the number and frees the entries.
 */
export function createClientInvoicesService({
  db,
  timeEntries,
  mailer,
  logoOf,
  now = () => new Date(),
}: ClientInvoicesDeps) {
  const guard = (actor: Actor) => {
    assertCan(actor, 'invoices:manage');
    assertFeature(actor, 'invoicing');
    return {
      workspaceId: actor.membership.workspace.id,
      writer: { workspaceId: actor.membership.workspace.id, actorUserId: actor.userId },
    };
  };
  const today = () => now().toISOString().slice(0, 10);

  async function view(dbOrTx: Db, workspaceId: string, row: InvoiceRow): Promise<ClientInvoiceView> {
    const { time_zone } = await repo.context(dbOrTx, workspaceId);
    const [lines, entries] = await Promise.all([
      repo.lines(dbOrTx, workspaceId, row.id),
      repo.entries(dbOrTx, workspaceId, row.id, time_zone),
    ]);
    return presentInvoice(row, lines, entries);
  }

  async function found(tx: Db, workspaceId: string, id: string, lock = true): Promise<InvoiceRow> {
    const row = await repo.find(tx, workspaceId, id, { lock });
    if (!row) throw notFound('Invoice not found.');
    return row;
  }

  /**
   * The client and its unbilled entries in the range as lines (409 when all of it is on invoices, 422
   * when there is none), counted as the reports count them, in the workspace currency or converted
   * at the stated rate (422 when asked to convert into the workspace currency itself).
   */
  async function unbilled(tx: Db, workspaceId: string, body: PreviewClientInvoiceBody) {
    const client = await repo.client(tx, workspaceId, body.clientId);
    if (!client) throw validationError({ clientId: messages.clientNotFound });
    const context = await repo.context(tx, workspaceId);
    const conversion = body.conversion ?? null;
    if (conversion && conversion.currency === context.currency)
      throw validationError({ 'conversion.currency': messages.sameCurrency });
    const rateMicros = conversion ? parseExchangeRate(conversion.rate) : null;
    const candidates = await repo.candidates(tx, workspaceId, body.clientId, body.from, body.to);
    const free = candidates.filter((e) => e.invoice_id === null);
    if (free.length === 0) {
      if (candidates.length > 0) throw conflict('entries_already_invoiced', messages.allInvoiced);
      throw new AppError('no_unbilled_time', messages.noTime, { status: 422 });
    }
    const rounding = context.round_as_reports
      ? { mode: context.rounding_mode, minutes: context.rounding_minutes }
      : NO_ROUNDING;
    return {
      client,
      rateCurrency: context.currency,
      currency: conversion?.currency ?? context.currency,
      conversion: conversion && rateMicros !== null ? { ...conversion, rateMicros } : null,
      ...timeLines(free, { groupBy: body.groupBy, timeZone: context.time_zone, rounding, rateMicros }),
    };
  }

  /** Recomputes and stores the total after a change of lines, discount or taxes; refuses impossible money. */
  async function retotal(tx: Db, row: InvoiceRow): Promise<void> {
    const lines = await repo.lines(tx, row.workspace_id, row.id);
    const money = moneyOf(lines, row);
    if (row.discount?.kind === 'amount' && row.discount.cents > money.subtotalCents)
      throw validationError({ discount: messages.negativeTotal });
    if (money.totalCents > MAX_INVOICE_CENTS) throw validationError({ fixedLines: messages.amount });
    await repo.update(tx, row.workspace_id, row.id, { total_cents: money.totalCents });
  }

  async function transition(
    actor: Actor,
    id: string,
    action: AuditAction,
    change: (tx: Db, row: InvoiceRow, writer: { workspaceId: string; actorUserId: string }) => Promise<void>,
  ): Promise<ClientInvoiceView> {
    const { workspaceId, writer } = guard(actor);
    return db.transaction().execute(async (tx) => {
      const row = await found(tx, workspaceId, id);
      await mapConstraints(CONSTRAINTS, () => change(tx, row, writer));
      await audit(tx, { action, actorUserId: actor.userId, workspaceId, subjectId: id });
      return view(tx, workspaceId, await found(tx, workspaceId, id, false));
    });
  }

  /** The invoice as a PDF: an issued one with the seller's details as issued, a draft with today's settings. */
  async function pdfOf(actor: Actor, id: string) {
    const { workspaceId } = guard(actor);
    const row = await found(db, workspaceId, id, false);
    const invoice = await view(db, workspaceId, row);
    const current = row.status === 'draft' ? ((await repo.settings(db, workspaceId)) ?? DEFAULT_SETTINGS) : null;
    const pdf = await writeClientInvoicePdf(
      invoice,
      row.client_address,
      {
        name: actor.membership.workspace.name,
        logo: await logoOf(workspaceId),
        address: current ? current.address : row.seller_address,
        paymentDetails: current ? current.payment_details : row.payment_details,
      },
      clockFormatOf(actor.user),
    );
    const fileName = `invoice-${(row.number ?? 'draft').replace(/[^A-Za-z0-9._-]/g, '-')}.pdf`;
    return { pdf, fileName, row };
  }

  return {
    pdf: pdfOf,

    /**
     * E-mails the issued invoice as a PDF to the client's addresses (at once, over SMTP: files never
     * go through the outbox), then marks it sent. A refused delivery is a 502 and changes nothing.
     */
    async send(actor: Actor, id: string, body: SendClientInvoiceBody): Promise<ClientInvoiceView> {
      const { pdf, fileName, row } = await pdfOf(actor, id);
      if (row.status === 'draft' || row.status === 'void') throw conflict('invoice_not_issued', messages.cannotSend);
      const sender = actor.membership.workspace.name;
      const total = formatMoney(row.total_cents, row.currency);
      const lines = [
        body.message?.trim() || `Please find attached invoice ${row.number} from ${sender}.`,
        '',
        `Invoice: ${row.number}`,
        `Total: ${total}`,
        ...(row.due_on ? [`Due: ${row.due_on}`] : []),
      ];
      try {
        await mailer.sendNow({
          to: body.to,
          subject: `Invoice ${row.number} from ${sender}`,
          text: lines.join('\n'),
          attachments: [{ filename: fileName, contentType: 'application/pdf', content: pdf }],
        });
      } catch {
        throw new AppError('mail_failed', 'The e-mail could not be sent: nothing was marked. Try again later.', {
          status: 502,
        });
      }
      return transition(actor, id, 'client_invoice.sent', async (tx, locked) => {
        if (locked.status === 'issued')
          await repo.update(tx, locked.workspace_id, id, { status: 'sent', sent_at: now() });
      });
    },

    async settings(actor: Actor): Promise<ClientInvoiceSettingsView> {
      const { workspaceId } = guard(actor);
      return presentSettings((await repo.settings(db, workspaceId)) ?? DEFAULT_SETTINGS);
    },

    async updateSettings(actor: Actor, body: ClientInvoiceSettingsBody): Promise<ClientInvoiceSettingsView> {
      const { workspaceId } = guard(actor);
      return db.transaction().execute(async (tx) => {
        await repo.saveSettings(tx, workspaceId, {
          ...(body.numberPattern !== undefined ? { number_pattern: body.numberPattern } : {}),
          ...(body.nextNumber !== undefined ? { next_number: body.nextNumber } : {}),
          ...(body.address !== undefined ? { address: body.address } : {}),
          ...(body.paymentDetails !== undefined ? { payment_details: body.paymentDetails } : {}),
          ...(body.roundAsReports !== undefined ? { round_as_reports: body.roundAsReports } : {}),
        });
        await audit(tx, { action: 'client_invoice_settings.updated', actorUserId: actor.userId, workspaceId });
        return presentSettings((await repo.settings(tx, workspaceId)) ?? DEFAULT_SETTINGS);
      });
    },

    async list(actor: Actor, query: ListClientInvoicesQuery): Promise<ClientInvoiceListView> {
      const { workspaceId } = guard(actor);
      const [rows, totals] = await Promise.all([repo.list(db, workspaceId, query), repo.totals(db, workspaceId)]);
      return {
        items: rows.map(presentSummary),
        totals: totals.map((t) => ({
          status: t.status,
          currency: t.currency,
          count: t.count,
          totalCents: t.total_cents,
        })),
      };
    },

    async get(actor: Actor, id: string): Promise<ClientInvoiceView> {
      const { workspaceId } = guard(actor);
      return view(db, workspaceId, await found(db, workspaceId, id, false));
    },

    /** The lines an invoice of this client's unbilled time would have; nothing is written. */
    async preview(actor: Actor, body: PreviewClientInvoiceBody): Promise<ClientInvoicePreviewView> {
      const { workspaceId } = guard(actor);
      const { lines, invoiced, currency, rateCurrency, conversion } = await unbilled(db, workspaceId, body);
      return {
        currency,
        rateCurrency,
        conversion: conversion && {
          from: rateCurrency,
          currency: conversion.currency,
          rate: formatExchangeRate(conversion.rateMicros),
          on: conversion.on,
          source: conversion.source,
        },
        entryCount: invoiced.length,
        lines: lines.map(presentLine),
        money: moneyOf(lines, { discount: null, taxes: [] }),
      };
    },

    /** A draft from the client's unbilled time: its entries are linked (and locked) in the same transaction. */
    async create(actor: Actor, body: CreateClientInvoiceBody): Promise<ClientInvoiceView> {
      const { workspaceId } = guard(actor);
      return db.transaction().execute(async (tx) => {
        const { client, lines, invoiced, currency, rateCurrency, conversion } = await unbilled(tx, workspaceId, body);
        const id = newId();
        const total = moneyOf(lines, { discount: null, taxes: [] }).totalCents;
        if (total > MAX_INVOICE_CENTS) throw validationError({ to: messages.amount });
        await mapConstraints(CONSTRAINTS, async () => {
          await repo.insertInvoice(tx, {
            id,
            workspace_id: workspaceId,
            client_id: client.id,
            currency,
            rate_currency: rateCurrency,
            exchange_rate_micros: conversion?.rateMicros ?? null,
            exchange_rate_on: conversion?.on ?? null,
            exchange_rate_source: conversion?.source ?? null,
            period_from: body.from,
            period_to: body.to,
            group_by: body.groupBy,
            notes: body.notes ?? '',
            discount: JSON.stringify(null),
            taxes: JSON.stringify([]),
            total_cents: total,
            due_on: body.dueOn ?? null,
            client_name: client.name,
            client_address: client.address ?? '',
            created_by_user_id: actor.userId,
          });
          await repo.replaceLines(tx, workspaceId, id, lines);
          await repo.link(
            tx,
            invoiced.map((e) => ({ ...e, workspace_id: workspaceId, invoice_id: id })),
          );
        });
        await audit(tx, { action: 'client_invoice.created', actorUserId: actor.userId, workspaceId, subjectId: id });
        return view(tx, workspaceId, await found(tx, workspaceId, id, false));
      });
    },

    /** Changes a draft: its fixed-price lines, discount, taxes, notes, due day. */
    async update(actor: Actor, id: string, body: UpdateClientInvoiceBody): Promise<ClientInvoiceView> {
      return transition(actor, id, 'client_invoice.updated', async (tx, row) => {
        if (row.status !== 'draft') throw conflict('invoice_not_draft', messages.notDraft);
        if (body.fixedLines) {
          const fixed: LineRow[] = body.fixedLines.map((l, i) => ({
            position: FIXED_LINES_FROM + i,
            kind: 'fixed',
            description: l.description,
            seconds: null,
            rate_cents: null,
            amount_cents: l.amountCents,
          }));
          await repo.replaceLines(tx, row.workspace_id, id, fixed, 'fixed');
        }
        const changed = { ...row };
        if (body.discount !== undefined) changed.discount = body.discount;
        if (body.taxes !== undefined) changed.taxes = body.taxes;
        await repo.update(tx, row.workspace_id, id, {
          discount: JSON.stringify(changed.discount),
          taxes: JSON.stringify(changed.taxes),
          ...(body.notes !== undefined ? { notes: body.notes } : {}),
          ...(body.dueOn !== undefined ? { due_on: body.dueOn } : {}),
        });
        await retotal(tx, changed);
      });
    },

    /** Deletes a draft, freeing its entries. */
    async remove(actor: Actor, id: string): Promise<void> {
      const { workspaceId } = guard(actor);
      await db.transaction().execute(async (tx) => {
        const row = await found(tx, workspaceId, id);
        if (row.status !== 'draft') throw conflict('invoice_not_draft', messages.notDraft);
        await repo.unlink(tx, workspaceId, id);
        await repo.remove(tx, workspaceId, id);
        await audit(tx, { action: 'client_invoice.deleted', actorUserId: actor.userId, workspaceId, subjectId: id });
      });
    },

    /**
     * Issues a draft: the next number of the workspace's counter (its row locked until commit, so
     * concurrent issues get consecutive numbers and a rollback leaves no gap), the seller's and the
     * client's details as of now, and its entries marked invoiced, in one transaction.
     */
    async issue(actor: Actor, id: string): Promise<ClientInvoiceView> {
      return transition(actor, id, 'client_invoice.issued', async (tx, row, writer) => {
        if (row.status !== 'draft') throw conflict('invoice_not_draft', messages.notIssuable);
        // Entries first: the lock lets `invoiced_at` change only while the invoice is a draft.
        await timeEntries.markInvoiced(tx, writer, await repo.linkedEntryIds(tx, row.workspace_id, id), now());
        const day = today();
        const settings = await repo.takeNumber(tx, row.workspace_id);
        const client = await repo.client(tx, row.workspace_id, row.client_id);
        await repo.update(tx, row.workspace_id, id, {
          status: 'issued',
          number: formatInvoiceNumber(settings.number_pattern, settings.counter, day),
          issued_on: day,
          seller_address: settings.address,
          payment_details: settings.payment_details,
          ...(client ? { client_name: client.name, client_address: client.address ?? '' } : {}),
        });
      });
    },

    async markSent(actor: Actor, id: string): Promise<ClientInvoiceView> {
      return transition(actor, id, 'client_invoice.sent', async (tx, row) => {
        if (row.status !== 'issued' && row.status !== 'sent') throw conflict('invoice_not_issued', messages.cannotSend);
        await repo.update(tx, row.workspace_id, id, { status: 'sent', sent_at: row.sent_at ?? now() });
      });
    },

    async markPaid(actor: Actor, id: string, paidOn: string): Promise<ClientInvoiceView> {
      return transition(actor, id, 'client_invoice.paid', async (tx, row) => {
        if (row.status !== 'issued' && row.status !== 'sent') throw conflict('invoice_not_payable', messages.cannotPay);
        await repo.update(tx, row.workspace_id, id, { status: 'paid', paid_on: paidOn });
      });
    },

    /** Voids an issued or sent invoice: it keeps its number; its entries are free to invoice again. */
    async void(actor: Actor, id: string): Promise<ClientInvoiceView> {
      return transition(actor, id, 'client_invoice.voided', async (tx, row, writer) => {
        if (row.status !== 'issued' && row.status !== 'sent')
          throw conflict('invoice_not_voidable', messages.cannotVoid);
        const freed = await repo.unlink(tx, row.workspace_id, id);
        await timeEntries.markInvoiced(tx, writer, freed, null);
        await repo.update(tx, row.workspace_id, id, {
          status: 'void',
          voided_at: now(),
          voided_by_user_id: writer.actorUserId,
        });
      });
    },
  };
}

export type ClientInvoicesService = ReturnType<typeof createClientInvoicesService>;
