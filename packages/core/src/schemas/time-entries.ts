import { z } from 'zod';
import { parseDuration } from '../time/duration.js';
import { ROUNDING_MINUTES, ROUNDING_MODES } from '../time/rounding.js';
import { timeLockView } from './approvals.js';
import { timeZoneSchema } from './auth.js';
import { instantSchema, text } from './text.js';

const instant = instantSchema;
const note = text({ max: 2000, tooLong: 'The note must be at most 2000 characters.' });
const tagIds = z.array(z.uuid()).max(50, 'At most 50 tags.');

/** The longest duration an entry can be given: the longest "maximum entry length" a workspace may set (7 days). */
export const MAX_DURATION_SECONDS = 10_080 * 60;

/** A duration as seconds or as text people type ("1:30", "1.5h", "90m"), at most 168 hours. */
export const durationInput = z.union([z.number().int().min(0), text({ max: 50 })]).transform((value, ctx) => {
  const seconds = typeof value === 'number' ? value : parseDuration(value);
  if (seconds === null) {
    ctx.addIssue({ code: 'custom', message: 'Enter a duration such as 1:30, 1.5h or 90m.' });
    return z.NEVER;
  }
  if (seconds > MAX_DURATION_SECONDS) {
    ctx.addIssue({ code: 'custom', message: 'A duration can be at most 168 hours.' });
    return z.NEVER;
  }
  return seconds;
});

const entryFields = {
  note: note.optional(),
  projectId: z.uuid().nullable().optional(),
  taskId: z.uuid().nullable().optional(),
  tagIds: tagIds.optional(),
  billable: z.boolean().optional(),
};

export const createTimeEntryBody = z.object({
  start: instant,
  end: instant.optional(),
  duration: durationInput.optional(),
  /** Someone else's timesheet (needs time:edit-others). */
  userId: z.uuid().optional(),
  ...entryFields,
});
export type CreateTimeEntryBody = z.input<typeof createTimeEntryBody>;

export const updateTimeEntryBody = z.object({
  start: instant.optional(),
  end: instant.optional(),
  duration: durationInput.optional(),
  ...entryFields,
});
export type UpdateTimeEntryBody = z.input<typeof updateTimeEntryBody>;

export const startTimerBody = z.object({ ...entryFields, userId: z.uuid().optional() });
export type StartTimerBody = z.input<typeof startTimerBody>;

export const bulkUpdateTimeEntriesBody = z.object({
  ids: z.array(z.uuid()).min(1, 'Choose at least one entry.').max(500, 'At most 500 entries at once.'),
  set: z.object({
    ...entryFields,
    /** Tags added to, or taken off, each entry's own tags (`tagIds` replaces them all instead). */
    addTagIds: tagIds.optional(),
    removeTagIds: tagIds.optional(),
  }),
});
export type BulkUpdateTimeEntriesBody = z.input<typeof bulkUpdateTimeEntriesBody>;
export const bulkDeleteTimeEntriesBody = z.object({
  ids: z.array(z.uuid()).min(1, 'Choose at least one entry.').max(500, 'At most 500 entries at once.'),
});

const booleanText = z.enum(['true', 'false']).transform((v) => v === 'true');

export const listTimeEntriesQuery = z.object({
  from: instant.optional(),
  to: instant.optional(),
  userId: z.union([z.uuid(), z.literal('all')]).optional(),
  projectId: z.uuid().optional(),
  taskId: z.uuid().optional(),
  tagId: z.uuid().optional(),
  billable: booleanText.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  cursor: text({ trim: false, max: 200 }).optional(),
});

export const timeEntryView = z.object({
  id: z.uuid(),
  workspaceId: z.uuid(),
  userId: z.uuid(),
  projectId: z.uuid().nullable(),
  taskId: z.uuid().nullable(),
  tagIds: z.array(z.uuid()),
  note: z.string(),
  billable: z.boolean(),
  start: z.string(),
  end: z.string().nullable(),
  isRunning: z.boolean(),
  isPaused: z.boolean(),
  breaks: z.array(z.object({ start: z.string(), end: z.string().nullable() })),
  /** Work seconds without breaks; for a running entry, up to the moment of the answer. */
  durationSeconds: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Hourly rates (integer cents, the workspace's currency) copied onto the entry at its start, and
   * its amounts (`amountCents`; billable amount 0 when not billable). null when there is no rate or
   * the viewer may not see it (cost: owners and admins; billable: managers of the person too).
   */
  billableRateCents: z.number().int().nullable(),
  billableAmountCents: z.number().int().nullable(),
  costRateCents: z.number().int().nullable(),
  costAmountCents: z.number().int().nullable(),
  /**
   * Why the viewer may not change the entry (`timeLockOf`, the rule the writes check), or null.
   * The listing and one entry's answer carry it; a write's answer says null (the write passed the
   * check), and the listing read after it is the truth.
   */
  lock: timeLockView.nullable(),
});
export type TimeEntryView = z.infer<typeof timeEntryView>;

/**
 * A running timer of the team (the real-time dashboard): the entry, whose it is, and the names
 * to show for its project and task.
 */
export const runningTimerView = z.object({
  entry: timeEntryView,
  userName: z.string(),
  projectName: z.string().nullable(),
  projectColor: z.string().nullable(),
  taskName: z.string().nullable(),
});
export type RunningTimerView = z.infer<typeof runningTimerView>;

export const timeSettingsView = z.object({
  requireProject: z.boolean(),
  requireTask: z.boolean(),
  requireTag: z.boolean(),
  requireNote: z.boolean(),
  roundingMode: z.enum(ROUNDING_MODES),
  roundingMinutes: z.union(ROUNDING_MINUTES.map((m) => z.literal(m))),
  /** Longest allowed entry, in minutes (24 h unless changed). */
  maxEntryMinutes: z.number().int().min(1).max(10_080),
  /** How far after now an entry may end, in minutes. */
  futureLimitMinutes: z.number().int().min(0).max(525_600),
  /**
   * The zone reports use unless a viewer asks for another (an IANA zone): local days, weeks and
   * months of the workspace's figures. Seeded from the owner's zone.
   */
  reportTimeZone: timeZoneSchema,
});
export type TimeSettings = z.infer<typeof timeSettingsView>;
export const updateTimeSettingsBody = timeSettingsView.partial();

export const DEFAULT_TIME_SETTINGS: TimeSettings = {
  requireProject: false,
  requireTask: false,
  requireTag: false,
  requireNote: false,
  roundingMode: 'none',
  roundingMinutes: 15,
  maxEntryMinutes: 1440,
  futureLimitMinutes: 1440,
  reportTimeZone: 'UTC',
};

/** A change to someone's time entries, as the live stream sends it. */
export const timeEntryEvent = z.object({
  type: z.enum(['created', 'updated', 'deleted']),
  workspaceId: z.uuid(),
  userId: z.uuid(),
  entryIds: z.array(z.uuid()),
});
export type TimeEntryEvent = z.infer<typeof timeEntryEvent>;
