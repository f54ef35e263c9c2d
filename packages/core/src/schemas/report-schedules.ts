import { z } from 'zod';
import { timeZoneSchema } from './auth.js';

/**
 * Scheduled reports (issue 15): a saved report e-mailed daily, weekly or monthly at a local hour
 * of a time zone (its owner's when it is created), as a PDF, XLSX or CSV attachment, to members
 * of the workspace and other addresses. The report's date range is the saved report's own preset
 * ("last week"), resolved at the moment of sending in the schedule's zone.
 */

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
export const SCHEDULE_FORMATS = ['pdf', 'xlsx', 'csv'] as const;
export type ScheduleFormat = (typeof SCHEDULE_FORMATS)[number];
/** active: sends at next_run_at; paused: by its owner; failed: its last send failed every attempt. */
export const SCHEDULE_STATES = ['active', 'paused', 'failed'] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];
/** The most recipients (members and addresses together) one schedule mails. */
export const MAX_SCHEDULE_RECIPIENTS = 50;
/** Monthly sends go out on day 1 to 28, which every month has. */
export const MAX_SCHEDULE_MONTH_DAY = 28;

export const reportScheduleMessages = {
  frequency: 'Send it daily, weekly or monthly.',
  weekday: 'Choose the day of the week (0 is Sunday, 6 is Saturday).',
  monthDay: `Choose a day of the month from 1 to ${MAX_SCHEDULE_MONTH_DAY}.`,
  hour: 'Choose an hour from 0 to 23.',
  format: 'Send it as PDF, XLSX or CSV.',
  email: (value: string) => `“${value}” is not an e-mail address.`,
  noRecipients: 'Add at least one member or e-mail address.',
  tooManyRecipients: `A schedule mails at most ${MAX_SCHEDULE_RECIPIENTS} recipients.`,
  unknownMember: 'Some of the chosen people are not active members of this workspace.',
  notFound: 'This saved report has no e-mail schedule.',
  onlyOwner: 'Only the person who saved this report may schedule it.',
  notSchedulable: 'A Detailed report cannot be scheduled yet: schedule a Summary or a matrix report.',
  alreadyPaused: 'The schedule is already paused.',
} as const;

const msg = reportScheduleMessages;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const recipientEmail = z
  .string()
  .trim()
  .max(254)
  .superRefine((value, ctx) => {
    if (!EMAIL.test(value) || !z.email().safeParse(value).success)
      ctx.addIssue({ code: 'custom', message: msg.email(value) });
  })
  .transform((value) => value.toLowerCase());

export const reportScheduleBody = z
  .object({
    frequency: z.enum(SCHEDULE_FREQUENCIES, { error: msg.frequency }),
    /** Weekly: 0 Sunday … 6 Saturday. */
    weekday: z.number({ error: msg.weekday }).int(msg.weekday).min(0, msg.weekday).max(6, msg.weekday).nullish(),
    /** Monthly: 1 … 28. */
    monthDay: z
      .number({ error: msg.monthDay })
      .int(msg.monthDay)
      .min(1, msg.monthDay)
      .max(MAX_SCHEDULE_MONTH_DAY, msg.monthDay)
      .nullish(),
    hour: z.number({ error: msg.hour }).int(msg.hour).min(0, msg.hour).max(23, msg.hour),
    /** The zone of `hour`; the owner's own when left out. */
    timeZone: timeZoneSchema.optional(),
    format: z.enum(SCHEDULE_FORMATS, { error: msg.format }),
    recipientUserIds: z
      .array(z.uuid({ error: msg.unknownMember }))
      .max(MAX_SCHEDULE_RECIPIENTS, msg.tooManyRecipients)
      .default([]),
    recipientEmails: z.array(recipientEmail).max(MAX_SCHEDULE_RECIPIENTS, msg.tooManyRecipients).default([]),
  })
  .superRefine((value, ctx) => {
    if (value.frequency === 'weekly' && (value.weekday === null || value.weekday === undefined))
      ctx.addIssue({ code: 'custom', path: ['weekday'], message: msg.weekday });
    if (value.frequency === 'monthly' && (value.monthDay === null || value.monthDay === undefined))
      ctx.addIssue({ code: 'custom', path: ['monthDay'], message: msg.monthDay });
    const count = new Set(value.recipientUserIds).size + new Set(value.recipientEmails).size;
    if (count === 0) ctx.addIssue({ code: 'custom', path: ['recipientEmails'], message: msg.noRecipients });
    if (count > MAX_SCHEDULE_RECIPIENTS)
      ctx.addIssue({ code: 'custom', path: ['recipientEmails'], message: msg.tooManyRecipients });
  })
  .transform((value) => ({
    ...value,
    weekday: value.frequency === 'weekly' ? (value.weekday ?? 1) : null,
    monthDay: value.frequency === 'monthly' ? (value.monthDay ?? 1) : null,
    recipientUserIds: [...new Set(value.recipientUserIds)],
    recipientEmails: [...new Set(value.recipientEmails)],
  }));
export type ReportScheduleBody = z.input<typeof reportScheduleBody>;
export type ReportScheduleInput = z.output<typeof reportScheduleBody>;

export const reportScheduleView = z.object({
  id: z.string(),
  savedReportId: z.string(),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  weekday: z.number().nullable(),
  monthDay: z.number().nullable(),
  hour: z.number(),
  timeZone: z.string(),
  format: z.enum(SCHEDULE_FORMATS),
  recipientUserIds: z.array(z.string()),
  recipientEmails: z.array(z.string()),
  state: z.enum(SCHEDULE_STATES),
  /** The next send; null while paused or failed. */
  nextRunAt: z.string().nullable(),
  lastSentAt: z.string().nullable(),
  /** Why the last send failed (cleared by the next success). */
  lastError: z.string().nullable(),
  /** Failed attempts of the current send (0 after a success). */
  failedAttempts: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReportScheduleView = z.infer<typeof reportScheduleView>;
/** A saved report's schedule, or null when it has none. */
export const reportScheduleEnvelope = z.object({ schedule: reportScheduleView.nullable() });
export type ReportScheduleEnvelope = z.infer<typeof reportScheduleEnvelope>;

/** The answer to "send now": the send is queued and goes out within a minute. */
export const reportScheduleSendView = z.object({ queued: z.literal(true) });
