import {
  type CalendarEventEntryBody,
  type CalendarEventView,
  type CalendarRuleBody,
  type CalendarRuleView,
  type CalendarSubscriptionView,
  type CreateCalendarSubscriptionBody,
  calendarEventEntryBody,
  calendarRuleBody,
  createCalendarSubscriptionBody,
  httpOfCalendarUrl,
  type TimeEntryView,
} from '@sundial/core';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/connection.js';
import { assertCan } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { audit } from '../../platform/audit.js';
import { AppError, notFound, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { defineJob, type JobRunner } from '../../platform/jobs.js';
import { sendOutbound } from '../../platform/outbound-http.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { TimeEntriesService } from '../time-entries/time-entries.service.js';
import { usersService } from '../users/users.service.js';
import { readCalendar } from './calendars.ics.js';
import type { ParsedOccurrence } from './calendars.repository.js';
import {
  type ListedEvent,
  type RuleRow,
  calendarSubscriptionsRepository as repo,
  type SubscriptionRow,
} from './calendars.subscriptions.repository.js';

/** Every hour: each subscribed calendar read again. */
export const refreshCalendarsJob = defineJob('calendars.refresh', z.object({}));

const DAY_MS = 86_400_000;
/** The events kept: this many days back and ahead of the refresh. */
const PAST_DAYS = 60;
const FUTURE_DAYS = 60;
const FETCH = { timeoutMs: 15_000, maxBytes: 5_000_000, maxRedirects: 3 } as const;
const USER_AGENT = 'Sundial-Calendar/1.0';
const sealContext = (id: string) => `calendar-subscription:${id}`;

export interface SubscriptionDeps {
  db: Db;
  timeEntries: Pick<TimeEntriesService, 'create'>;
  secrets: SecretBox;
  jobs: JobRunner;
  /** OUTBOUND_ALLOW_PRIVATE_TARGETS. */
  allowPrivateTargets: boolean;
  now: () => Date;
  log?: FastifyBaseLogger;
}

const subscriptionView = (row: SubscriptionRow & { event_count?: number }): CalendarSubscriptionView => ({
  id: row.id,
  name: row.name,
  host: row.host,
  createdAt: row.created_at.toISOString(),
  refreshedAt: row.refreshed_at?.toISOString() ?? null,
  lastError: row.last_error,
  eventCount: row.event_count ?? 0,
});

const ruleView = (row: RuleRow): CalendarRuleView => ({
  id: row.id,
  contains: row.contains,
  projectId: row.project_id,
  taskId: row.task_id,
  createdAt: row.created_at.toISOString(),
});

/** What the event's series was given last time, else the first keyword rule its title matches. */
function proposalOf(event: ListedEvent, rules: readonly RuleRow[]): CalendarEventView['proposal'] {
  if (event.chosen_project_id) {
    return { projectId: event.chosen_project_id, taskId: event.chosen_task_id, source: 'remembered' };
  }
  const title = event.title.toLocaleLowerCase();
  const rule = rules.find((r) => title.includes(r.contains.toLocaleLowerCase()));
  return rule ? { projectId: rule.project_id, taskId: rule.task_id, source: 'rule' } : null;
}

/**
 * A person's own calendars, subscribed by their secret ICS address (webcal:// read as https://),
 * fetched through the SSRF guard, read hourly and on demand; their timed events shown beside the
 * timesheet, each turned into a time entry in one click through the time-entries service, the
 * project and task chosen remembered for the event's next occurrences; keyword rules propose a
 * project from a title.
 */
export function createCalendarSubscriptions(deps: SubscriptionDeps) {
  const { db, timeEntries, secrets, jobs, now: clock } = deps;

  /** The calendar's text, or why it could not be read (`refused`: a private address). */
  async function fetchCalendar(url: string): Promise<{ text: string } | { error: string; refused: boolean }> {
    const result = await sendOutbound(url, {
      method: 'GET',
      headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': USER_AGENT },
      allowPrivate: deps.allowPrivateTargets,
      purpose: 'calendar subscriptions',
      ...FETCH,
    });
    if (!result.ok || result.body === null) {
      return { error: result.error ?? 'The calendar could not be read.', refused: result.refused };
    }
    return { text: result.body };
  }

  /** The timed occurrences of the window, or why the text is not a calendar. */
  function parse(text: string, who: Actor['user'], at: Date): ParsedOccurrence[] | { error: string } {
    try {
      return readCalendar(text, {
        from: new Date(at.getTime() - PAST_DAYS * DAY_MS),
        to: new Date(at.getTime() + FUTURE_DAYS * DAY_MS),
        email: who.email,
        timeZone: who.time_zone,
      });
    } catch {
      return { error: 'This address does not answer with a calendar (iCalendar, .ics).' };
    }
  }

  const calendarNameOf = (text: string) =>
    /^X-WR-CALNAME:(.+)$/m
      .exec(text)?.[1]
      ?.trim()
      .replace(/\\([,;\\])/g, '$1')
      .slice(0, 100);

  /** Reads a stored subscription again: its events replaced, or the failure recorded. */
  async function refreshRow(row: SubscriptionRow, owner: Actor['user']): Promise<void> {
    const at = clock();
    const fetched = await fetchCalendar(secrets.open(row.url_sealed, sealContext(row.id)));
    const parsed = 'text' in fetched ? parse(fetched.text, owner, at) : { error: fetched.error };
    await db.transaction().execute(async (tx) => {
      if (Array.isArray(parsed))
        await repo.replaceEvents(tx, { id: row.id, workspaceId: row.workspace_id }, parsed, newId);
      await repo.markRefreshed(tx, row.id, at, Array.isArray(parsed) ? null : parsed.error);
    });
  }

  async function getSubscription(actor: Actor, id: string): Promise<SubscriptionRow> {
    const row = await repo.find(db, actor.membership.workspace.id, actor.userId, id);
    if (!row) throw notFound('Calendar not found.');
    return row;
  }

  async function listView(actor: Actor, id: string): Promise<CalendarSubscriptionView> {
    const all = await repo.list(db, actor.membership.workspace.id, actor.userId);
    const row = all.find((s) => s.id === id);
    if (!row) throw notFound('Calendar not found.');
    return subscriptionView(row);
  }

  async function assertProjectHere(actor: Actor, projectId: string, taskId: string | null | undefined) {
    const ok = await repo.projectAndTaskIn(db, actor.membership.workspace.id, projectId, taskId ?? null);
    if (!ok.project) throw validationError({ projectId: 'Project not found.' });
    if (taskId && !ok.task) throw validationError({ taskId: 'This task is not one of the project’s.' });
  }

  return {
    async subscriptions(actor: Actor): Promise<CalendarSubscriptionView[]> {
      return (await repo.list(db, actor.membership.workspace.id, actor.userId)).map(subscriptionView);
    },

    /**
     * Subscribes the person to a calendar: it is read at once, so an address that is refused
     * (a private or local one), does not answer, or is not a calendar is a 422 on `url` and nothing
     * is kept. The address is sealed; only its host is ever shown.
     */
    async subscribe(actor: Actor, input: CreateCalendarSubscriptionBody): Promise<CalendarSubscriptionView> {
      assertCan(actor, 'time:track');
      const body = createCalendarSubscriptionBody.parse(input);
      const url = httpOfCalendarUrl(body.url);
      const at = clock();
      const fetched = await fetchCalendar(url);
      if ('error' in fetched) {
        throw validationError({
          url: fetched.refused ? fetched.error : `We could not read this calendar: ${fetched.error}`,
        });
      }
      const parsed = parse(fetched.text, actor.user, at);
      if (!Array.isArray(parsed)) throw validationError({ url: parsed.error });
      const workspaceId = actor.membership.workspace.id;
      const id = newId();
      const host = new URL(url).host;
      await db.transaction().execute(async (tx) => {
        const row = await repo.insert(tx, {
          id,
          workspaceId,
          userId: actor.userId,
          name: body.name || calendarNameOf(fetched.text) || host,
          host,
          urlSealed: secrets.seal(url, sealContext(id)),
        });
        await repo.replaceEvents(tx, { id, workspaceId }, parsed, newId);
        await repo.markRefreshed(tx, id, at, null);
        await audit(tx, {
          action: 'calendar_subscription.created',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: row.id,
          detail: { name: row.name, host },
        });
      });
      return listView(actor, id);
    },

    /** Unsubscribes: the calendar and its events go; entries made from them stay. */
    async unsubscribe(actor: Actor, id: string): Promise<void> {
      const workspaceId = actor.membership.workspace.id;
      await db.transaction().execute(async (tx) => {
        const name = await repo.remove(tx, workspaceId, actor.userId, id);
        if (name === undefined) throw notFound('Calendar not found.');
        await audit(tx, {
          action: 'calendar_subscription.deleted',
          actorUserId: actor.userId,
          workspaceId,
          subjectId: id,
          detail: { name },
        });
      });
    },

    /** Reads one of the person's calendars now; a failure is in the answer's `lastError`. */
    async refresh(actor: Actor, id: string): Promise<CalendarSubscriptionView> {
      await refreshRow(await getSubscription(actor, id), actor.user);
      return listView(actor, id);
    },

    /** Reads every subscribed calendar again (the hourly job); one failing never stops the others. */
    async refreshAll(): Promise<number> {
      let after: string | null = null;
      let count = 0;
      for (;;) {
        const page = await repo.page(db, after, 100);
        for (const row of page) {
          const owner = await usersService.findById(db, row.user_id);
          if (!owner) continue;
          await refreshRow(row, owner).catch((error: unknown) =>
            deps.log?.warn({ err: error, subscriptionId: row.id }, 'could not refresh a calendar'),
          );
          count += 1;
        }
        const last = page.at(-1);
        if (!last || page.length < 100) return count;
        after = last.id;
      }
    },

    /** The person's calendar events overlapping [from, to), each with the project it proposes. */
    async events(actor: Actor, range: { from: string; to: string }): Promise<CalendarEventView[]> {
      const workspaceId = actor.membership.workspace.id;
      const from = new Date(range.from);
      const to = new Date(range.to);
      if (to < from) throw validationError({ to: 'The end of the range must be after its start.' });
      const [events, rules] = await Promise.all([
        repo.events(db, workspaceId, actor.userId, { from, to }),
        repo.rules(db, workspaceId, actor.userId),
      ]);
      return events.map((event) => ({
        id: event.id,
        subscriptionId: event.subscription_id,
        calendarName: event.calendar_name,
        title: event.title,
        location: event.location,
        start: event.start_at.toISOString(),
        end: event.end_at.toISOString(),
        recurring: event.recurring,
        proposal: proposalOf(event, rules),
        entryId: event.time_entry_id,
      }));
    },

    /**
     * Turns an event into the person's time entry (its times, its title as the note) through the
     * time-entries service, with the project and task given, else those it proposes; remembers them
     * for the event's series. 409 when an entry was made from it already; the entry's own rules
     * (locks, required fields, project access) answer as they do for any entry.
     */
    async eventToEntry(
      actor: Actor,
      eventId: string,
      input: CalendarEventEntryBody,
      idempotencyKey?: string,
    ): Promise<{ status: number; body: TimeEntryView }> {
      const body = calendarEventEntryBody.parse(input);
      const workspaceId = actor.membership.workspace.id;
      const event = await repo.findEvent(db, workspaceId, actor.userId, eventId);
      if (!event) throw notFound('Calendar event not found.');
      if (event.time_entry_id) {
        throw new AppError('calendar_event_entered', 'This event is in your time already.', { status: 409 });
      }
      const proposal = proposalOf(event, await repo.rules(db, workspaceId, actor.userId));
      const projectId = body.projectId !== undefined ? body.projectId : (proposal?.projectId ?? null);
      const taskId =
        body.taskId !== undefined ? body.taskId : body.projectId === undefined ? (proposal?.taskId ?? null) : null;
      const created = await timeEntries.create(
        actor,
        { start: event.start_at.toISOString(), end: event.end_at.toISOString(), projectId, taskId, note: event.title },
        idempotencyKey,
      );
      await db.transaction().execute(async (tx) => {
        await repo.linkEntry(tx, event.id, created.body.id);
        await repo.choose(
          tx,
          {
            workspaceId,
            subscriptionId: event.subscription_id,
            uid: event.uid,
            projectId,
            taskId: created.body.taskId,
          },
          clock(),
        );
      });
      return created;
    },

    async rules(actor: Actor): Promise<CalendarRuleView[]> {
      return (await repo.rules(db, actor.membership.workspace.id, actor.userId)).map(ruleView);
    },

    /** A keyword rule of the person's: "title contains X: project Y (task Z)". 422 on a project not here. */
    async addRule(actor: Actor, input: CalendarRuleBody): Promise<CalendarRuleView> {
      assertCan(actor, 'time:track');
      const body = calendarRuleBody.parse(input);
      await assertProjectHere(actor, body.projectId, body.taskId);
      const row = await db.transaction().execute((tx) =>
        repo.insertRule(tx, {
          id: newId(),
          workspaceId: actor.membership.workspace.id,
          userId: actor.userId,
          contains: body.contains,
          projectId: body.projectId,
          taskId: body.taskId ?? null,
        }),
      );
      return ruleView(row);
    },

    async removeRule(actor: Actor, id: string): Promise<void> {
      const removed = await db
        .transaction()
        .execute((tx) => repo.removeRule(tx, actor.membership.workspace.id, actor.userId, id));
      if (!removed) throw notFound('Rule not found.');
    },

    registerJobs(): void {
      jobs.register(refreshCalendarsJob, async () => {
        await this.refreshAll();
      });
      jobs.schedule(refreshCalendarsJob, '41 * * * *', {});
    },
  };
}
