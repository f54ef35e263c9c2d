import type { Db } from '../../db/connection.js';
import type { EventBus } from '../../platform/events.js';
import { createBulk } from './time-entries.bulk.js';
import { createEntries } from './time-entries.entries.js';
import { createPeople } from './time-entries.people.js';
import { createTimeSettings } from './time-entries.settings.js';
import { createTimer } from './time-entries.timer.js';
import { createWrites } from './time-entries.writes.js';

export { UNDO_WINDOW_MS } from './time-entries.bulk.js';
export type { ListInput } from './time-entries.entries.js';
export type { LockWriter } from './time-entries.locks.js';
export type { RepricedEntry, RepriceSelection } from './time-entries.repository.js';
export type { WriteBy } from './time-entries.shared.js';
export type { EntryInput } from './time-entries.validation.js';

/**
 * The time-entries service, put together from its parts: the workspace's time settings, single
 * entries, bulk changes and Undo, the running timer, the writes other modules make to time (the
 * one write path for it), and whose time the actor may open and follow live.
 */
export function createTimeEntriesService(db: Db, events: EventBus) {
  return {
    ...createTimeSettings(db),
    ...createEntries(db, events),
    ...createBulk(db, events),
    ...createTimer(db, events),
    ...createWrites(events),
    ...createPeople(db),
  };
}

export type TimeEntriesService = ReturnType<typeof createTimeEntriesService>;
