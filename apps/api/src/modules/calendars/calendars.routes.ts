import {
  calendarEventEntryBody,
  calendarEventListView,
  calendarEventsQuery,
  calendarFeedBody,
  calendarFeedView,
  calendarRuleBody,
  calendarRuleListView,
  calendarRuleView,
  calendarSubscriptionListView,
  calendarSubscriptionView,
  createCalendarSubscriptionBody,
  createdCalendarFeedView,
  timeEntryView,
} from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { idempotencyKeyOf } from '../../platform/idempotency.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['calendars'];
const feedPath = '/workspaces/:workspaceId/calendar-feed';
const subscriptions = '/workspaces/:workspaceId/calendar-subscriptions';
const rules = '/workspaces/:workspaceId/calendar-rules';
const subscriptionParams = workspaceParams.extend({ subscriptionId: z.uuid({ error: 'Calendar not found.' }) });
const eventParams = workspaceParams.extend({ eventId: z.uuid({ error: 'Calendar event not found.' }) });
const ruleParams = workspaceParams.extend({ ruleId: z.uuid({ error: 'Rule not found.' }) });

/** The private feed of one's time (Out), and the calendars one subscribes to (In). */
export const calendarsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { calendars } = app.services;

  app.get(
    feedPath,
    {
      schema: {
        tags,
        summary: 'Your calendar feed of your time here: whether you have one (never its address)',
        params: workspaceParams,
        response: { 200: calendarFeedView, ...errorResponses },
      },
    },
    async (request) => calendars.feed(actorOf(request)),
  );

  app.post(
    feedPath,
    {
      schema: {
        tags,
        summary: 'Make your calendar feed, or reset its address: the new address is in this answer only',
        params: workspaceParams,
        body: calendarFeedBody,
        response: { 201: createdCalendarFeedView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await calendars.issueFeed(actorOf(request), request.body)),
  );

  app.patch(
    feedPath,
    {
      schema: {
        tags,
        summary: 'Change what your calendar feed holds (its address stays)',
        params: workspaceParams,
        body: calendarFeedBody,
        response: { 200: calendarFeedView, ...errorResponses },
      },
    },
    async (request) => calendars.updateFeed(actorOf(request), request.body),
  );

  app.delete(
    feedPath,
    {
      schema: {
        tags,
        summary: 'Remove your calendar feed: its address stops working at once',
        params: workspaceParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await calendars.revokeFeed(actorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/calendar-feeds/:file',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'A calendar feed, without signing in: the secret address is the credential (text/calendar)',
        description:
          'For Google Calendar, Outlook and Apple Calendar ("subscribe by URL"): `<token>.ics`. Entries of the last ' +
          "90 days and the next 30 as events in UTC, a running timer up to now, read as the feed's owner with their " +
          "access of now. Reset and removed addresses answer 404. The token is redacted from the server's logs.",
        params: z.object({ file: z.string().max(200) }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const ics = await calendars.readFeed(request.params.file, { ip: request.ip });
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="sundial.ics"')
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(ics as never); // iCalendar text: only the errors have a JSON schema.
    },
  );

  // ---- In: calendars one subscribes to, their events, keyword rules

  app.get(
    subscriptions,
    {
      schema: {
        tags,
        summary: 'Your subscribed calendars here (each by its host only: the address is a secret)',
        params: workspaceParams,
        response: { 200: calendarSubscriptionListView, ...errorResponses },
      },
    },
    async (request) => ({ items: await calendars.subscriptions(actorOf(request)) }),
  );

  app.post(
    subscriptions,
    {
      schema: {
        tags,
        summary: 'Subscribe to a calendar by its secret ICS address (webcal:// too); it is read at once',
        params: workspaceParams,
        body: createCalendarSubscriptionBody,
        response: { 201: calendarSubscriptionView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await calendars.subscribe(actorOf(request), request.body)),
  );

  app.delete(
    `${subscriptions}/:subscriptionId`,
    {
      schema: {
        tags,
        summary: 'Unsubscribe from a calendar (entries made from its events stay)',
        params: subscriptionParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await calendars.unsubscribe(actorOf(request), request.params.subscriptionId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${subscriptions}/:subscriptionId/refresh`,
    {
      schema: {
        tags,
        summary: 'Read a subscribed calendar now (a failure is in lastError)',
        params: subscriptionParams,
        response: { 200: calendarSubscriptionView, ...errorResponses },
      },
    },
    async (request) => calendars.refresh(actorOf(request), request.params.subscriptionId),
  );

  app.get(
    '/workspaces/:workspaceId/calendar-events',
    {
      schema: {
        tags,
        summary: "Your calendars' timed events overlapping [from, to), each with the project it proposes",
        params: workspaceParams,
        querystring: calendarEventsQuery,
        response: { 200: calendarEventListView, ...errorResponses },
      },
    },
    async (request) => ({ items: await calendars.events(actorOf(request), request.query) }),
  );

  app.post(
    '/workspaces/:workspaceId/calendar-events/:eventId/entry',
    {
      schema: {
        tags,
        summary: 'Turn a calendar event into your time entry; honours Idempotency-Key',
        params: eventParams,
        body: calendarEventEntryBody,
        response: { 201: timeEntryView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await calendars.eventToEntry(
        actorOf(request),
        request.params.eventId,
        request.body,
        idempotencyKeyOf(request),
      );
      return reply.status(201).send(result.body);
    },
  );

  app.get(
    rules,
    {
      schema: {
        tags,
        summary: 'Your keyword rules: an event whose title contains the words proposes the project',
        params: workspaceParams,
        response: { 200: calendarRuleListView, ...errorResponses },
      },
    },
    async (request) => ({ items: await calendars.rules(actorOf(request)) }),
  );

  app.post(
    rules,
    {
      schema: {
        tags,
        summary: 'Add a keyword rule',
        params: workspaceParams,
        body: calendarRuleBody,
        response: { 201: calendarRuleView, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await calendars.addRule(actorOf(request), request.body)),
  );

  app.delete(
    `${rules}/:ruleId`,
    {
      schema: {
        tags,
        summary: 'Remove a keyword rule',
        params: ruleParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await calendars.removeRule(actorOf(request), request.params.ruleId);
      return reply.status(204).send(null);
    },
  );
};
