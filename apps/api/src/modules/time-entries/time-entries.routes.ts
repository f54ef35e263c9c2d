import {
  bulkDeleteTimeEntriesBody,
  bulkUpdateTimeEntriesBody,
  createTimeEntryBody,
  listTimeEntriesQuery,
  runningTimerView,
  startTimerBody,
  type TimeEntryEvent,
  timeEntryView,
  timeSettingsView,
  timesheetPersonView,
  updateTimeEntryBody,
  updateTimeSettingsBody,
} from '@sundial/core';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, requireAuth } from '../../platform/actor.js';
import { idempotencyKeyOf } from '../../platform/idempotency.js';
import { errorResponses, workspaceId, workspaceParams as wsParams } from '../../platform/schemas.js';
import { baseSecurityHeaders, RESOURCE_POLICY } from '../../platform/security-headers.js';

const tags = ['time entries'];
const entryParams = z.object({ workspaceId, entryId: z.uuid({ error: 'Time entry not found.' }) });
const userQuery = z.object({ userId: z.uuid().optional() });
const base = '/workspaces/:workspaceId';
const HEARTBEAT_MS = 25_000;
/** How often an open stream checks that its session is still alive (log-out, expiry, disable). */
export const SESSION_CHECK_MS = 5_000;

const timerView = z.object({ entry: timeEntryView, stopped: timeEntryView.nullable() });

