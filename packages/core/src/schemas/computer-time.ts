import { z } from 'zod';
import { ACTIVITY_KEEP, AGENT_PLATFORMS, type AgentPlatform } from '../activity/agent.js';
import { daySchema } from './rates.js';
import { queryIds } from './reports.js';
import { instantSchema, text } from './text.js';

/**
 * Computer time as the app reads and sets it (issue 35): the devices a person paired, the
 * workspace's activity settings, and the spans and daily seconds the pages show. What the agent
 * itself sends and receives is in activity.ts.
 */

export const computerTimeMessages = {
  userCode: 'Enter the code the agent shows, eight letters such as ABCD-EFGH.',
  idleSeconds: 'Away time starts after 60 to 3600 seconds without input.',
  retentionDays: 'Keep activity for 30 to 3650 days, or forever.',
  exclusionPattern: 'A pattern is 1 to 200 characters.',
  exclusions: 'At most 100 exclusion rules.',
} as const;

/** The platforms' names as people know them. */
export const AGENT_PLATFORM_LABELS: Record<AgentPlatform, string> = {
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
};

/** Letters a person reads and types without confusing them (no I, L, O, U, 0 or 1 lookalikes). */
export const USER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ';

/** A user code as typed: case and the dash do not matter; answers the eight letters, or undefined. */
export function normalizeUserCode(value: string): string | undefined {
  const letters = value.replace(/[\s-]/g, '').toUpperCase();
  if (letters.length !== 8) return undefined;
  for (const letter of letters) if (!USER_CODE_ALPHABET.includes(letter)) return undefined;
  return letters;
}

/** `ABCDEFGH` as people read it: `ABCD-EFGH`. */
export const formatUserCode = (letters: string): string => `${letters.slice(0, 4)}-${letters.slice(4)}`;

const userCode = z
  .string({ error: computerTimeMessages.userCode })
  .max(20, computerTimeMessages.userCode)
  .refine((value) => normalizeUserCode(value) !== undefined, computerTimeMessages.userCode);

/** What the pairing page shows of a code before the person approves it. */
export const deviceCodeLookupView = z.object({
  userCode: z.string(),
  name: z.string(),
  platform: z.enum(AGENT_PLATFORMS),
  agentVersion: z.string(),
  expiresAt: z.string(),
});
export type DeviceCodeLookupView = z.infer<typeof deviceCodeLookupView>;

export const deviceCodeParams = z.object({ userCode });

export const approveDeviceCodeBody = z.object({
  userCode,
  workspaceId: z.uuid({ error: 'Choose a workspace.' }),
});
export type ApproveDeviceCodeBody = z.infer<typeof approveDeviceCodeBody>;

export const denyDeviceCodeBody = z.object({ userCode });
export type DenyDeviceCodeBody = z.infer<typeof denyDeviceCodeBody>;

/** A paired computer, as its person's profile lists it. */
export const deviceView = z.object({
  id: z.string(),
  name: z.string(),
  platform: z.enum(AGENT_PLATFORMS),
  agentVersion: z.string(),
  workspace: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.string(),
  /** The last request the device made, to the minute; null before its first. */
  lastSeenAt: z.string().nullable(),
});
export type DeviceView = z.infer<typeof deviceView>;
export const deviceListView = z.object({ items: z.array(deviceView) });

const exclusion = z.object({
  field: z.enum(['app', 'title'], { error: 'An exclusion matches the application (app) or the title.' }),
  pattern: z
    .string()
    .trim()
    .min(1, computerTimeMessages.exclusionPattern)
    .max(200, computerTimeMessages.exclusionPattern),
});

