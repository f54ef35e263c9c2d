import { amountCents } from '../money.js';
import type { TimeEntryView, UpdateTimeEntryBody } from '../schemas/time-entries.js';
import { workSeconds } from './days.js';
import { parseDuration } from './duration.js';

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();

/**
 * The entry as the server will store it after `edit` (PATCH /time-entries/:id), for showing the
 * change before the answer comes: a duration moves the end (breaks kept), a new start without an
 * end keeps the length, and a running entry keeps running. What the server then answers replaces
 * it; a change it would refuse is shown until it refuses, then taken back by the caller.
 */
export function applyEntryEdit(entry: TimeEntryView, edit: UpdateTimeEntryBody, now = Date.now()): TimeEntryView {
  return priced(moved(entry, edit, now));
}

/** Amounts of the shown entry from the rates it carries (a new project's rates come with the answer). */
function priced(entry: TimeEntryView): TimeEntryView {
  const seconds = entry.durationSeconds;
  if (seconds === null || seconds === undefined) return entry;
  const billable = entry.billableRateCents ?? null;
  const cost = entry.costRateCents ?? null;
  return {
    ...entry,
    ...(billable === null ? {} : { billableAmountCents: entry.billable ? amountCents(billable, seconds) : 0 }),
    ...(cost === null ? {} : { costAmountCents: amountCents(cost, seconds) }),
  };
}

function moved(entry: TimeEntryView, edit: UpdateTimeEntryBody, now: number): TimeEntryView {
  const next = withFields(entry, edit);
  const oldStart = Date.parse(entry.start);
  const pause =
    entry.end === null ? 0 : Math.round((Date.parse(entry.end) - oldStart) / 1000) - workSeconds(entry, now);
  const to = movedSpan(entry, pause, edit);
  if (!to) return next;
  next.start = to.start;
  if (to.end === null) return next; // running: its end is the stop
  next.end = to.end;
  next.durationSeconds = workSeconds(next, now);
  return next;
}

/** The fields an edit sets, as the server stores them (tags once each, sorted). */
function withFields<E extends Omit<ShownRow, 'start' | 'end' | 'seconds'>>(entry: E, edit: UpdateTimeEntryBody): E {
  const next: E = { ...entry };
  if (edit.note !== undefined) next.note = edit.note;
  if (edit.billable !== undefined) next.billable = edit.billable;
  if (edit.projectId !== undefined) next.projectId = edit.projectId;
  if (edit.taskId !== undefined) next.taskId = edit.taskId;
  if (edit.tagIds !== undefined) next.tagIds = [...new Set(edit.tagIds)].sort();
  return next;
}

/**
 * Where an edit puts an entry's start and end: a duration moves the end (the `pause`, seconds
 * between start and end not worked, kept), a new start without an end keeps the length, a running
 * entry (no end) keeps running. Undefined when a given instant does not parse.
 */
function movedSpan(
  entry: { start: string; end: string | null },
  pause: number,
  edit: UpdateTimeEntryBody,
): { start: string; end: string | null } | undefined {
  const oldStart = Date.parse(entry.start);
  const start = edit.start === undefined ? oldStart : Date.parse(edit.start);
  if (Number.isNaN(start)) return undefined;
  const shownStart = edit.start === undefined ? entry.start : iso(start);
  if (entry.end === null) return { start: shownStart, end: null };
  const oldEnd = Date.parse(entry.end);
  const duration = typeof edit.duration === 'string' ? parseDuration(edit.duration) : edit.duration;
  let end = oldEnd;
  if (edit.end !== undefined) end = Date.parse(edit.end);
  else if (duration !== undefined && duration !== null) end = start + (duration + pause) * 1000;
  else if (edit.start !== undefined) end = oldEnd + (start - oldStart);
  if (Number.isNaN(end)) return { start: shownStart, end: entry.end };
  return { start: shownStart, end: iso(end) };
}

/** What a report row (the Detailed report's `DetailedEntryView`) shows of an entry that an edit changes. */
export interface ShownRow {
  note: string;
  billable: boolean;
  projectId: string | null;
  taskId: string | null;
  tagIds: string[];
  start: string;
  end: string | null;
  /** Worked seconds as the report counts them. */
  seconds: number;
}

/**
 * A report row after `edit` (PATCH /time-entries/:id), for showing the change before the answer,
 * moved as `applyEntryEdit` moves an entry: a duration moves the end, a new start without an end
 * keeps the length, a running entry keeps running. The row carries no breaks, so the time between
 * its start and end beyond its seconds is kept as one; its new seconds are unrounded until the
 * report is read again, and its amounts come with that answer.
 */
export function applyRowEdit<R extends ShownRow>(row: R, edit: UpdateTimeEntryBody): R {
  const next = withFields(row, edit);
  const pause =
    row.end === null ? 0 : Math.max(0, Math.round((Date.parse(row.end) - Date.parse(row.start)) / 1000) - row.seconds);
  const to = movedSpan(row, pause, edit);
  if (!to) return next;
  next.start = to.start;
  if (to.end === null) return next;
  next.end = to.end;
  next.seconds = Math.max(0, Math.round((Date.parse(to.end) - Date.parse(to.start)) / 1000) - pause);
  return next;
}
