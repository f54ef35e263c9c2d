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
  const next: TimeEntryView = { ...entry };
  if (edit.note !== undefined) next.note = edit.note;
  if (edit.billable !== undefined) next.billable = edit.billable;
  if (edit.projectId !== undefined) next.projectId = edit.projectId;
  if (edit.taskId !== undefined) next.taskId = edit.taskId;
  if (edit.tagIds !== undefined) next.tagIds = [...new Set(edit.tagIds)].sort();
  const oldStart = Date.parse(entry.start);
  const start = edit.start === undefined ? oldStart : Date.parse(edit.start);
  if (Number.isNaN(start)) return next;
  if (edit.start !== undefined) next.start = iso(start);
  if (entry.end === null) return next; // running: its end is the stop
  const oldEnd = Date.parse(entry.end);
  const duration = typeof edit.duration === 'string' ? parseDuration(edit.duration) : edit.duration;
  let end = oldEnd;
  if (edit.end !== undefined) end = Date.parse(edit.end);
  else if (duration !== undefined && duration !== null) {
    const breakSeconds = Math.round((oldEnd - oldStart) / 1000) - workSeconds(entry, now);
    end = start + (duration + breakSeconds) * 1000;
  } else if (edit.start !== undefined) end = oldEnd + (start - oldStart);
  if (Number.isNaN(end)) return next;
  next.end = iso(end);
  next.durationSeconds = workSeconds(next, now);
  return next;
}
