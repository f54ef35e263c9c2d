import { randomBytes } from 'node:crypto';
import {
  type CreateWebhookBody,
  createWebhookBody,
  type UpdateWebhookBody,
  updateWebhookBody,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  type WebhookDeliveriesQuery,
  type WebhookDeliveryPage,
  type WebhookDeliveryView,
  type WebhookView,
  type WebhookWithSecretView,
  webhookDeliveriesQuery,
  webhookWants,
} from '@sundial/core';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { type AuditEntry, audit, onAudit } from '../../platform/audit.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { newId, newSecret } from '../../platform/ids.js';
import { backoffDelay, defineJob, type JobRunner } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import {
  type OutboundConnections,
  type OutboundResult,
  outboundConnections,
  sendOutbound,
} from '../../platform/outbound-http.js';
import type { SecretBox } from '../../platform/secrets.js';
import { SIGNATURE_HEADER, signPayload } from '../../platform/signature.js';
import { webhookDisabledMail } from './webhooks.mails.js';
import { deliveryView, webhookView } from './webhooks.presenter.js';
import {
  type DueDelivery,
  type EventRecord,
  type FanOutTarget,
  webhooksRepository as repo,
} from './webhooks.repository.js';

/** Fans a workspace's new audit records out to its webhooks (queued by a write, one at a time per workspace). */
export const fanOutJob = defineJob('webhooks.fan-out', z.object({ workspaceId: z.uuid() }));
/** Every minute: the fan-out of every workspace with webhooks, in case a write's own fan-out was missed. */
export const fanOutAllJob = defineJob('webhooks.fan-out-all', z.object({}));
/**
 * Sends one endpoint's due deliveries in batches (queued by a fan-out, a redelivery, or the time a
 * retry is due); each delivery retries on its own schedule with backoff for 24 hours.
 */
export const drainJob = defineJob('webhooks.drain', z.object({ workspaceId: z.uuid(), webhookId: z.uuid() }));
/** Deliveries taken per batch, and POSTs of a batch under way at once (issue 34: 10,000 events a minute). */
const DRAIN_BATCH = 128;
const POSTS_AT_ONCE = 8;
/** Endpoints one process drains at once (all of them within WEBHOOK_DELIVERIES_PER_SECOND). */
const DRAINS_AT_ONCE = 2;
/** How long a batch's deliveries are its own: past it (the process died), they are due again. */
const LEASE_MS = 5 * 60 * 1000;
/** Forgets deliveries and attempts after 7 days. */
export const purgeDeliveriesJob = defineJob('webhooks.purge', z.object({}));

const SECOND_MS = 1000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Retries: 10 s, doubling, at most an hour apart, for 24 hours. */
export const RETRY = { backoffMs: 10 * SECOND_MS, maxBackoffMs: HOUR_MS, forMs: DAY_MS };
/** How many attempts fit in RETRY.forMs. */
export const DELIVERY_ATTEMPTS = (() => {
  let waited = 0;
  let attempts = 1;
  while (waited + backoffDelay(attempts, RETRY.backoffMs, RETRY.maxBackoffMs) <= RETRY.forMs) {
    waited += backoffDelay(attempts, RETRY.backoffMs, RETRY.maxBackoffMs);
    attempts += 1;
  }
  return attempts;
})();
/** An endpoint that has failed every attempt for this long is turned off. */
export const DISABLE_AFTER_MS = 3 * DAY_MS;
export const KEEP_DELIVERIES_MS = 7 * DAY_MS;
const TIMEOUT_MS = 10 * SECOND_MS;
/** The first bytes of an answer kept in the log. */
const KEEP_BYTES = 2048;
/** Audit records fanned out per transaction. */
const BATCH = 500;
/** How often this process re-reads which workspaces have webhooks. */
const REFRESH_MS = 30 * SECOND_MS;
export const SECRET_PREFIX = 'whsec_';
export const USER_AGENT = 'Sundial-Webhooks/1';

export const webhookReasons = {
  creatorLeft: 'Its creator no longer administers this workspace.',
  failing: 'Its endpoint failed every delivery for 3 days.',
} as const;

const secretContext = (webhookId: string) => `webhook:${webhookId}`;
const isOffered = (action: string): boolean => action in WEBHOOK_EVENTS;

/** `work` on each item, at most `atOnce` under way; answers the results in the items' order. */
async function inTurn<T, R>(items: readonly T[], atOnce: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return results;
}

