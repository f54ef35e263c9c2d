import { z } from 'zod';
import { ACTIVITY_KEEP, AGENT_PLATFORMS, type AgentPlatform } from '../activity/agent.js';
import { daySchema } from './rates.js';
import { queryIds } from './reports.js';
import { instantSchema } from './text.js';

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
