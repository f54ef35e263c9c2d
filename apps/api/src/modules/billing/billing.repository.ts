import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type {
  BillingDetailsTable,
  CardChangeStatus,
  CardChangesTable,
  CheckoutAttemptsTable,
  CheckoutStatus,
  InvoicesTable,
  SubscriptionsTable,
} from '../../db/tables/billing.js';

/** Billing details, subscriptions, checkout attempts, invoices and their numbers. Every query takes the workspace id. */

type Row<T> = Selectable<T>;
export type BillingDetailsRow = Row<BillingDetailsTable>;
export type SubscriptionRow = Row<SubscriptionsTable>;
export type CheckoutAttemptRow = Row<CheckoutAttemptsTable>;
export type CardChangeRow = Omit<Row<CardChangesTable>, 'created_at' | 'updated_at'>;
export type InvoiceRow = Row<InvoicesTable>;
export interface InvoiceLineRow {
  description: string;
  quantity: number;
  unit_cents: number;
  amount_cents: number;
}

const dayOf = (column: string) => sql<string | null>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

const SUBSCRIPTION_COLUMNS = [
  'workspace_id',
  'plan',
  'cycle',
  'licenses',
  'anchor_day',
  'status',
  'cancel_at_period_end',
  'scheduled_plan',
  'scheduled_cycle',
  'scheduled_licenses',
  'gateway_customer_id',
  'payment_method_id',
  'card_brand',
  'card_last4',
  'card_exp_month',
  'card_exp_year',
  'dunning_attempts',
  'next_retry_at',
  'renewal_error',
  'renewal_error_at',
  'created_at',
  'updated_at',
] as const;

const INVOICE_COLUMNS = [
  'id',
  'workspace_id',
  'number',
  'kind',
  'credited_invoice_id',
  'status',
  'issued_at',
  'plan',
  'cycle',
  'licenses',
  'currency',
  'seller',
  'buyer',
  'tax_kind',
  'tax_rate_basis_points',
  'tax_note',
  'charge_id',
  'idempotency_key',
  'reason',
  'created_at',
] as const;

function selectInvoices(db: Db, workspaceId: string) {
  return db
    .selectFrom('invoices')
    .select(INVOICE_COLUMNS)
    .select([
      dayOf('period_start').as('period_start'),
      dayOf('period_end').as('period_end'),
      sql<number>`net_cents::float8`.as('net_cents'),
      sql<number>`vat_cents::float8`.as('vat_cents'),
      sql<number>`gross_cents::float8`.as('gross_cents'),
    ])
    .where('workspace_id', '=', workspaceId);
}

export type NewInvoice = Omit<InvoiceRow, 'created_at' | 'seller' | 'buyer'> & { seller: string; buyer: string };