/** The JSON an endpoint receives for an audit record. */
export function eventPayload(workspaceId: string, record: EventRecord): string {
  return JSON.stringify({
    id: record.id,
    type: record.action,
    createdAt: new Date(record.created_at).toISOString(),
    workspaceId,
    actor:
      record.actor_user_id && record.actor_email
        ? { id: record.actor_user_id, name: record.actor_name ?? '', email: record.actor_email }
        : null,
    subjectId: record.subject_id,
    data: record.detail,
  });
}

/**
 * Signed webhooks (issue 34): owners and admins subscribe URLs to the workspace's events. Events
 * are the workspace's audit records: a fan-out seals them (the audit log's chain gives each its
 * `seq`), reads those past the workspace's cursor, makes one delivery per matching webhook and
 * moves the cursor, in one transaction under a per-workspace lock, so each record goes out once
 * however many processes run. An endpoint's deliveries are sent by a drain job in batches (signed
 * POSTs side by side over kept connections, one transaction for the batch's outcome); each delivery
 * retries on its own schedule for 24 hours and every attempt is logged. Targets on private or local
 * addresses are refused (SSRF).
 */
export function createWebhooksService(deps: {
  db: Db;
  jobs: JobRunner;
  mailer: Mailer;
  secrets: SecretBox;
  /** The audit log's sealer: a fan-out seals the workspace's new records first. */
  auditLog: { sealWorkspace(workspaceId: string): Promise<number> };
  /** OUTBOUND_ALLOW_PRIVATE_TARGETS (or the older WEBHOOKS_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** WEBHOOK_DELIVERIES_PER_SECOND: the pace of this process's deliveries, all endpoints together. */
  deliveriesPerSecond: number;
  now?: () => Date;
  log?: FastifyBaseLogger;
}) {
  const { db, jobs, mailer, secrets, auditLog, allowPrivateTargets, log } = deps;
  const clock = deps.now ?? (() => new Date());

  // The next moment a delivery may start, so that this process sends at most
  // `deliveriesPerSecond`: a burst of events goes out evenly instead of crowding the API's requests.
  let nextStart = 0;
  async function paced(): Promise<void> {
    const now = performance.now();
    const start = Math.max(now, nextStart);
    nextStart = start + 1000 / deps.deliveriesPerSecond;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }

  // Workspaces with a webhook switched on: a write elsewhere costs one look-up here.
  let withWebhooks = new Set<string>();
  /** Added while a refresh was reading: kept when its answer replaces the set. */
  const addedMeanwhile = new Set<string>();
  let refreshedAt = Number.NEGATIVE_INFINITY;
  let refreshing: Promise<void> | undefined;
  function remember(workspaceId: string): void {
    withWebhooks.add(workspaceId);
    if (refreshing) addedMeanwhile.add(workspaceId);
  }
  function refresh(): Promise<void> {
    refreshing ??= repo
      .workspacesWithWebhooks(db)
      .then((ids) => {
        withWebhooks = new Set([...ids, ...addedMeanwhile]);
        addedMeanwhile.clear();
        refreshedAt = Date.now();
      })
      .catch((error: unknown) => log?.warn({ err: error }, 'could not read which workspaces have webhooks'))
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  }

  const unsubscribe = onAudit(async (tx, entry: AuditEntry) => {
    // Never awaited here: the writer's transaction may hold the only connection (PGlite).
    if (Date.now() - refreshedAt > REFRESH_MS) void refresh();
    const workspaceId = entry.workspaceId;
    if (!workspaceId || !withWebhooks.has(workspaceId) || !isOffered(entry.action)) return;
    await jobs.enqueue(tx, fanOutJob, { workspaceId }, { singletonKey: workspaceId });
  });

  async function forgetIfNone(tx: Db, workspaceId: string): Promise<void> {
    if (!(await repo.hasEnabled(tx, workspaceId))) withWebhooks.delete(workspaceId);
  }

  /** POSTs one signed body to `url` (over `connections` when a batch shares them). */
  function post(
    url: string,
    body: string,
    secret: string,
    event: { id: string; type: string },
    connections?: OutboundConnections,
  ): Promise<OutboundResult> {
    return sendOutbound(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'sundial-event-id': event.id,
        'sundial-event-type': event.type,
        [SIGNATURE_HEADER]: signPayload(body, secret, clock()),
      },
      allowPrivate: allowPrivateTargets,
      timeoutMs: TIMEOUT_MS,
      keepBytes: KEEP_BYTES,
      purpose: 'webhooks',
      ...(connections ? { connections } : {}),
    });
  }
  /**
   * Sends the endpoint a signed challenge; it must answer 2xx with the challenge in its body.
   * Throws 422 (on `url`) when the target is a private or local address; answers the error otherwise.
   */
  async function challenge(url: string, secret: string): Promise<string | null> {
    const value = randomBytes(24).toString('base64url');
    const body = JSON.stringify({ type: 'webhook.validate', challenge: value });
    const result = await post(url, body, secret, { id: newId(), type: 'webhook.validate' });
    if (result.refused) throw validationError({ url: result.error ?? 'This URL may not receive webhooks.' });
    if (!result.ok) return `The endpoint did not accept the challenge: ${result.error}`;
    if (!result.body?.includes(value)) return `The endpoint answered ${result.statusCode} without the challenge.`;
    return null;
  }

  async function getRow(actor: Actor, webhookId: string) {
    assertCan(actor, 'webhooks:manage');
    const row = await repo.find(db, actor.membership.workspace.id, webhookId);
    if (!row) throw notFound('Webhook not found.');
    return row;
  }

  /** Disables a webhook whose creator no longer administers the workspace (inside the fan-out). */
  async function disableForCreator(tx: Db, workspaceId: string, target: FanOutTarget): Promise<void> {
    const now = clock();
    await repo.update(tx, workspaceId, target.id, { enabled: false, disabledReason: webhookReasons.creatorLeft }, now);
    await audit(tx, {
      action: 'webhook.updated',
      workspaceId,
      subjectId: target.id,
      detail: { enabled: false, reason: webhookReasons.creatorLeft },
    });
  }

  /** Fans the workspace's new audit records out to its webhooks; answers how many deliveries it made. */
  async function fanOut(workspaceId: string): Promise<number> {
    await auditLog.sealWorkspace(workspaceId);
    let made = 0;
    for (;;) {
      const { read, queued } = await db.transaction().execute(async (tx) => {
        await repo.lockFanOut(tx, workspaceId);
        const cursor = await repo.cursor(tx, workspaceId);
        if (cursor === undefined) return { read: 0, queued: 0 };
        const records = await repo.eventsAfter(tx, workspaceId, cursor, BATCH);
        const last = records.at(-1);
        if (!last) return { read: 0, queued: 0 };
        const live: FanOutTarget[] = [];
        for (const target of await repo.fanOutTargets(tx, workspaceId)) {
          if (target.creator_administers) live.push(target);
          else await disableForCreator(tx, workspaceId, target);
        }
        const now = clock();
        const deliveries = records.flatMap((record) =>
          isOffered(record.action)
            ? live
                .filter(
                  (target) =>
                    webhookWants(target.events, record.action) &&
                    new Date(record.created_at) >= new Date(target.created_at),
                )
                .map((target) => ({
                  id: newId(),
                  workspaceId,
                  webhookId: target.id,
                  eventId: record.id,
                  eventType: record.action,
                  payload: eventPayload(workspaceId, record),
                  now,
                }))
            : [],
        );
        await repo.insertDeliveries(tx, deliveries);
        for (const webhookId of new Set(deliveries.map((delivery) => delivery.webhookId))) {
          await jobs.enqueue(tx, drainJob, { workspaceId, webhookId });
        }
        await repo.moveCursor(tx, workspaceId, Number(last.seq));
        return { read: records.length, queued: deliveries.length };
      });
      made += queued;
      if (read < BATCH) return made;
    }
  }

  /**
   * Sends the webhook's due deliveries, a batch at a time (POSTs side by side over kept
   * connections), writing each batch's attempts and outcomes in one transaction; then queues the
   * next drain for when the earliest retry is due. A turned-off or unvalidated webhook's queued
   * deliveries end as failed.
   */
  async function drain(workspaceId: string, webhookId: string): Promise<void> {
    for (;;) {
      const target = await repo.drainTarget(db, workspaceId, webhookId);
      if (!target) return;
      if (!target.enabled || !target.validated_at) {
        await repo.failQueued(db, workspaceId, webhookId, clock());
        return;
      }
      const claimedAt = clock();
      const batch = await repo.claimDue(
        db,
        workspaceId,
        webhookId,
        claimedAt,
        DRAIN_BATCH,
        new Date(claimedAt.getTime() + LEASE_MS),
      );
      if (batch.length === 0) break;
      const secret = secrets.open(target.secret_sealed, secretContext(webhookId));
      const connections = outboundConnections(POSTS_AT_ONCE);
      const results = await inTurn(batch, POSTS_AT_ONCE, async (delivery) => {
        await paced();
        return post(
          target.url,
          delivery.payload,
          secret,
          { id: delivery.event_id, type: delivery.event_type },
          connections,
        );
      }).finally(() => connections.close());
      const stopped = await settleBatch(workspaceId, target, batch, results);
      if (stopped || batch.length < DRAIN_BATCH) break;
    }
    const next = await repo.nextDue(db, workspaceId, webhookId);
    if (next) {
      // One drain per retry time, whichever batch scheduled it.
      await jobs.enqueue(
        db,
        drainJob,
        { workspaceId, webhookId },
        { runAt: next, singletonKey: `${webhookId}@${next.toISOString()}` },
      );
    }
  }

  /**
   * A batch's attempts and outcomes, and its endpoint's streak: a success ends a streak of failures;
   * a batch that failed whole starts one, and one running for 3 days turns the webhook off (its
   * creator is e-mailed). Answers whether the webhook was turned off.
   */
  async function settleBatch(
    workspaceId: string,
    target: NonNullable<Awaited<ReturnType<typeof repo.drainTarget>>>,
    batch: readonly DueDelivery[],
    results: readonly OutboundResult[],
  ): Promise<boolean> {
    const now = clock();
    return db.transaction().execute(async (tx) => {
      await repo.insertAttempts(
        tx,
        batch.map((delivery, i) => {
          const result = results[i] as OutboundResult;
          return {
            id: newId(),
            workspace_id: workspaceId,
            delivery_id: delivery.id,
            attempt: delivery.attempts + 1,
            ok: result.ok,
            status_code: result.statusCode,
            duration_ms: result.durationMs,
            response_body: result.body,
            error: result.error,
            created_at: now,
          };
        }),
      );
      await repo.settle(
        tx,
        workspaceId,
        batch.map((delivery, i) => {
          const attempt = delivery.attempts + 1;
          if (results[i]?.ok) return { id: delivery.id, state: 'succeeded' as const, nextAttemptAt: null };
          if (attempt >= DELIVERY_ATTEMPTS) return { id: delivery.id, state: 'failed' as const, nextAttemptAt: null };
          const wait = backoffDelay(attempt, RETRY.backoffMs, RETRY.maxBackoffMs);
          return { id: delivery.id, state: 'queued' as const, nextAttemptAt: new Date(now.getTime() + wait) };
        }),
        now,
      );
      if (results.some((result) => result.ok)) {
        // With no streak running, the webhook's row (which all its deliveries share) is left alone.
        if (target.failing_since) await repo.update(tx, workspaceId, target.id, { failingSince: null }, now);
        return false;
      }
      const since = await repo.markFailing(tx, workspaceId, target.id, now);
      if (!since || now.getTime() - since.getTime() < DISABLE_AFTER_MS) return false;
      await repo.update(tx, workspaceId, target.id, { enabled: false, disabledReason: webhookReasons.failing }, now);
      await repo.failQueued(tx, workspaceId, target.id, now);
      await audit(tx, {
        action: 'webhook.updated',
        workspaceId,
        subjectId: target.id,
        detail: { enabled: false, reason: webhookReasons.failing },
      });
      if (target.creator_email) {
        await mailer.send(
          {
            to: target.creator_email,
            ...webhookDisabledMail({
              url: target.url,
              workspaceName: target.workspace_name,
              reason: webhookReasons.failing,
            }),
          },
          { db: tx },
        );
      }
      await forgetIfNone(tx, workspaceId);
      return true;
    });
  }

  async function viewOf(workspaceId: string, webhookId: string): Promise<WebhookView> {
    const row = await repo.find(db, workspaceId, webhookId);
    if (!row) throw notFound('Webhook not found.');
    return webhookView(row);
  }

  return {
    fanOut,
    drain,
    /** Re-reads which workspaces have webhooks (every 30 s by itself). */
    refresh,

    /** The event types a webhook may subscribe to. */
    eventTypes(actor: Actor) {
      assertCan(actor, 'webhooks:manage');
      return { items: WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENTS[type] })) };
    },

    async list(actor: Actor): Promise<{ items: WebhookView[] }> {
      assertCan(actor, 'webhooks:manage');
      return { items: (await repo.list(db, actor.membership.workspace.id)).map(webhookView) };
    },

    async get(actor: Actor, webhookId: string): Promise<WebhookView> {
      return webhookView(await getRow(actor, webhookId));
    },

    /**
     * A new webhook with a new signing secret (in this answer, and by `secret` later). Its endpoint
     * is challenged at once: answered, it is active; otherwise pending with the error. Throws 422
     * on `url` for a target on a private or local address.
     */
    async create(actor: Actor, input: CreateWebhookBody): Promise<WebhookWithSecretView> {
      assertCan(actor, 'webhooks:manage');
      const body = createWebhookBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      const id = newId();
      const secret = `${SECRET_PREFIX}${newSecret()}`;
      const error = await challenge(body.url, secret);
      await db.transaction().execute(async (tx) => {
        await repo.insert(tx, {
          id,
          workspaceId,
          createdBy: actor.userId,
          url: body.url,
          description: body.description,
          events: body.events,
          secretSealed: secrets.seal(secret, secretContext(id)),
          validatedAt: error ? null : clock(),
          validationError: error,
        });
        await repo.startCursor(tx, workspaceId);
        await audit(tx, {
          action: 'webhook.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { url: body.url, events: body.events, validated: error === null },
        });
      });
      remember(workspaceId);
      return { ...(await viewOf(workspaceId, id)), secret };
    },

    /** Changes a webhook; a new URL is challenged again (pending until it answers). */
    async update(actor: Actor, webhookId: string, input: UpdateWebhookBody): Promise<WebhookView> {
      const row = await getRow(actor, webhookId);
      const body = updateWebhookBody.parse(input);
      const workspaceId = row.workspace_id;
      const urlChanged = body.url !== undefined && body.url !== row.url;
      const error =
        urlChanged && body.url
          ? await challenge(body.url, secrets.open(row.secret_sealed, secretContext(row.id)))
          : undefined;
      const reenabled = body.enabled === true && !row.enabled;
      await db.transaction().execute(async (tx) => {
        if (!(await repo.lock(tx, workspaceId, webhookId))) throw notFound('Webhook not found.');
        await repo.update(
          tx,
          workspaceId,
          webhookId,
          {
            ...(body.url !== undefined ? { url: body.url } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(body.events !== undefined ? { events: body.events } : {}),
            ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
            ...(urlChanged ? { validatedAt: error ? null : clock(), validationError: error ?? null } : {}),
            // Turned on again, it answers to the one who turned it on, with a clean record.
            ...(reenabled ? { disabledReason: null, failingSince: null, createdBy: actor.userId } : {}),
          },
          clock(),
        );
        await audit(tx, {
          action: 'webhook.updated',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: webhookId,
          detail: { ...body, ...(urlChanged ? { validated: !error } : {}) },
        });
        if (body.enabled === false) await forgetIfNone(tx, workspaceId);
      });
      if (body.enabled === true) remember(workspaceId);
      return viewOf(workspaceId, webhookId);
    },

    async remove(actor: Actor, webhookId: string): Promise<void> {
      const row = await getRow(actor, webhookId);
      await db.transaction().execute(async (tx) => {
        await repo.remove(tx, row.workspace_id, webhookId);
        await audit(tx, {
          action: 'webhook.deleted',
          actorUserId: actor.userId,
          workspaceId: row.workspace_id,
          subjectId: webhookId,
          detail: { url: row.url },
        });
        await forgetIfNone(tx, row.workspace_id);
      });
    },

    /** Challenges the endpoint again: answered, the webhook becomes active; otherwise it stays pending. */
    async validate(actor: Actor, webhookId: string): Promise<WebhookView> {
      const row = await getRow(actor, webhookId);
      const error = await challenge(row.url, secrets.open(row.secret_sealed, secretContext(row.id)));
      await db.transaction().execute(async (tx) => {
        await repo.update(
          tx,
          row.workspace_id,
          webhookId,
          { validatedAt: error ? null : clock(), validationError: error },
          clock(),
        );
        await audit(tx, {
          action: 'webhook.updated',
          actorUserId: actor.userId,
          workspaceId: row.workspace_id,
          subjectId: webhookId,
          detail: { validated: error === null },
        });
      });
      return viewOf(row.workspace_id, webhookId);
    },

    /** The signing secret, for owners and admins. */
    async secret(actor: Actor, webhookId: string): Promise<{ secret: string }> {
      const row = await getRow(actor, webhookId);
      return { secret: secrets.open(row.secret_sealed, secretContext(row.id)) };
    },

    /** A new signing secret: deliveries from now on are signed with it. */
    async rotateSecret(actor: Actor, webhookId: string): Promise<{ secret: string }> {
      const row = await getRow(actor, webhookId);
      const secret = `${SECRET_PREFIX}${newSecret()}`;
      await db.transaction().execute(async (tx) => {
        await repo.update(
          tx,
          row.workspace_id,
          webhookId,
          { secretSealed: secrets.seal(secret, secretContext(row.id)) },
          clock(),
        );
        await audit(tx, {
          action: 'webhook.secret_rotated',
          actorUserId: actor.userId,
          workspaceId: row.workspace_id,
          subjectId: webhookId,
        });
      });
      return { secret };
    },

    async deliveries(actor: Actor, webhookId: string, input: WebhookDeliveriesQuery): Promise<WebhookDeliveryPage> {
      const row = await getRow(actor, webhookId);
      const { limit, cursor } = webhookDeliveriesQuery.parse(input);
      const rows = await repo.deliveries(db, row.workspace_id, webhookId, {
        limit: limit + 1,
        ...(cursor ? { before: cursor } : {}),
      });
      const page = rows.slice(0, limit);
      const attempts = await repo.attemptsOf(
        db,
        row.workspace_id,
        page.map((d) => d.id),
      );
      return {
        items: page.map((d) => deliveryView(d, attempts)),
        nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
      };
    },

    /** Queues the delivery's event to the webhook again, as a new delivery. Throws 409 unless the webhook is active. */
    async redeliver(actor: Actor, webhookId: string, deliveryId: string): Promise<WebhookDeliveryView> {
      const row = await getRow(actor, webhookId);
      const workspaceId = row.workspace_id;
      const original = await repo.findDelivery(db, workspaceId, webhookId, deliveryId);
      if (!original) throw notFound('Delivery not found.');
      if (!row.enabled || !row.validated_at) {
        throw new AppError('webhook_not_active', 'Turn the webhook on and validate it before sending events again.', {
          status: 409,
        });
      }
      const id = newId();
      const now = clock();
      await db.transaction().execute(async (tx) => {
        await repo.insertDeliveries(tx, [
          {
            id,
            workspaceId,
            webhookId,
            eventId: original.event_id,
            eventType: original.event_type,
            payload: original.payload,
            now,
          },
        ]);
        await jobs.enqueue(tx, drainJob, { workspaceId, webhookId });
      });
      jobs.wake();
      const created = await repo.findDelivery(db, workspaceId, webhookId, id);
      if (!created) throw notFound('Delivery not found.');
      return deliveryView(created, []);
    },

    /** Stops listening to the audit log (the app closes). */
    close(): void {
      unsubscribe();
    },

    registerJobs(): void {
      jobs.register(fanOutJob, async ({ workspaceId }) => {
        await fanOut(workspaceId);
      });
      jobs.register(fanOutAllJob, async () => {
        await refresh();
        for (const workspaceId of await repo.workspacesWithWebhooks(db)) await fanOut(workspaceId);
        // Deliveries due with no drain coming (a process died mid-batch): drained now.
        for (const due of await repo.withDue(db, clock())) {
          await jobs.enqueue(db, drainJob, { workspaceId: due.workspace_id, webhookId: due.webhook_id });
        }
      });
      jobs.schedule(fanOutAllJob, '* * * * *', {});
      // Endpoints are independent and a batch mostly waits on its receiver: several at once per
      // process. A drain that fails (the database went away) is run again; its deliveries keep
      // their own attempts and are due again when their lease ends.
      jobs.register(
        drainJob,
        async ({ workspaceId, webhookId }) => {
          await drain(workspaceId, webhookId);
        },
        { parallel: DRAINS_AT_ONCE },
      );
      jobs.register(purgeDeliveriesJob, async (_payload, { now }) => {
        await repo.purge(db, new Date(now.getTime() - KEEP_DELIVERIES_MS));
      });
      jobs.schedule(purgeDeliveriesJob, '41 * * * *', {});
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
