import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  createTestApp,
  type SignedUp,
  signUp,
  type TestApp,
  useTestApp,
  workspaceCalls,
} from '../../../test/harness.js';

/**
 * Subscribed calendars against the real app and database, the calendar served by a local HTTP
 * server: a weekly Europe/Berlin meeting across the end of summer time keeps its wall-clock time
 * (so its UTC time moves by an hour), an EXDATE drops an occurrence and an override moves one;
 * all-day, declined and cancelled events stay out; an event becomes an entry, and the series'
 * next occurrence proposes the same project and task; a private address is refused unless allowed.
 */
const BERLIN = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

let title = 'Weekly sync';
/** The calendar as Google would serve it; `email` is the person's (they declined one event). */
const calendarOf = (email: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//Calendar//EN',
    'X-WR-CALNAME:Work',
    ...BERLIN,
    'BEGIN:VEVENT',
    'UID:weekly-1@test',
    'DTSTAMP:20261001T000000Z',
    'DTSTART;TZID=Europe/Berlin:20261014T100000',
    'DTEND;TZID=Europe/Berlin:20261014T110000',
    'RRULE:FREQ=WEEKLY;COUNT=6',
    'EXDATE;TZID=Europe/Berlin:20261104T100000',
    `SUMMARY:${title}`,
    'LOCATION:Room 4',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:weekly-1@test',
    'DTSTAMP:20261001T000000Z',
    'RECURRENCE-ID;TZID=Europe/Berlin:20261111T100000',
    'DTSTART;TZID=Europe/Berlin:20261111T140000',
    'DTEND;TZID=Europe/Berlin:20261111T150000',
    `SUMMARY:${title} (moved)`,
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:allday@test',
    'DTSTAMP:20261001T000000Z',
    'DTSTART;VALUE=DATE:20261020',
    'DTEND;VALUE=DATE:20261021',
    'SUMMARY:Holiday',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:declined@test',
    'DTSTAMP:20261001T000000Z',
    'DTSTART:20261015T120000Z',
    'DTEND:20261015T130000Z',
    'SUMMARY:Declined lunch',
    `ATTENDEE;PARTSTAT=DECLINED;CN=Me:mailto:${email.toUpperCase()}`,
    'ATTENDEE;PARTSTAT=ACCEPTED:mailto:someone@example.com',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:cancelled@test',
    'DTSTAMP:20261001T000000Z',
    'DTSTART:20261016T120000Z',
    'DTEND:20261016T130000Z',
    'STATUS:CANCELLED',
    'SUMMARY:Cancelled review',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:standup@test',
    'DTSTAMP:20261001T000000Z',
    'DTSTART:20261016T070000Z',
    'DTEND:20261016T071500Z',
    'SUMMARY:Team Standup',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

let server: http.Server;
let base = '';
let person: SignedUp;
// The old setting's name still lets a calendar on this machine be read.
const ctx = useTestApp({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }, { now: () => new Date('2026-11-01T12:00:00Z') });
const { call, ok } = workspaceCalls(ctx, () => `/api/v1/workspaces/${person.workspaceId}`);

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url?.startsWith('/cal.ics')) {
      response.writeHead(200, { 'content-type': 'text/calendar' });
      response.end(calendarOf(person.email));
    } else if (request.url === '/moved') {
      response.writeHead(302, { location: '/cal.ics' });
      response.end();
    } else {
      response.writeHead(404).end('nothing here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface EventView {
  id: string;
  title: string;
  start: string;
  end: string;
  recurring: boolean;
  proposal: { projectId: string; taskId: string | null; source: string } | null;
  entryId: string | null;
}
const octToDec = '?from=2026-10-01T00:00:00Z&to=2026-12-01T00:00:00Z';
const listEvents = async (): Promise<EventView[]> => (await ok(person, 'GET', `/calendar-events${octToDec}`)).items;

describe('subscribed calendars', () => {
  it('reads a weekly Berlin meeting across the end of summer time, with its EXDATE and its moved occurrence', async () => {
    person = await signUp(ctx.t.app);
    // A redirect is followed, its target checked like the first address.
    const created = await ok(person, 'POST', '/calendar-subscriptions', { url: `http://${base}/moved` });
    expect(created).toMatchObject({ name: 'Work', host: base, lastError: null });
    expect(JSON.stringify(await ok(person, 'GET', '/calendar-subscriptions'))).not.toContain('/moved');

    const weekly = (await listEvents()).filter((e) => e.title.startsWith('Weekly sync'));
    expect(weekly.map((e) => [e.start, e.end, e.title])).toEqual([
      // Summer time (UTC+2): 10:00 in Berlin is 08:00 UTC.
      ['2026-10-14T08:00:00.000Z', '2026-10-14T09:00:00.000Z', 'Weekly sync'],
      ['2026-10-21T08:00:00.000Z', '2026-10-21T09:00:00.000Z', 'Weekly sync'],
      // Winter time from 25 October (UTC+1): 10:00 in Berlin is 09:00 UTC.
      ['2026-10-28T09:00:00.000Z', '2026-10-28T10:00:00.000Z', 'Weekly sync'],
      // 4 November is an EXDATE; 11 November was moved to 14:00.
      ['2026-11-11T13:00:00.000Z', '2026-11-11T14:00:00.000Z', 'Weekly sync (moved)'],
      ['2026-11-18T09:00:00.000Z', '2026-11-18T10:00:00.000Z', 'Weekly sync'],
    ]);
    expect(weekly.every((e) => e.recurring)).toBe(true);
  });

  it('leaves out all-day events, events the person declined and cancelled ones', async () => {
    const titles = (await listEvents()).map((e) => e.title);
    expect(titles).toContain('Team Standup');
    for (const left of ['Holiday', 'Declined lunch', 'Cancelled review']) expect(titles).not.toContain(left);
  });

  it('turns an event into an entry, and the next occurrence proposes the same project and task', async () => {
    const project = await ok(person, 'POST', '/projects', { name: 'Client work', isPublic: true });
    const task = await ok(person, 'POST', `/projects/${project.id}/tasks`, { name: 'Meetings' });
    const [first, second] = (await listEvents()).filter((e) => e.title === 'Weekly sync');
    if (!first || !second) throw new Error('no weekly occurrences');
    expect(first.proposal).toBeNull();

    const entry = await ok(person, 'POST', `/calendar-events/${first.id}/entry`, {
      projectId: project.id,
      taskId: task.id,
    });
    expect(entry).toMatchObject({
      start: first.start,
      end: first.end,
      projectId: project.id,
      taskId: task.id,
      note: 'Weekly sync',
      userId: person.userId,
    });
    const listed = (await ok(person, 'GET', `/time-entries${octToDec}&limit=50`)).items;
    expect(listed.map((e: { id: string }) => e.id)).toContain(entry.id);

    const after = await listEvents();
    expect(after.find((e) => e.id === first.id)?.entryId).toBe(entry.id);
    const next = after.find((e) => e.id === second.id);
    expect(next?.proposal).toEqual({ projectId: project.id, taskId: task.id, source: 'remembered' });
    // Taken as proposed: no project given.
    const again = await ok(person, 'POST', `/calendar-events/${second.id}/entry`, {});
    expect(again).toMatchObject({ projectId: project.id, taskId: task.id, start: second.start });

    const twice = await call(person, 'POST', `/calendar-events/${first.id}/entry`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toMatch(/in your time already/);
  });

  it('proposes a project from a keyword rule of the person’s', async () => {
    const project = await ok(person, 'POST', '/projects', { name: 'Internal', isPublic: true });
    const rule = await ok(person, 'POST', '/calendar-rules', { contains: 'standup', projectId: project.id });
    const standup = (await listEvents()).find((e) => e.title === 'Team Standup');
    expect(standup?.proposal).toEqual({ projectId: project.id, taskId: null, source: 'rule' });
    expect((await ok(person, 'GET', '/calendar-rules')).items.map((r: { id: string }) => r.id)).toEqual([rule.id]);
    const other = await signUp(ctx.t.app);
    const foreign = await ok(other, 'POST', `/api/v1/workspaces/${other.workspaceId}/projects`, {
      name: 'Not here',
      isPublic: true,
    });
    const refused = await call(person, 'POST', '/calendar-rules', { contains: 'x', projectId: foreign.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.fields.projectId).toBe('Project not found.');
    expect((await call(person, 'DELETE', `/calendar-rules/${rule.id}`)).statusCode).toBe(204);
    expect((await listEvents()).find((e) => e.title === 'Team Standup')?.proposal).toBeNull();
  });

  it('reads the calendar again on demand and every hour, keeping entries linked', async () => {
    title = 'Weekly planning';
    const [sub] = (await ok(person, 'GET', '/calendar-subscriptions')).items;
    const refreshed = await ok(person, 'POST', `/calendar-subscriptions/${sub.id}/refresh`);
    expect(refreshed.lastError).toBeNull();
    const events = await listEvents();
    expect(events.filter((e) => e.title === 'Weekly planning')).toHaveLength(4);
    expect(events.filter((e) => e.entryId !== null)).toHaveLength(2);

    title = 'Weekly sync';
    expect(await ctx.t.app.services.calendars.refreshAll()).toBeGreaterThanOrEqual(1);
    expect((await listEvents()).filter((e) => e.title === 'Weekly sync')).toHaveLength(4);
  });

  it('keeps a failed refresh’s reason, refuses what is not a calendar, and audits subscribing', async () => {
    const bad = await call(person, 'POST', '/calendar-subscriptions', { url: `http://${base}/nothing.ics` });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields.url).toBe('We could not read this calendar: Answered 404.');
    const ftp = await call(person, 'POST', '/calendar-subscriptions', { url: 'ftp://example.com/cal.ics' });
    expect(ftp.json().error.fields.url).toMatch(/Only https:\/\/, http:\/\/ and webcal:\/\//);

    const [sub] = (await ok(person, 'GET', '/calendar-subscriptions')).items;
    const stranger = await signUp(ctx.t.app);
    expect((await call(stranger, 'DELETE', `/calendar-subscriptions/${sub.id}`)).statusCode).toBe(404);
    expect((await call(undefined, 'GET', '/calendar-subscriptions')).statusCode).toBe(401);
    expect((await call(person, 'DELETE', `/calendar-subscriptions/${sub.id}`)).statusCode).toBe(204);
    expect(await listEvents()).toEqual([]);
    const actions = (await auditTrail(ctx.t.db, { subjectId: sub.id })).map((r) => r.action);
    expect(actions).toEqual(['calendar_subscription.created', 'calendar_subscription.deleted']);
  });
});

describe('a calendar on a private address', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp();
  });
  afterAll(() => strict?.close());

  it('is refused unless the operator allows private targets', async () => {
    const who = await signUp(strict.app);
    for (const url of [`http://${base}/cal.ics`, 'webcal://169.254.169.254/latest/cal.ics', 'http://[::1]/cal.ics']) {
      const response = await strict.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${who.workspaceId}/calendar-subscriptions`,
        payload: { url },
        headers: { cookie: who.cookie },
      });
      expect(response.statusCode, url).toBe(422);
      expect(response.json().error.fields.url).toMatch(
        /a private or local address that calendar subscriptions may not reach/,
      );
    }
    const stored = await strict.db.selectFrom('calendar_subscriptions').select('id').execute();
    expect(stored).toEqual([]);
  });
});
