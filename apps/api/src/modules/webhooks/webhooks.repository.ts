import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { WebhookDeliveryAttemptsTable } from '../../db/tables/webhooks.js';

export interface WebhookRow {
  id: string;
  workspace_id: string;
  created_by: string | null;
  creator_name: string | null;
  creator_email: string | null;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  validated_at: Date | null;
  validation_error: string | null;
  secret_sealed: string;
  failing_since: Date | null;
  created_at: Date;
}

/** A webhook that receives a fan-out, with whether its creator still administers the workspace. */
export interface FanOutTarget {
  id: string;
  events: string[];
  created_at: Date;
  created_by: string | null;
  creator_administers: boolean;
}

/** An audit record to fan out, with who did it. */
export interface EventRecord {
  id: string;
  action: string;
  seq: string;
  actor_user_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  subject_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

/** A delivery as a batch sends it. */
export interface DueDelivery {
  id: string;
  event_id: string;
  event_type: string;
  payload: string;
  /** Attempts made before this one. */
  attempts: number;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  state: 'queued' | 'succeeded' | 'failed';
  created_at: Date;
}

/** An attempt as the deliveries list reads it: its table's row without the ids it is found by. */
export type AttemptRow = Omit<Selectable<WebhookDeliveryAttemptsTable>, 'id' | 'workspace_id'>;

const webhookColumns = [
  'w.id',
  'w.workspace_id',
  'w.created_by',
  'u.name as creator_name',
  'u.email as creator_email',
  'w.url',
  'w.description',
  'w.events',
  'w.enabled',
  'w.disabled_reason',
  'w.validated_at',
  'w.validation_error',
  'w.secret_sealed',
  'w.failing_since',
  'w.created_at',
] as const;

const selectWebhooks = (db: Db) =>
  db.selectFrom('webhooks as w').leftJoin('users as u', 'u.id', 'w.created_by').select(webhookColumns);

/** SQL of webhooks, their fan-out cursors, deliveries and attempts; every query takes the workspace. */
export const webhooksRepository = {
  list(db: Db, workspaceId: string): Promise<WebhookRow[]> {
    return selectWebhooks(db)
      .where('w.workspace_id', '=', workspaceId)
      .orderBy('w.created_at')
      .orderBy('w.id')
      .execute();
  },

  find(db: Db, workspaceId: string, id: string): Promise<WebhookRow | undefined> {
    return selectWebhooks(db).where('w.workspace_id', '=', workspaceId).where('w.id', '=', id).executeTakeFirst();
  },

  /** The row, locked until the transaction ends (a change and a fan-out do not cross). */
  async lock(db: Db, workspaceId: string, id: string): Promise<boolean> {
    const row = await db
      .selectFrom('webhooks')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return row !== undefined;
  },

  async insert(
    db: Db,
    row: {
      id: string;
      workspaceId: string;
      createdBy: string;
      url: string;
      description: string;
      events: string[];
      secretSealed: string;
      validatedAt: Date | null;
      validationError: string | null;
    },
  ): Promise<void> {
    // created_at is the database's clock, as the audit records it is compared with.
    await db
      .insertInto('webhooks')
      .values({
        id: row.id,
        workspace_id: row.workspaceId,
        created_by: row.createdBy,
        url: row.url,
        description: row.description,
        events: JSON.stringify(row.events),
        secret_sealed: row.secretSealed,
        validated_at: row.validatedAt,
        validation_error: row.validationError,
      })
      .execute();
  },

  async update(
    db: Db,
    workspaceId: string,
    id: string,
    set: Partial<{
      createdBy: string;
      url: string;
      description: string;
      events: string[];
      enabled: boolean;
      disabledReason: string | null;
      validatedAt: Date | null;
      validationError: string | null;
      secretSealed: string;
      failingSince: Date | null;
    }>,
    now: Date,
  ): Promise<void> {
    await db
      .updateTable('webhooks')
      .set({
        ...(set.createdBy !== undefined ? { created_by: set.createdBy } : {}),
        ...(set.url !== undefined ? { url: set.url } : {}),
        ...(set.description !== undefined ? { description: set.description } : {}),
        ...(set.events !== undefined ? { events: JSON.stringify(set.events) } : {}),
        ...(set.enabled !== undefined ? { enabled: set.enabled } : {}),
        ...(set.disabledReason !== undefined ? { disabled_reason: set.disabledReason } : {}),
        ...(set.validatedAt !== undefined ? { validated_at: set.validatedAt } : {}),
        ...(set.validationError !== undefined ? { validation_error: set.validationError } : {}),
        ...(set.secretSealed !== undefined ? { secret_sealed: set.secretSealed } : {}),
        ...(set.failingSince !== undefined ? { failing_since: set.failingSince } : {}),
        updated_at: now,
      })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async remove(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('webhooks').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Workspaces with a webhook switched on (validated or not). */
  async workspacesWithWebhooks(db: Db): Promise<string[]> {
    const rows = await db
      .selectFrom('webhooks')
      .select('workspace_id')
      .distinct()
      .where('enabled', '=', true)
      .execute();
    return rows.map((row) => row.workspace_id);
  },

  /** One fan-out of a workspace at a time, until the transaction ends. */
  async lockFanOut(tx: Db, workspaceId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks-fan-out:${workspaceId}`}, 0))`.execute(tx);
  },

  /**
   * Starts the workspace's cursor at its newest sealed audit record when it has none: a first
   * webhook receives what happens from then on, not the workspace's history.
   */
  async startCursor(db: Db, workspaceId: string): Promise<void> {
    await sql`
      insert into webhook_cursors (workspace_id, seq)
      select ${workspaceId}::uuid, coalesce(max(seq), 0) from audit_log where workspace_id = ${workspaceId}::uuid
      on conflict (workspace_id) do nothing
    `.execute(db);
  },

  async cursor(db: Db, workspaceId: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('webhook_cursors')
      .select(sql<string>`seq::text`.as('seq'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row && Number(row.seq);
  },

  async moveCursor(db: Db, workspaceId: string, seq: number): Promise<void> {
    await db.updateTable('webhook_cursors').set({ seq }).where('workspace_id', '=', workspaceId).execute();
  },

  /** The workspace's validated, switched-on webhooks, and whether each one's creator is an active owner or admin. */
  fanOutTargets(db: Db, workspaceId: string): Promise<FanOutTarget[]> {
    return db
      .selectFrom('webhooks as w')
      .leftJoin('memberships as m', (join) =>
        join.onRef('m.workspace_id', '=', 'w.workspace_id').onRef('m.user_id', '=', 'w.created_by'),
      )
      .select([
        'w.id',
        'w.events',
        'w.created_at',
        'w.created_by',
        sql<boolean>`coalesce(m.status = 'active' and m.role in ('owner', 'admin'), false)`.as('creator_administers'),
      ])
      .where('w.workspace_id', '=', workspaceId)
      .where('w.enabled', '=', true)
      .where('w.validated_at', 'is not', null)
      .execute();
  },

  /** Sealed audit records after `afterSeq`, in chain order, with who did each. */
  eventsAfter(db: Db, workspaceId: string, afterSeq: number, limit: number): Promise<EventRecord[]> {
    return db
      .selectFrom('audit_log as a')
      .leftJoin('users as u', 'u.id', 'a.actor_user_id')
      .select([
        'a.id',
        'a.action',
        sql<string>`a.seq::text`.as('seq'),
        'a.actor_user_id',
        'u.name as actor_name',
        'u.email as actor_email',
        'a.subject_id',
        'a.detail',
        'a.created_at',
      ])
      .where('a.workspace_id', '=', workspaceId)
      .where('a.seq', '>', String(afterSeq))
      .orderBy('a.seq')
      .limit(limit)
      .execute();
  },

  async insertDeliveries(
    db: Db,
    rows: readonly {
      id: string;
      workspaceId: string;
      webhookId: string;
      eventId: string;
      eventType: string;
      payload: string;
      now: Date;
    }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('webhook_deliveries')
      .values(
        rows.map((row) => ({
          id: row.id,
          workspace_id: row.workspaceId,
          webhook_id: row.webhookId,
          event_id: row.eventId,
          event_type: row.eventType,
          payload: row.payload,
          created_at: row.now,
          next_attempt_at: row.now,
          finished_at: null,
        })),
      )
      .execute();
  },

  findDelivery(db: Db, workspaceId: string, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
    return db
      .selectFrom('webhook_deliveries')
      .select(['id', 'webhook_id', 'event_id', 'event_type', 'payload', 'state', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** A page of the webhook's deliveries, newest first (ids are time-ordered). */
  deliveries(db: Db, workspaceId: string, webhookId: string, page: { limit: number; before?: string }) {
    return db
      .selectFrom('webhook_deliveries')
      .select(['id', 'webhook_id', 'event_id', 'event_type', 'payload', 'state', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .where('webhook_id', '=', webhookId)
      .$if(page.before !== undefined, (q) => q.where('id', '<', page.before ?? ''))
      .orderBy('id', 'desc')
      .limit(page.limit)
      .execute() as Promise<DeliveryRow[]>;
  },

  attemptsOf(db: Db, workspaceId: string, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('webhook_delivery_attempts')
      .select(['delivery_id', 'attempt', 'ok', 'status_code', 'duration_ms', 'response_body', 'error', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('delivery_id')
      .orderBy('attempt')
      .execute();
  },

  /** The webhook's URL, secret and state for a batch of its deliveries, with its creator's address. */
  drainTarget(db: Db, workspaceId: string, webhookId: string) {
    return db
      .selectFrom('webhooks as w')
      .innerJoin('workspaces as ws', 'ws.id', 'w.workspace_id')
      .leftJoin('users as u', 'u.id', 'w.created_by')
      .select([
        'ws.name as workspace_name',
        'w.id',
        'w.url',
        'w.secret_sealed',
        'w.enabled',
        'w.validated_at',
        'w.failing_since',
        'u.email as creator_email',
      ])
      .where('w.workspace_id', '=', workspaceId)
      .where('w.id', '=', webhookId)
      .executeTakeFirst();
  },

  /**
   * Takes up to `limit` of the webhook's due deliveries for one batch, oldest first: each is leased
   * until `leaseUntil` (no one else's meanwhile; due again if this process dies), and rows another
   * process is taking are skipped.
   */
  async claimDue(
    db: Db,
    workspaceId: string,
    webhookId: string,
    now: Date,
    limit: number,
    leaseUntil: Date,
  ): Promise<DueDelivery[]> {
    const { rows } = await sql<DueDelivery>`
      update webhook_deliveries set leased_until = ${leaseUntil}
      where id in (
        select id from webhook_deliveries
        where workspace_id = ${workspaceId} and webhook_id = ${webhookId}
          and state = 'queued' and next_attempt_at <= ${now} and (leased_until is null or leased_until <= ${now})
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked
      )
      returning id, event_id, event_type, payload, attempts
    `.execute(db);
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  },

  async insertAttempts(db: Db, rows: readonly (AttemptRow & { id: string; workspace_id: string })[]): Promise<void> {
    if (rows.length === 0) return;
    await db.insertInto('webhook_delivery_attempts').values(rows).execute();
  },

  /**
   * Writes a batch's outcome in one statement: each delivery one attempt more, and either finished
   * (`succeeded`, `failed`) or queued again until `nextAttemptAt`.
   */
  async settle(
    db: Db,
    workspaceId: string,
    outcomes: readonly { id: string; state: DeliveryRow['state']; nextAttemptAt: Date | null }[],
    now: Date,
  ): Promise<void> {
    if (outcomes.length === 0) return;
    const values = sql.join(outcomes.map((o) => sql`(${o.id}::uuid, ${o.state}, ${o.nextAttemptAt}::timestamptz)`));
    await sql`
      update webhook_deliveries d
      set state = v.state, attempts = d.attempts + 1, next_attempt_at = v.next_attempt_at, leased_until = null,
        finished_at = case when v.state = 'queued' then null else ${now}::timestamptz end
      from (values ${values}) as v (id, state, next_attempt_at)
      where d.workspace_id = ${workspaceId} and d.id = v.id
    `.execute(db);
  },

  /** Ends every queued delivery of the webhook as failed (it was turned off). */
  async failQueued(db: Db, workspaceId: string, webhookId: string, now: Date): Promise<void> {
    await db
      .updateTable('webhook_deliveries')
      .set({ state: 'failed', finished_at: now, next_attempt_at: null, leased_until: null })
      .where('workspace_id', '=', workspaceId)
      .where('webhook_id', '=', webhookId)
      .where('state', '=', 'queued')
      .execute();
  },

  /** When the webhook's next queued delivery no batch is sending is due, if it has one. */
  async nextDue(db: Db, workspaceId: string, webhookId: string): Promise<Date | undefined> {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('workspace_id', '=', workspaceId)
      .where('webhook_id', '=', webhookId)
      .where('state', '=', 'queued')
      .where('leased_until', 'is', null)
      .executeTakeFirst();
    return row?.next ? new Date(row.next) : undefined;
  },

  /** Webhooks with a delivery due by `now` (a missed batch, a lapsed lease). */
  withDue(db: Db, now: Date): Promise<{ workspace_id: string; webhook_id: string }[]> {
    return db
      .selectFrom('webhook_deliveries')
      .select(['workspace_id', 'webhook_id'])
      .distinct()
      .where('state', '=', 'queued')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]))
      .execute();
  },

  /** Starts the webhook's streak of failures unless one is running; answers when it started. */
  async markFailing(db: Db, workspaceId: string, id: string, now: Date): Promise<Date | undefined> {
    const row = await db
      .updateTable('webhooks')
      .set({ failing_since: sql<Date>`coalesce(failing_since, ${now})` })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returning('failing_since')
      .executeTakeFirst();
    return row?.failing_since ? new Date(row.failing_since) : undefined;
  },

  /** Whether the workspace still has a webhook switched on. */
  async hasEnabled(db: Db, workspaceId: string): Promise<boolean> {
    const row = await db
      .selectFrom('webhooks')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('enabled', '=', true)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  /** Deletes deliveries made before `before` (their attempts go with them), and older attempts of newer ones. */
  async purge(db: Db, before: Date): Promise<void> {
    await db.deleteFrom('webhook_delivery_attempts').where('created_at', '<', before).execute();
    await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).where('state', '!=', 'queued').execute();
  },
};
