import type { ClientInvoiceStatus, InvoiceDiscount, InvoiceTax, RoundingMinutes, RoundingMode } from '@sundial/core';
import { type Insertable, sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type {
  ClientInvoiceEntriesTable,
  ClientInvoiceLinesTable,
  ClientInvoicesTable,
} from '../../db/tables/client-invoices.js';

/** Client invoices, their lines, their entries' links and the workspace's invoice settings. Every query takes the workspace id. */

const day = (column: string) => sql<string | null>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

export interface InvoiceRow {
  id: string;
  workspace_id: string;
  client_id: string;
  status: ClientInvoiceStatus;
  number: string | null;
  currency: string;
  period_from: string;
  period_to: string;
  group_by: ClientInvoicesTable['group_by'];
  notes: string;
  discount: InvoiceDiscount | null;
  taxes: InvoiceTax[];
  total_cents: number;
  due_on: string | null;
  issued_on: string | null;
  sent_at: Date | null;
  paid_on: string | null;
  client_name: string;
  client_address: string;
  seller_address: string;
  payment_details: string;
  rate_currency: string;
  exchange_rate_micros: number | null;
  exchange_rate_on: string | null;
  exchange_rate_source: string | null;
  voided_at: Date | null;
  voided_by: string | null;
  created_at: Date;
}

export type LineRow = Omit<ClientInvoiceLinesTable, 'workspace_id' | 'invoice_id'>;

/** A billable, finished entry of the client's projects, with what the invoice prints of it. */
export interface CandidateEntry {
  id: string;
  user_id: string;
  user_name: string;
  project_id: string | null;
  project_name: string | null;
  task_id: string | null;
  task_name: string | null;
  note: string;
  start_at: Date;
  end_at: Date;
  /** Its breaks (start and end instants; a finished entry's breaks are closed). */
  breaks: [string, string | null][];
  rate_cents: number | null;
  /** The invoice it is on already (then it is not unbilled). */
  invoice_id: string | null;
}

export interface InvoiceFilter {
  status?: ClientInvoiceStatus;
  clientId?: string;
  entryId?: string;
}

/** How the workspace reports: its report zone and rounding, its rate currency, and whether invoices round. */
export interface InvoiceContext {
  time_zone: string;
  rounding_mode: RoundingMode;
  rounding_minutes: RoundingMinutes;
  currency: string;
  round_as_reports: boolean;
}

function selectInvoices(db: Db, workspaceId: string) {
  return db
    .selectFrom('client_invoices as i')
    .leftJoin('users as voider', 'voider.id', 'i.voided_by_user_id')
    .where('i.workspace_id', '=', workspaceId)
    .select([
      'i.id',
      'i.workspace_id',
      'i.client_id',
      'i.status',
      'i.number',
      'i.currency',
      day('i.period_from').as('period_from'),
      day('i.period_to').as('period_to'),
      'i.group_by',
      'i.notes',
      'i.discount',
      'i.taxes',
      'i.total_cents',
      day('i.due_on').as('due_on'),
      day('i.issued_on').as('issued_on'),
      'i.sent_at',
      day('i.paid_on').as('paid_on'),
      'i.client_name',
      'i.client_address',
      'i.seller_address',
      'i.payment_details',
      sql<string>`coalesce(i.rate_currency, i.currency)`.as('rate_currency'),
      sql<number | null>`i.exchange_rate_micros::float8`.as('exchange_rate_micros'),
      day('i.exchange_rate_on').as('exchange_rate_on'),
      'i.exchange_rate_source',
      'i.voided_at',
      'voider.name as voided_by',
      'i.created_at',
    ]);
}

export const clientInvoicesRepository = {
  async settings(db: Db, workspaceId: string) {
    return db
      .selectFrom('client_invoice_settings')
      .select(['number_pattern', 'next_number', 'address', 'payment_details', 'round_as_reports'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
  },

  /** The workspace's report zone and rounding (time settings), rate currency and invoice rounding choice. */
  async context(db: Db, workspaceId: string): Promise<InvoiceContext> {
    const row = await db
      .selectFrom('workspaces as w')
      .leftJoin('time_settings as t', 't.workspace_id', 'w.id')
      .leftJoin('rate_settings as r', 'r.workspace_id', 'w.id')
      .leftJoin('client_invoice_settings as s', 's.workspace_id', 'w.id')
      .select([
        sql<string>`coalesce(t.report_time_zone, 'UTC')`.as('time_zone'),
        sql<RoundingMode>`coalesce(t.rounding_mode, 'none')`.as('rounding_mode'),
        sql<RoundingMinutes>`coalesce(t.rounding_minutes, 1)`.as('rounding_minutes'),
        sql<string>`coalesce(r.currency, 'USD')`.as('currency'),
        sql<boolean>`coalesce(s.round_as_reports, true)`.as('round_as_reports'),
      ])
      .where('w.id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return row;
  },

  async saveSettings(
    tx: Db,
    workspaceId: string,
    values: Partial<{
      number_pattern: string;
      next_number: number;
      address: string;
      payment_details: string;
      round_as_reports: boolean;
    }>,
  ): Promise<void> {
    await tx
      .insertInto('client_invoice_settings')
      .values({ workspace_id: workspaceId, ...values })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ ...values, updated_at: new Date() }))
      .execute();
  },

  /**
   * Takes the next number of the workspace's counter inside the issuing transaction: the settings
   * row stays locked until commit (a concurrent issuer waits), and a rollback gives the number back,
   * so numbers have no gaps.
   */
  async takeNumber(tx: Db, workspaceId: string) {
    return tx
      .insertInto('client_invoice_settings')
      .values({ workspace_id: workspaceId, next_number: 2 })
      .onConflict((oc) =>
        oc.column('workspace_id').doUpdateSet({ next_number: sql`client_invoice_settings.next_number + 1` }),
      )
      .returning(['number_pattern', sql<number>`next_number - 1`.as('counter'), 'address', 'payment_details'])
      .executeTakeFirstOrThrow();
  },

  async client(db: Db, workspaceId: string, clientId: string) {
    return (
      db
        .selectFrom('clients as c')
        .leftJoin('rate_settings as r', 'r.workspace_id', 'c.workspace_id')
        // The client's preferred currency is a hint for converting, never the invoice's own (decision 0019).
        .select(['c.id', 'c.name', 'c.address', sql<string>`coalesce(c.currency, r.currency, 'USD')`.as('currency')])
        .where('c.workspace_id', '=', workspaceId)
        .where('c.id', '=', clientId)
        .executeTakeFirst()
    );
  },

  /**
   * The client's billable finished entries starting on the days from..to (in the workspace's report
   * zone) that were not marked invoiced by hand, in time order; `invoice_id` says which are on an
   * invoice already.
   */
  async candidates(db: Db, workspaceId: string, clientId: string, from: string, to: string): Promise<CandidateEntry[]> {
    const zone = sql`coalesce((select s.report_time_zone from time_settings s where s.workspace_id = ${workspaceId}), 'UTC')`;
    const rows = await db
      .selectFrom('time_entries as e')
      .innerJoin('projects as p', (j) =>
        j.onRef('p.workspace_id', '=', 'e.workspace_id').onRef('p.id', '=', 'e.project_id'),
      )
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .leftJoin('tasks as t', (j) => j.onRef('t.workspace_id', '=', 'e.workspace_id').onRef('t.id', '=', 'e.task_id'))
      .leftJoin('client_invoice_entries as l', 'l.entry_id', 'e.id')
      .select([
        'e.id',
        'e.user_id',
        'u.name as user_name',
        'e.project_id',
        'p.name as project_name',
        'e.task_id',
        't.name as task_name',
        'e.note',
        'e.start_at',
        sql<Date>`e.end_at`.as('end_at'),
        sql<[string, string | null][]>`(select coalesce(json_agg(json_build_array(b.start_at, b.end_at)), '[]'::json)
          from time_entry_breaks b where b.workspace_id = e.workspace_id and b.entry_id = e.id)`.as('breaks'),
        'e.billable_rate_cents as rate_cents',
        'l.invoice_id',
      ])
      .where('e.workspace_id', '=', workspaceId)
      .where('p.client_id', '=', clientId)
      .where('e.billable', '=', true)
      .where('e.end_at', 'is not', null)
      .where('e.invoiced_at', 'is', null)
      .where(sql<boolean>`e.start_at >= (${from}::date)::timestamp at time zone ${zone}`)
      .where(sql<boolean>`e.start_at < ((${to}::date + 1)::timestamp at time zone ${zone})`)
      .orderBy('e.start_at')
      .orderBy('e.id')
      .execute();
    return rows as CandidateEntry[];
  },

  async insertInvoice(tx: Db, invoice: Insertable<ClientInvoicesTable>): Promise<void> {
    await tx.insertInto('client_invoices').values(invoice).execute();
  },

  async replaceLines(tx: Db, workspaceId: string, invoiceId: string, lines: LineRow[], kind?: 'fixed'): Promise<void> {
    let del = tx
      .deleteFrom('client_invoice_lines')
      .where('workspace_id', '=', workspaceId)
      .where('invoice_id', '=', invoiceId);
    if (kind) del = del.where('kind', '=', kind);
    await del.execute();
    if (lines.length > 0)
      await tx
        .insertInto('client_invoice_lines')
        .values(lines.map((line) => ({ ...line, workspace_id: workspaceId, invoice_id: invoiceId })))
        .execute();
  },

  /** Links the entries to the invoice; an entry on another invoice is a unique violation (client_invoice_entries_pkey). */
  async link(tx: Db, rows: Insertable<ClientInvoiceEntriesTable>[]): Promise<void> {
    if (rows.length > 0) await tx.insertInto('client_invoice_entries').values(rows).execute();
  },

  /** Frees the invoice's entries; returns their ids. */
  async unlink(tx: Db, workspaceId: string, invoiceId: string): Promise<string[]> {
    const rows = await tx
      .deleteFrom('client_invoice_entries')
      .where('workspace_id', '=', workspaceId)
      .where('invoice_id', '=', invoiceId)
      .returning('entry_id')
      .execute();
    return rows.map((r) => r.entry_id);
  },

  async linkedEntryIds(db: Db, workspaceId: string, invoiceId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('client_invoice_entries')
      .select('entry_id')
      .where('workspace_id', '=', workspaceId)
      .where('invoice_id', '=', invoiceId)
      .execute();
    return rows.map((r) => r.entry_id);
  },

  async find(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}) {
    let query = selectInvoices(db, workspaceId).where('i.id', '=', id);
    if (options.lock) query = query.forUpdate('i');
    return (await query.executeTakeFirst()) as InvoiceRow | undefined;
  },

  async list(db: Db, workspaceId: string, filter: InvoiceFilter): Promise<InvoiceRow[]> {
    let query = selectInvoices(db, workspaceId).orderBy('i.created_at', 'desc').orderBy('i.id', 'desc');
    if (filter.status) query = query.where('i.status', '=', filter.status);
    if (filter.clientId) query = query.where('i.client_id', '=', filter.clientId);
    if (filter.entryId) {
      const entryId = filter.entryId;
      query = query.where('i.id', 'in', (q) =>
        q.selectFrom('client_invoice_entries').select('invoice_id').where('entry_id', '=', entryId),
      );
    }
    return (await query.execute()) as InvoiceRow[];
  },

  async totals(db: Db, workspaceId: string) {
    return db
      .selectFrom('client_invoices')
      .select([
        'status',
        'currency',
        sql<number>`count(*)::int`.as('count'),
        sql<number>`coalesce(sum(total_cents), 0)::int`.as('total_cents'),
      ])
      .where('workspace_id', '=', workspaceId)
      .groupBy(['status', 'currency'])
      .orderBy('status')
      .orderBy('currency')
      .execute();
  },

  async lines(db: Db, workspaceId: string, invoiceId: string): Promise<LineRow[]> {
    return db
      .selectFrom('client_invoice_lines')
      .select(['position', 'kind', 'description', 'seconds', 'rate_cents', 'amount_cents'])
      .where('workspace_id', '=', workspaceId)
      .where('invoice_id', '=', invoiceId)
      .orderBy('position')
      .execute();
  },

  /** The invoice's entries as invoiced, in time order. */
  async entries(db: Db, workspaceId: string, invoiceId: string, timeZone: string) {
    return db
      .selectFrom('client_invoice_entries as l')
      .innerJoin('time_entries as e', 'e.id', 'l.entry_id')
      .innerJoin('users as u', 'u.id', 'e.user_id')
      .leftJoin('projects as p', 'p.id', 'e.project_id')
      .leftJoin('tasks as t', 't.id', 'e.task_id')
      .select([
        'e.id',
        'u.name as user_name',
        'e.start_at',
        sql<string>`to_char(e.start_at at time zone ${timeZone}, 'YYYY-MM-DD')`.as('day'),
        'l.seconds',
        'l.rate_cents',
        'l.amount_cents',
        'e.note',
        'p.name as project_name',
        't.name as task_name',
      ])
      .where('l.workspace_id', '=', workspaceId)
      .where('l.invoice_id', '=', invoiceId)
      .orderBy('e.start_at')
      .orderBy('e.id')
      .execute();
  },

  async update(
    tx: Db,
    workspaceId: string,
    id: string,
    values: Partial<Omit<Insertable<ClientInvoicesTable>, 'id' | 'workspace_id'>>,
  ): Promise<void> {
    await tx
      .updateTable('client_invoices')
      .set({ ...values, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async remove(tx: Db, workspaceId: string, id: string): Promise<void> {
    await tx.deleteFrom('client_invoices').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },
};