export const timeEntriesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { timeEntries, liveUpdates } = app.services;
  const streams = new Set<FastifyReply>();

  app.addHook('preClose', async () => {
    for (const reply of streams) reply.raw.end();
    streams.clear();
  });
  app.addHook('onClose', async () => {});

  app.get(
    `${base}/time-entries`,
    {
      schema: {
        tags,
        summary: 'Time entries overlapping a range, newest first (userId=all for every member with time:view_others)',
        params: wsParams,
        querystring: listTimeEntriesQuery,
        response: {
          200: z.object({ items: z.array(timeEntryView), nextCursor: z.string().nullable() }),
          ...errorResponses,
        },
      },
    },
    async (request) => timeEntries.list(actorOf(request), request.query),
  );

  app.post(
    `${base}/time-entries`,
    {
      schema: {
        tags,
        summary: 'Create an entry from start and end or a duration ("1:30", "1.5h", "90m"); honours Idempotency-Key',
        params: wsParams,
        body: createTimeEntryBody,
        response: { 201: timeEntryView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await timeEntries.create(actorOf(request), request.body, idempotencyKeyOf(request));
      return reply.status(201).send(result.body);
    },
  );

  app.get(
    `${base}/time-entries/:entryId`,
    {
      schema: {
        tags,
        summary: 'One time entry',
        params: entryParams,
        response: { 200: timeEntryView, ...errorResponses },
      },
    },
    async (request) => timeEntries.get(actorOf(request), request.params.entryId),
  );

  app.patch(
    `${base}/time-entries/:entryId`,
    {
      schema: {
        tags,
        summary: 'Change a time entry',
        params: entryParams,
        body: updateTimeEntryBody,
        response: { 200: timeEntryView, ...errorResponses },
      },
    },
    async (request) => timeEntries.update(actorOf(request), request.params.entryId, request.body),
  );

  app.delete(
    `${base}/time-entries/:entryId`,
    {
      schema: {
        tags,
        summary: 'Delete a time entry',
        params: entryParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await timeEntries.remove(actorOf(request), request.params.entryId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/time-entries/bulk-update`,
    {
      schema: {
        tags,
        summary: 'Set project, task, tags, note or billable on many entries at once',
        params: wsParams,
        body: bulkUpdateTimeEntriesBody,
        response: { 200: z.object({ items: z.array(timeEntryView) }), ...errorResponses },
      },
    },
    async (request) => ({
      items: await timeEntries.bulkUpdate(actorOf(request), request.body.ids, request.body.set),
    }),
  );

  app.post(
    `${base}/time-entries/bulk-delete`,
    {
      schema: {
        tags,
        summary: 'Delete many entries at once',
        params: wsParams,
        body: bulkDeleteTimeEntriesBody,
        response: { 200: z.object({ deleted: z.number().int() }), ...errorResponses },
      },
    },
    async (request) => ({ deleted: await timeEntries.bulkDelete(actorOf(request), request.body.ids) }),
  );

  app.post(
    `${base}/time-entries/restore`,
    {
      schema: {
        tags,
        summary: 'Undo a delete: bring entries back as they were (same id, breaks, tags) within 10 minutes',
        params: wsParams,
        body: bulkDeleteTimeEntriesBody,
        response: { 200: z.object({ items: z.array(timeEntryView) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await timeEntries.restore(actorOf(request), request.body.ids) }),
  );

  app.get(
    `${base}/time-entries/people`,
    {
      schema: {
        tags,
        summary: "The members whose timesheet the caller may open: self, a manager's people, or everyone",
        params: wsParams,
        response: {
          200: z.object({ items: z.array(timesheetPersonView) }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ items: await timeEntries.people(actorOf(request)) }),
  );

  app.get(
    `${base}/timer`,
    {
      schema: {
        tags,
        summary: 'The running timer (null when none runs)',
        params: wsParams,
        querystring: userQuery,
        response: { 200: z.object({ entry: timeEntryView.nullable() }), ...errorResponses },
      },
    },
    async (request) => ({ entry: await timeEntries.running(actorOf(request), request.query.userId) }),
  );

  app.get(
    `${base}/timers`,
    {
      schema: {
        tags,
        summary:
          "The running timers the caller may see, longest-running first: their own, a manager's people's, or everyone's",
        params: wsParams,
        response: { 200: z.object({ items: z.array(runningTimerView) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await timeEntries.team(actorOf(request)) }),
  );

  app.post(
    `${base}/timer/start`,
    {
      schema: {
        tags,
        summary: 'Start a timer now, stopping the running one; honours Idempotency-Key',
        params: wsParams,
        body: startTimerBody,
        response: { 201: timerView, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await timeEntries.start(actorOf(request), request.body, idempotencyKeyOf(request));
      return reply.status(201).send(result.body);
    },
  );

  app.post(
    `${base}/timer/stop`,
    {
      schema: {
        tags,
        summary: 'Stop the running timer; honours Idempotency-Key',
        params: wsParams,
        querystring: userQuery,
        response: { 200: timeEntryView, ...errorResponses },
      },
    },
    async (request) => (await timeEntries.stop(actorOf(request), request.query.userId, idempotencyKeyOf(request))).body,
  );

  app.post(
    `${base}/timer/pause`,
    {
      schema: {
        tags,
        summary: 'Pause the running timer (the break is not counted as work)',
        params: wsParams,
        querystring: userQuery,
        response: { 200: timeEntryView, ...errorResponses },
      },
    },
    async (request) => timeEntries.pause(actorOf(request), request.query.userId),
  );

  app.post(
    `${base}/timer/resume`,
    {
      schema: {
        tags,
        summary: 'Resume a paused timer',
        params: wsParams,
        querystring: userQuery,
        response: { 200: timeEntryView, ...errorResponses },
      },
    },
    async (request) => timeEntries.resume(actorOf(request), request.query.userId),
  );

  app.delete(
    `${base}/timer`,
    {
      schema: {
        tags,
        summary: 'Discard the running timer without keeping an entry',
        params: wsParams,
        querystring: userQuery,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await timeEntries.discard(actorOf(request), request.query.userId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    `${base}/time-settings`,
    {
      schema: {
        tags,
        summary: 'Required fields, rounding and limits of time entries',
        params: wsParams,
        response: { 200: timeSettingsView, ...errorResponses },
      },
    },
    async (request) => timeEntries.getSettings(actorOf(request)),
  );

  app.patch(
    `${base}/time-settings`,
    {
      schema: {
        tags,
        summary: 'Change time settings (owner or admin)',
        params: wsParams,
        body: updateTimeSettingsBody,
        response: { 200: timeSettingsView, ...errorResponses },
      },
    },
    async (request) => timeEntries.updateSettings(actorOf(request), request.body),
  );

  app.get(
    `${base}/time-entries/events`,
    {
      schema: {
        tags,
        summary: 'Server-Sent Events: `change` events naming entries of the user (or userId=all) that changed',
        params: wsParams,
        querystring: z.object({ userId: z.union([z.uuid(), z.literal('all')]).optional() }),
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { sessionSecret } = requireAuth(request);
      const { userId, only } = await timeEntries.streamTarget(actor, request.query.userId);
      reply.hijack();
      const raw = reply.raw;
      // A hijacked reply skips the onSend hooks: the stream sends the protections itself.
      raw.writeHead(200, {
        ...baseSecurityHeaders(app.config.publicUrl),
        'content-security-policy': RESOURCE_POLICY,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      raw.write('retry: 2000\n\n');
      const send = (event: TimeEntryEvent) => {
        if (only && !only.has(event.userId)) return;
        raw.write(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
      };
      const unsubscribe = await liveUpdates.subscribe({ workspaceId: actor.membership.workspace.id, userId, send });
      streams.add(reply);
      raw.write('event: ready\ndata: {}\n\n');
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
      // The stream lives no longer than the session that opened it: signed out elsewhere, expired
      // or disabled, it ends (the browser's reconnect then gets a 401).
      const check = { workspaceId: actor.membership.workspace.id, userId: actor.userId };
      const sessionWatch = setInterval(() => {
        // A token-signed stream has no session to outlive; its token is checked when it reconnects.
        if (sessionSecret === undefined) return;
        timeEntries
          .streamAllowed({ ...check, sessionSecret })
          .then((ok) => {
            if (!ok) raw.end();
          })
          .catch((error) => app.log.warn({ err: error }, 'checking a live stream session failed'));
      }, SESSION_CHECK_MS);
      raw.on('close', () => {
        clearInterval(heartbeat);
        clearInterval(sessionWatch);
        unsubscribe();
        streams.delete(reply);
      });
    },
  );
};