/** A workspace's activity settings (owners and admins change them: `computer_time:settings`). */
export const computerTimeSettingsBody = z.object({
  keep: z.enum(ACTIVITY_KEEP, { error: 'Keep apps, titles or sites.' }),
  idleSeconds: z
    .number({ error: computerTimeMessages.idleSeconds })
    .int(computerTimeMessages.idleSeconds)
    .min(60, computerTimeMessages.idleSeconds)
    .max(3600, computerTimeMessages.idleSeconds),
  /** null keeps activity forever. */
  retentionDays: z
    .number({ error: computerTimeMessages.retentionDays })
    .int(computerTimeMessages.retentionDays)
    .min(30, computerTimeMessages.retentionDays)
    .max(3650, computerTimeMessages.retentionDays)
    .nullable(),
  /** Managers (and admins) see their people's activity; off, each person sees only their own. */
  managersSeeActivity: z.boolean({ error: 'managersSeeActivity is true or false.' }),
  exclusions: z.array(exclusion).max(100, computerTimeMessages.exclusions),
});
export type ComputerTimeSettingsBody = z.infer<typeof computerTimeSettingsBody>;

export const computerTimeSettingsView = computerTimeSettingsBody;
export type ComputerTimeSettingsView = z.infer<typeof computerTimeSettingsView>;

export const DEFAULT_COMPUTER_TIME_SETTINGS: ComputerTimeSettingsView = {
  keep: 'titles',
  idleSeconds: 180,
  retentionDays: null,
  managersSeeActivity: false,
  exclusions: [],
};

/** The longest range of spans one read returns. */
export const SPANS_MAX_DAYS = 7;

export const activitySpansQuery = z.object({
  /** Whose spans: the reader's own unless given. */
  userId: z.uuid({ error: 'userId must be an id.' }).optional(),
  from: instantSchema,
  to: instantSchema,
});

export const activitySpanView = z.object({
  id: z.string(),
  deviceId: z.string(),
  kind: z.enum(['active', 'away']),
  startedAt: z.string(),
  endedAt: z.string(),
  app: z.string().nullable(),
  title: z.string().nullable(),
  url: z.string().nullable(),
  awayReason: z.enum(['idle', 'locked', 'suspended']).nullable(),
});
export type ActivitySpanView = z.infer<typeof activitySpanView>;
export const activitySpanListView = z.object({ items: z.array(activitySpanView) });

export const deleteActivityQuery = z.object({ from: instantSchema, to: instantSchema });
export const deletedActivityView = z.object({ deleted: z.number().int(), trimmed: z.number().int() });