export const billingRepository = {
  async findDetails(db: Db, workspaceId: string): Promise<BillingDetailsRow | undefined> {
    return db.selectFrom('billing_details').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  },

  async upsertDetails(tx: Db, values: Omit<BillingDetailsRow, 'updated_at'>): Promise<void> {
    const { workspace_id: _, ...changes } = values;
    await tx
      .insertInto('billing_details')
      .values({ ...values, updated_at: new Date() })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ ...changes, updated_at: new Date() }))
      .execute();
  },

  async findSubscription(db: Db, workspaceId: string, options: { lock?: boolean } = {}) {
    let query = db
      .selectFrom('subscriptions')
      .select(SUBSCRIPTION_COLUMNS)
      .select([dayOf('period_start').as('period_start'), dayOf('period_end').as('period_end')])
      .where('workspace_id', '=', workspaceId);
    if (options.lock) query = query.forUpdate();
    return (await query.executeTakeFirst()) as SubscriptionRow | undefined;
  },

  /** Writes the subscription's columns given, creating the row (status none) when there is none. */
  async saveSubscription(
    tx: Db,
    workspaceId: string,
    values: Partial<Omit<SubscriptionRow, 'workspace_id' | 'created_at' | 'updated_at'>>,
  ): Promise<void> {
    const row = { ...values, updated_at: new Date() };
    await tx
      .insertInto('subscriptions')
      .values({
        plan: 'free',
        cycle: 'annual',
        licenses: 1,
        status: 'none',
        cancel_at_period_end: false,
        ...row,
        workspace_id: workspaceId,
      })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(row))
      .execute();
  },

  /** Sets the gateway customer unless one was set meanwhile; answers the one in force. */
  async claimCustomer(db: Db, workspaceId: string, customerId: string): Promise<string> {
    await billingRepository.saveSubscription(db, workspaceId, {});
    await db
      .updateTable('subscriptions')
      .set({ gateway_customer_id: customerId })
      .where('workspace_id', '=', workspaceId)
      .where('gateway_customer_id', 'is', null)
      .execute();
    const row = await db
      .selectFrom('subscriptions')
      .select('gateway_customer_id')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return row.gateway_customer_id ?? customerId;
  },

  /** Claims a checkout's key; undefined when the key is taken (read it with findAttemptByKey). */
  async insertAttempt(
    db: Db,
    values: Omit<CheckoutAttemptRow, 'created_at' | 'updated_at' | 'terms' | 'quote' | 'payment_method'> & {
      terms: string;
      quote: string;
    },
  ): Promise<string | undefined> {
    const inserted = await db
      .insertInto('checkout_attempts')
      .values({ ...values, updated_at: new Date() })
      .onConflict((oc) => oc.columns(['workspace_id', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  },

  async findAttemptByKey(db: Db, workspaceId: string, key: string): Promise<CheckoutAttemptRow | undefined> {
    return db
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst() as Promise<CheckoutAttemptRow | undefined>;
  },

  async findAttempt(
    db: Db,
    workspaceId: string,
    id: string,
    options: { lock?: boolean } = {},
  ): Promise<CheckoutAttemptRow | undefined> {
    let query = db
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id);
    if (options.lock) query = query.forUpdate();
    return query.executeTakeFirst() as Promise<CheckoutAttemptRow | undefined>;
  },

  /**
   * Claims the workspace's one open checkout (pending or at its second step; the database holds to
   * one, index `checkout_attempts_one_open`): first supersedes the open one left since before
   * `staleBefore` (its process died mid-charge, or its second step was never finished), then
   * inserts. Undefined when the key is taken or another checkout is open (read them with
   * findAttemptByKey and findOpenCheckout). Call it in a transaction.
   */
  async claimCheckout(
    tx: Db,
    values: Omit<CheckoutAttemptRow, 'created_at' | 'updated_at' | 'terms' | 'quote' | 'payment_method'> & {
      terms: string;
      quote: string;
    },
    staleBefore: { pending: Date; waiting: Date },
  ): Promise<string | undefined> {
    await tx
      .updateTable('checkout_attempts')
      .set({ status: 'superseded', updated_at: new Date() })
      .where('workspace_id', '=', values.workspace_id)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('created_at', '<', staleBefore.pending)]),
          eb.and([eb('status', '=', 'requires_action'), eb('created_at', '<', staleBefore.waiting)]),
        ]),
      )
      .where('idempotency_key', 'not like', 'renewal:%')
      .execute();
    const inserted = await tx
      .insertInto('checkout_attempts')
      .values({ ...values, updated_at: new Date() })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  },

  /** The workspace's open checkout (renewals are not checkouts), if any. */
  async findOpenCheckout(db: Db, workspaceId: string): Promise<CheckoutAttemptRow | undefined> {
    return db
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('status', 'in', ['pending', 'requires_action'])
      .where('idempotency_key', 'not like', 'renewal:%')
      .executeTakeFirst() as Promise<CheckoutAttemptRow | undefined>;
  },

  async deleteAttempt(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('checkout_attempts').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** The attempt that made a gateway charge, any workspace (for the gateway's events). */
  async findAttemptByCharge(db: Db, chargeId: string): Promise<{ id: string; workspace_id: string } | undefined> {
    return db
      .selectFrom('checkout_attempts')
      .select(['id', 'workspace_id'])
      .where('charge_id', '=', chargeId)
      .executeTakeFirst();
  },

  async updateAttempt(
    db: Db,
    workspaceId: string,
    id: string,
    values: {
      status?: CheckoutStatus;
      charge_id?: string | null;
      next_action_url?: string | null;
      decline_message?: string | null;
      invoice_id?: string | null;
      payment_method?: string | null;
    },
  ): Promise<void> {
    await db
      .updateTable('checkout_attempts')
      .set({ ...values, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  /**
   * The next number of a series, inside the issuing transaction: the counter row stays locked until
   * it commits (a concurrent issuer waits), and a rollback gives the number back, so numbers have no gaps.
   */
  async nextInvoiceNumber(tx: Db, series: string): Promise<number> {
    const row = await tx
      .insertInto('invoice_counters')
      .values({ series, last_number: 1 })
      .onConflict((oc) => oc.column('series').doUpdateSet({ last_number: sql`invoice_counters.last_number + 1` }))
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return row.last_number;
  },

  async insertInvoice(tx: Db, invoice: NewInvoice, lines: InvoiceLineRow[]): Promise<void> {
    await tx.insertInto('invoices').values(invoice).execute();
    if (lines.length > 0)
      await tx
        .insertInto('invoice_lines')
        .values(lines.map((line, position) => ({ ...line, invoice_id: invoice.id, position })))
        .execute();
  },

  async findInvoice(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}) {
    let query = selectInvoices(db, workspaceId).where('id', '=', id);
    if (options.lock) query = query.forUpdate();
    return (await query.executeTakeFirst()) as InvoiceRow | undefined;
  },

  async findInvoiceByKey(db: Db, workspaceId: string, key: string) {
    return (await selectInvoices(db, workspaceId).where('idempotency_key', '=', key).executeTakeFirst()) as
      | InvoiceRow
      | undefined;
  },

  /** Invoices and credit notes, newest first. */
  async listInvoices(db: Db, workspaceId: string): Promise<InvoiceRow[]> {
    return (await selectInvoices(db, workspaceId)
      .orderBy('issued_at', 'desc')
      .orderBy('number', 'desc')
      .execute()) as InvoiceRow[];
  },

  async linesOf(db: Db, invoiceIds: string[]): Promise<Map<string, InvoiceLineRow[]>> {
    const byInvoice = new Map<string, InvoiceLineRow[]>();
    if (invoiceIds.length === 0) return byInvoice;
    const rows = await db
      .selectFrom('invoice_lines')
      .select(['invoice_id', 'description', 'quantity'])
      .select([sql<number>`unit_cents::float8`.as('unit_cents'), sql<number>`amount_cents::float8`.as('amount_cents')])
      .where('invoice_id', 'in', invoiceIds)
      .orderBy('invoice_id')
      .orderBy('position')
      .execute();
    for (const { invoice_id, ...line } of rows) byInvoice.set(invoice_id, [...(byInvoice.get(invoice_id) ?? []), line]);
    return byInvoice;
  },

  /** Gross cents credited so far on each invoice (a positive figure). */
  async creditedOf(db: Db, workspaceId: string, invoiceIds: string[]): Promise<Map<string, number>> {
    const credited = new Map<string, number>();
    if (invoiceIds.length === 0) return credited;
    const rows = await db
      .selectFrom('invoices')
      .select(['credited_invoice_id', sql<number>`(-sum(gross_cents))::float8`.as('credited')])
      .where('workspace_id', '=', workspaceId)
      .where('credited_invoice_id', 'in', invoiceIds)
      .groupBy('credited_invoice_id')
      .execute();
    for (const row of rows) if (row.credited_invoice_id) credited.set(row.credited_invoice_id, Number(row.credited));
    return credited;
  },

  /**
   * Workspaces whose renewal is due at `now`: an active subscription whose period has ended, or a
   * past-due one whose next retry is due (or not yet planned: its first failure was not recorded).
   */
  async dueRenewals(db: Db, now: Date, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('subscriptions')
      .select('workspace_id')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', '=', 'active'),
            eb('period_end', '<=', sql<string>`${now.toISOString().slice(0, 10)}::date`),
          ]),
          eb.and([
            eb('status', '=', 'past_due'),
            eb.or([eb('next_retry_at', 'is', null), eb('next_retry_at', '<=', now)]),
          ]),
        ]),
      )
      .orderBy('workspace_id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.workspace_id);
  },

  /** Trial workspaces (plan free, no paid subscription) whose trial ends after `from` and by `to`. */
  async trialsEnding(db: Db, from: Date, to: Date, limit: number) {
    return db
      .selectFrom('workspaces as w')
      .select(['w.id', 'w.name', 'w.trial_ends_at'])
      .where('w.plan', '=', 'free')
      .where('w.trial_ends_at', '>', from)
      .where('w.trial_ends_at', '<=', to)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('subscriptions as s')
              .select('s.workspace_id')
              .whereRef('s.workspace_id', '=', 'w.id')
              .where('s.status', 'in', ['active', 'past_due']),
          ),
        ),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('billing_mails as b')
              .select('b.workspace_id')
              .whereRef('b.workspace_id', '=', 'w.id')
              .where('b.key', '=', 'trial-ending'),
          ),
        ),
      )
      .orderBy('w.id')
      .limit(limit)
      .execute();
  },

  /** Claims a billing e-mail's key; false when it was sent already. */
  async claimMail(tx: Db, workspaceId: string, key: string): Promise<boolean> {
    const row = await tx
      .insertInto('billing_mails')
      .values({ workspace_id: workspaceId, key })
      .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    return !!row;
  },

  /** The workspace's name and where its billing e-mails go: its owners and the invoice e-mail, each once. */
  async mailTargets(db: Db, workspaceId: string): Promise<{ name: string; to: string[] }> {
    const workspace = await db
      .selectFrom('workspaces')
      .select('name')
      .where('id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    const owners = await db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('u.email')
      .where('m.workspace_id', '=', workspaceId)
      .where('m.role', '=', 'owner')
      .where('m.status', '!=', 'removed')
      .orderBy('u.email')
      .execute();
    const details = await db
      .selectFrom('billing_details')
      .select('invoice_email')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    const to = new Set(owners.map((o) => o.email.toLowerCase()));
    if (details?.invoice_email) to.add(details.invoice_email.toLowerCase());
    return { name: workspace.name, to: [...to] };
  },

  /** Claims a card change for (workspace, token); undefined when it exists (read it with findCardChange). */
  async insertCardChange(
    db: Db,
    values: { id: string; workspace_id: string; user_id: string; token: string },
  ): Promise<string | undefined> {
    const inserted = await db
      .insertInto('card_changes')
      .values({ ...values, status: 'pending', updated_at: new Date() })
      .onConflict((oc) => oc.constraint('card_changes_token').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted?.id;
  },

  async findCardChange(
    db: Db,
    workspaceId: string,
    by: { id: string } | { token: string },
    options: { lock?: boolean } = {},
  ) {
    let query = db
      .selectFrom('card_changes')
      .select([
        'id',
        'workspace_id',
        'user_id',
        'token',
        'status',
        'payment_method',
        'authorisation_id',
        'next_action_url',
        'decline_message',
        'renewal',
      ])
      .where('workspace_id', '=', workspaceId);
    query = 'id' in by ? query.where('id', '=', by.id) : query.where('token', '=', by.token);
    if (options.lock) query = query.forUpdate();
    return (await query.executeTakeFirst()) as CardChangeRow | undefined;
  },

  async updateCardChange(
    db: Db,
    workspaceId: string,
    id: string,
    values: {
      status?: CardChangeStatus;
      payment_method?: string;
      authorisation_id?: string | null;
      next_action_url?: string | null;
      decline_message?: string | null;
      renewal?: string | null;
    },
  ): Promise<void> {
    await db
      .updateTable('card_changes')
      .set({ ...values, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async deleteCardChange(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('card_changes').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Records the renewals job's last error for the workspace, or clears it (null). */
  async recordRenewalError(db: Db, workspaceId: string, message: string | null, now: Date): Promise<void> {
    let query = db
      .updateTable('subscriptions')
      .set({ renewal_error: message?.slice(0, 1000) ?? null, renewal_error_at: message ? now : null })
      .where('workspace_id', '=', workspaceId);
    if (message === null) query = query.where('renewal_error', 'is not', null);
    await query.execute();
  },

  /** Records a failed retry, only if no other run recorded it first; false when one did. */
  async recordRetry(
    tx: Db,
    workspaceId: string,
    values: { from: number; to: number; nextRetryAt: Date | null },
  ): Promise<boolean> {
    const result = await tx
      .updateTable('subscriptions')
      .set({ dunning_attempts: values.to, next_retry_at: values.nextRetryAt, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'past_due')
      .where('dunning_attempts', '=', values.from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },
};
