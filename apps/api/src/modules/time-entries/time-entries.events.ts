import { type TimeEntryEvent, timeEntryEvent } from '@sundial/core';
import { sql } from 'kysely';
import { type Db, listenerFor } from '../../db/connection.js';

export const TIME_ENTRY_CHANNEL = 'sundial_time_entries';
const IDS_PER_NOTIFY = 100;

type Subscriber = { workspaceId: string; userId: string | null; send: (event: TimeEntryEvent) => void };

/**
 * Fan-out of time-entry changes. Writers NOTIFY inside their transaction (so a change is
 * announced exactly when it commits); every API process LISTENs once and hands each event to
 * its own open streams. Works across processes on PostgreSQL and inside one process on PGlite.
 */
export function createTimeEntryHub(db: Db) {
  const subscribers = new Set<Subscriber>();
  const listen = listenerFor(db);
  let started: Promise<() => Promise<void>> | undefined;
  let closed = false;

  const dispatch = (event: TimeEntryEvent) => {
    for (const s of subscribers) {
      if (s.workspaceId === event.workspaceId && (s.userId === null || s.userId === event.userId)) s.send(event);
    }
  };

  const onPayload = (payload: string) => {
    try {
      const parsed = timeEntryEvent.safeParse(JSON.parse(payload));
      if (parsed.success) dispatch(parsed.data);
    } catch {
      // Not ours to read; ignore.
    }
  };

  const ensureListening = async () => {
    if (!listen || closed) return;
    started ??= listen(TIME_ENTRY_CHANNEL, onPayload);
    await started;
  };

  return {
    /** Announces a change from inside the writing transaction. */
    async publish(tx: Db, event: TimeEntryEvent): Promise<void> {
      if (event.entryIds.length === 0) return;
      if (!listen) {
        dispatch(event);
        return;
      }
      for (let i = 0; i < event.entryIds.length; i += IDS_PER_NOTIFY) {
        const part = { ...event, entryIds: event.entryIds.slice(i, i + IDS_PER_NOTIFY) };
        await sql`select pg_notify(${TIME_ENTRY_CHANNEL}, ${JSON.stringify(part)})`.execute(tx);
      }
    },

    /** Calls `send` for every change of the user's entries (every member's when userId is null). */
    async subscribe(s: Subscriber): Promise<() => void> {
      await ensureListening();
      subscribers.add(s);
      return () => {
        subscribers.delete(s);
      };
    },

    get size() {
      return subscribers.size;
    },

    async close(): Promise<void> {
      closed = true;
      subscribers.clear();
      if (started) await (await started)();
    },
  };
}

export type TimeEntryHub = ReturnType<typeof createTimeEntryHub>;