/** Seconds per person, day (in the person's time zone) and application, first and last day inclusive. */
export const activitiesQuery = z.object({
  from: daySchema,
  to: daySchema,
  /** Everyone the reader may see unless given. */
  userIds: queryIds('people'),
  /**
   * "true": the people's seconds added up per day and application, each item's `userId` null (what
   * the Activities page shows: a month of 100 people is then about 1,700 items, not 54,000).
   */
  together: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

export const activityDayView = z.object({
  /** Null when the people were added up (`together`). */
  userId: z.string().nullable(),
  day: z.string(),
  app: z.string(),
  /** The host of the pages (where the workspace keeps sites), null for the application's other time. */
  site: z.string().nullable(),
  seconds: z.number().int(),
});
export type ActivityDayView = z.infer<typeof activityDayView>;
export const activityDayListView = z.object({ items: z.array(activityDayView) });

// ---- away time (issue 35): what people say they were doing while away from the computer

export const awayMessages = {
  name: 'An away activity’s name is 1 to 60 characters.',
  id: 'An away activity’s id is 1 to 40 letters, digits or dashes.',
  makes: 'An away activity makes a time entry (entry) or a break (break).',
  max: 'At most 30 away activities.',
  unique: 'Two away activities have the same name.',
  uniqueId: 'Two away activities have the same id.',
  taskWithoutProject: 'Choose the project of the task.',
} as const;

export const AWAY_OUTCOMES = ['entry', 'break', 'dismissed'] as const;
export type AwayOutcome = (typeof AWAY_OUTCOMES)[number];
export const AWAY_REASONS = ['idle', 'locked', 'suspended'] as const;
export type AwayReason = (typeof AWAY_REASONS)[number];

/** One of the workspace's away activities: "Meeting" makes an entry (on a default project), "Lunch" a break. */
export const awayActivity = z
  .object({
    id: z.string({ error: awayMessages.id }).regex(/^[a-z0-9-]{1,40}$/, awayMessages.id),
    name: text({ max: 60, min: 1, required: awayMessages.name, tooLong: awayMessages.name }),
    makes: z.enum(['entry', 'break'], { error: awayMessages.makes }),
    projectId: z.uuid({ error: 'Project not found.' }).nullable().default(null),
    taskId: z.uuid({ error: 'Task not found.' }).nullable().default(null),
  })
  .refine((a) => a.taskId === null || a.projectId !== null, {
    message: awayMessages.taskWithoutProject,
    path: ['taskId'],
  });
export type AwayActivity = z.infer<typeof awayActivity>;

export const awayActivitiesBody = z
  .object({ items: z.array(awayActivity).max(30, awayMessages.max) })
  .superRefine(({ items }, ctx) => {
    const names = new Set<string>();
    const ids = new Set<string>();
    items.forEach((item, i) => {
      const name = item.name.toLowerCase();
      if (names.has(name)) ctx.addIssue({ code: 'custom', message: awayMessages.unique, path: ['items', i, 'name'] });
      if (ids.has(item.id)) ctx.addIssue({ code: 'custom', message: awayMessages.uniqueId, path: ['items', i, 'id'] });
      names.add(name);
      ids.add(item.id);
    });
  });
export type AwayActivitiesBody = z.input<typeof awayActivitiesBody>;
export const awayActivityListView = z.object({ items: z.array(awayActivity) });
export type AwayActivityListView = z.infer<typeof awayActivityListView>;

/** The list a workspace has until an admin changes it. */
export const DEFAULT_AWAY_ACTIVITIES: AwayActivity[] = [
  { id: 'meeting', name: 'Meeting', makes: 'entry', projectId: null, taskId: null },
  { id: 'call', name: 'Phone call', makes: 'entry', projectId: null, taskId: null },
  { id: 'break', name: 'Break', makes: 'break', projectId: null, taskId: null },
  { id: 'lunch', name: 'Lunch', makes: 'break', projectId: null, taskId: null },
];

/** The longest range of away periods one read returns. */
export const AWAY_MAX_DAYS = 31;

export const awayPeriodsQuery = z.object({
  /** Whose away time: the reader's own unless given. */
  userId: z.uuid({ error: 'userId must be an id.' }).optional(),
  from: instantSchema,
  to: instantSchema,
});

export const awayResolutionView = z.object({
  outcome: z.enum(AWAY_OUTCOMES),
  /** The away activity chosen (its id then; it may have been removed since). */
  activityId: z.string().nullable(),
  /** The entry an 'entry' made (it stays when the resolution is undone). */
  entryId: z.string().nullable(),
  at: z.string(),
});
export type AwayResolutionView = z.infer<typeof awayResolutionView>;

/** One away period of a person: adjacent away spans (idle, then locked…) as one. */
export const awayPeriodView = z.object({
  start: z.string(),
  end: z.string(),
  seconds: z.number().int(),
  /** The reason that covers most of the period. */
  reason: z.enum(AWAY_REASONS),
  resolution: awayResolutionView.nullable(),
});
export type AwayPeriodView = z.infer<typeof awayPeriodView>;
export const awayPeriodListView = z.object({ items: z.array(awayPeriodView) });

/** Say what an away period was: a time entry, a break in the entries it overlaps, or nothing (dismissed). */
export const resolveAwayBody = z.object({
  start: instantSchema,
  end: instantSchema,
  outcome: z.enum(AWAY_OUTCOMES, { error: 'Say whether the period is an entry, a break or dismissed.' }),
  activityId: z.string().max(40, awayMessages.id).nullable().optional(),
  /** For an entry: the project and task (the activity's defaults unless given) and the note (the activity's name). */
  projectId: z.uuid({ error: 'Project not found.' }).nullable().optional(),
  taskId: z.uuid({ error: 'Task not found.' }).nullable().optional(),
  note: text({ max: 2000, tooLong: 'The note must be at most 2000 characters.' }).optional(),
});
export type ResolveAwayBody = z.input<typeof resolveAwayBody>;

export const resolvedAwayView = awayPeriodView.extend({
  /** For a break: how many of the person's entries got it. */
  entriesWithBreak: z.number().int(),
});
export type ResolvedAwayView = z.infer<typeof resolvedAwayView>;

export const deleteAwayResolutionQuery = z.object({ start: instantSchema });
