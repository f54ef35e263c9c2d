import { calendarFeedBody, calendarFeedView, createdCalendarFeedView } from '@sundial/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/actor.js';
import { errorResponses, workspaceParams } from '../../platform/schemas.js';

const tags = ['calendars'];
const feedPath = '/workspaces/:workspaceId/calendar-feed';

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
};
