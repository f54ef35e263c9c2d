import { z } from 'zod';
import { instantSchema, text } from './text.js';

/**
 * Calendars both ways: a private iCalendar feed of a person's time (Out), and the person's own
 * calendars subscribed by their secret ICS address, whose timed events become time in one click (In).
 */

// ---- Out: the feed

/** The feed's window: this many days back and ahead of now. */
export const CALENDAR_FEED_PAST_DAYS = 90;
export const CALENDAR_FEED_FUTURE_DAYS = 30;

export const calendarFeedBody = z
  .object({
    /** Managers (and whoever sees others' time): their people's entries too. */
    includeTeam: z.boolean({ error: 'Choose whether the feed includes your people’s time.' }).default(false),
  })
  .strict();
export type CalendarFeedBody = z.input<typeof calendarFeedBody>;

/** The feed of the person in the workspace, without its address (shown once, when made or reset). */
export const calendarFeedView = z.object({
  exists: z.boolean(),
  includeTeam: z.boolean(),
  /** Whether the person may include their people's time (time:view_others). */
  canIncludeTeam: z.boolean(),
  createdAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type CalendarFeedView = z.infer<typeof calendarFeedView>;

/** A new or reset feed: its secret address is in this answer only. */
export const createdCalendarFeedView = calendarFeedView.extend({ url: z.string(), webcalUrl: z.string() });
export type CreatedCalendarFeedView = z.infer<typeof createdCalendarFeedView>;

// ---- In: subscriptions

export const calendarMessages = {
  urlRequired: 'Paste your calendar’s secret address (it ends in .ics).',
  urlInvalid: 'Enter a whole address, like https://calendar.google.com/calendar/ical/…/basic.ics.',
  urlScheme: 'Only https://, http:// and webcal:// addresses can be subscribed.',
  urlCredentials: 'Leave the user name and password out of the address.',
} as const;

/** webcal:// is https:// (how calendar apps spell a subscription). */
export const httpOfCalendarUrl = (value: string): string => value.trim().replace(/^webcals?:\/\//i, 'https://');

const calendarUrl = text({ min: 1, max: 2000, required: calendarMessages.urlRequired }).superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(httpOfCalendarUrl(value));
  } catch {
    ctx.addIssue({ code: 'custom', message: calendarMessages.urlInvalid });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: calendarMessages.urlScheme });
  } else if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: calendarMessages.urlCredentials });
  }
});

export const createCalendarSubscriptionBody = z
  .object({
    url: calendarUrl,
    name: text({ max: 100, tooLong: 'Keep the name under 100 characters.' }).optional(),
  })
  .strict();
export type CreateCalendarSubscriptionBody = z.input<typeof createCalendarSubscriptionBody>;

export const calendarSubscriptionView = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The address's host only: the rest is the calendar's secret. */
  host: z.string(),
  createdAt: z.string(),
  refreshedAt: z.string().nullable(),
  /** Why the last refresh failed, or null. */
  lastError: z.string().nullable(),
  eventCount: z.number().int(),
});
export type CalendarSubscriptionView = z.infer<typeof calendarSubscriptionView>;
export const calendarSubscriptionListView = z.object({ items: z.array(calendarSubscriptionView) });

export const calendarEventsQuery = z.object({
  from: instantSchema,
  to: instantSchema,
});

/** Where a proposed project comes from: what the same event was given last time, or a keyword rule. */
export const CALENDAR_PROPOSAL_SOURCES = ['remembered', 'rule'] as const;

export const calendarEventView = z.object({
  id: z.uuid(),
  subscriptionId: z.uuid(),
  calendarName: z.string(),
  title: z.string(),
  location: z.string(),
  start: z.string(),
  end: z.string(),
  /** A recurring event's instance (its series remembers the project chosen). */
  recurring: z.boolean(),
  proposal: z
    .object({
      projectId: z.uuid(),
      taskId: z.uuid().nullable(),
      source: z.enum(CALENDAR_PROPOSAL_SOURCES),
    })
    .nullable(),
  /** The time entry made from it, when one was. */
  entryId: z.uuid().nullable(),
});
export type CalendarEventView = z.infer<typeof calendarEventView>;
export const calendarEventListView = z.object({ items: z.array(calendarEventView) });

export const calendarEventEntryBody = z
  .object({
    projectId: z.uuid({ error: 'Choose a project.' }).nullable().optional(),
    taskId: z.uuid({ error: 'Choose a task.' }).nullable().optional(),
  })
  .strict();
export type CalendarEventEntryBody = z.input<typeof calendarEventEntryBody>;

// ---- In: keyword rules

export const calendarRuleBody = z
  .object({
    contains: text({
      min: 1,
      max: 100,
      required: 'Enter the words an event’s title contains.',
      tooLong: 'Keep the words under 100 characters.',
    }),
    projectId: z.uuid({ error: 'Choose a project.' }),
    taskId: z.uuid({ error: 'Choose a task.' }).nullable().optional(),
  })
  .strict();
export type CalendarRuleBody = z.input<typeof calendarRuleBody>;

export const calendarRuleView = z.object({
  id: z.uuid(),
  contains: z.string(),
  projectId: z.uuid(),
  taskId: z.uuid().nullable(),
  createdAt: z.string(),
});
export type CalendarRuleView = z.infer<typeof calendarRuleView>;
export const calendarRuleListView = z.object({ items: z.array(calendarRuleView) });
