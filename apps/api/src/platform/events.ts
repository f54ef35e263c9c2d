import { CompiledQuery } from 'kysely';
import { z } from 'zod';
import { type Db, listenerFor } from '../db/connection.js';

/** Time entries of one person that a write created, changed or deleted. */
export interface TimeEntriesChanged {
  /** Whose entries they are. */
  userId: string;
  entryIds: string[];
  /**
   * One entry's edit: the fields that changed, before and after. Audited in the publishing
   * transaction; not sent to live streams (they read the entry again).
   */
  changes?: Record<string, { before: unknown; after: unknown }>;
}

/**
 * Every domain event and its payload. Add an event here, publish it from the owning service, and
 * every subscriber (live updates, audit log, later webhooks) sees it typed.
 */
export interface DomainEventMap {
  'time_entry.created': TimeEntriesChanged;
  'time_entry.updated': TimeEntriesChanged;
  'time_entry.deleted': TimeEntriesChanged;
}

export type DomainEventName = keyof DomainEventMap;

export const DOMAIN_EVENT_NAMES = [
  'time_entry.created',
  'time_entry.updated',
  'time_entry.deleted',
] as const satisfies readonly DomainEventName[];

/** One event: what happened, in which workspace, by whom (null: the system), and its payload. */
export type DomainEvent<N extends DomainEventName = DomainEventName> = {
  [K in N]: { name: K; workspaceId: string; actorUserId: string | null; payload: DomainEventMap[K] };
}[N];

/** Runs inside the publishing transaction: its writes commit or roll back with the change. */
export type TransactionalSubscriber = (tx: Db, event: DomainEvent) => Promise<void>;
/** Runs after the publishing transaction committed, in every API process; never for a rollback. */
export type CommittedSubscriber = (event: DomainEvent) => void;

export const EVENTS_CHANNEL = 'sundial_events';
/** Sent with every write: written out, so no query is built for it each time. */
const NOTIFY = 'select pg_notify($1, $2)';
/** A NOTIFY payload is at most 8000 bytes: long id lists travel in parts. */
const IDS_PER_NOTIFY = 100;

const wireEvent = z.object({
  name: z.enum(DOMAIN_EVENT_NAMES),
  workspaceId: z.string(),
  actorUserId: z.string().nullable(),
  payload: z.object({ userId: z.string(), entryIds: z.array(z.string()) }),
});

/**
 * The one domain-event bus. `publish(tx, event)` is called inside the writing transaction: the
 * transactional subscribers (the audit log) write there, and the event is NOTIFYed there, which
 * the database delivers only when that transaction commits (never for one rolled back). Every API
 * process LISTENs once and hands committed events to its subscribers (live updates), so a
 * listener always reads the committed state, across processes on PostgreSQL and in one on PGlite.
 */
export function createEventBus(db: Db) {
  const inTransaction: TransactionalSubscriber[] = [];
  const committed = new Set<CommittedSubscriber>();
  const listen = listenerFor(db);
  let started: Promise<() => Promise<void>> | undefined;
  let closed = false;

  const deliver = (event: DomainEvent) => {
    for (const subscriber of committed) {
      try {
        subscriber(event);
      } catch {
        // One failing subscriber must not keep the event from the others.
      }
    }
  };

  const onPayload = (payload: string) => {
    try {
      const parsed = wireEvent.safeParse(JSON.parse(payload));
      if (parsed.success) deliver(parsed.data as DomainEvent);
    } catch {
      // Not ours to read; ignore.
    }
  };

  const ensureListening = async () => {
    if (!listen || closed) return;
    started ??= listen(EVENTS_CHANNEL, onPayload);
    await started;
  };

  return {
    /** Publishes from inside the writing transaction `tx`; delivered to `subscribe`rs once it commits. */
    async publish(tx: Db, event: DomainEvent): Promise<void> {
      if (event.payload.entryIds.length === 0) return;
      for (const subscriber of inTransaction) await subscriber(tx, event);
      const { entryIds } = event.payload;
      for (let i = 0; i < entryIds.length; i += IDS_PER_NOTIFY) {
        const part = {
          ...event,
          payload: { userId: event.payload.userId, entryIds: entryIds.slice(i, i + IDS_PER_NOTIFY) },
        };
        await tx.executeQuery(CompiledQuery.raw(NOTIFY, [EVENTS_CHANNEL, JSON.stringify(part)]));
      }
    },

    /** Adds a subscriber that writes in the publishing transaction (audit log, webhook outbox). */
    onPublish(subscriber: TransactionalSubscriber): void {
      inTransaction.push(subscriber);
    },

    /** Adds a subscriber that hears committed events; returns the unsubscribe. */
    async subscribe(subscriber: CommittedSubscriber): Promise<() => void> {
      await ensureListening();
      committed.add(subscriber);
      return () => {
        committed.delete(subscriber);
      };
    },

    async close(): Promise<void> {
      closed = true;
      committed.clear();
      if (started) await (await started)();
    },
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
