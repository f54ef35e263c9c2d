import type { TimeEntryEvent } from '@sundial/core';
import type { DomainEvent, EventBus } from './events.js';

export interface LiveSubscriber {
  workspaceId: string;
  /** Whose changes to hear; null: every member's. */
  userId: string | null;
  send: (event: TimeEntryEvent) => void;
}

const TYPES = {
  'time_entry.created': 'created',
  'time_entry.updated': 'updated',
  'time_entry.deleted': 'deleted',
} as const satisfies Record<DomainEvent['name'], TimeEntryEvent['type']>;

/**
 * Live updates: the committed domain events an open stream (Server-Sent Events) should hear, in
 * the wire shape the web reads (`TimeEntryEvent`). One bus subscription per process fans out to
 * every open stream of the event's workspace (and user).
 */
export function createLiveUpdates(bus: EventBus) {
  const streams = new Set<LiveSubscriber>();
  let listening: Promise<unknown> | undefined;

  const fanOut = (event: DomainEvent) => {
    const wire: TimeEntryEvent = {
      type: TYPES[event.name],
      workspaceId: event.workspaceId,
      userId: event.payload.userId,
      entryIds: event.payload.entryIds,
    };
    for (const s of streams) {
      if (s.workspaceId === wire.workspaceId && (s.userId === null || s.userId === wire.userId)) s.send(wire);
    }
  };

  return {
    /** Calls `send` for every committed change of the user's entries (every member's when userId is null). */
    async subscribe(s: LiveSubscriber): Promise<() => void> {
      listening ??= bus.subscribe(fanOut);
      await listening;
      streams.add(s);
      return () => {
        streams.delete(s);
      };
    },

    get size() {
      return streams.size;
    },
  };
}

export type LiveUpdates = ReturnType<typeof createLiveUpdates>;
