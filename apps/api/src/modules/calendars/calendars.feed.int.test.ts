import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  createTestApp,
  joinWorkspace,
  type SignedUp,
  signUp,
  type TestApp,
  useTestApp,
  workspaceCalls,
} from '../../../test/harness.js';

/**
 * The private calendar feed of one's time: its secret address answers iCalendar without a session,
 * holding what the timesheet lists (same entries, same times, in UTC), a running timer up to now;
 * a reset or removed address is gone; a manager's feed holds their people's time only when asked.
 */
const ctx = useTestApp();
let owner: SignedUp;
const { call, ok } = workspaceCalls(ctx, () => `/api/v1/workspaces/${owner.workspaceId}`);

interface FeedEvent {
  uid: string;
  start: string;
  end: string;
  summary: string;
  description: string;
}

/** Reads a feed's address without a session and parses it back with ical.js. */
async function readFeed(url: string): Promise<{ status: number; events: FeedEvent[]; type: string; body: string }> {
  const response = await ctx.t.app.inject({ method: 'GET', url: new URL(url).pathname });
  if (response.statusCode !== 200) return { status: response.statusCode, events: [], type: '', body: response.body };
  const calendar = new ICAL.Component(ICAL.parse(response.body) as unknown[]);
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      summary: event.summary,
      description: event.description ?? '',
    };
  });
  return { status: 200, events, type: String(response.headers['content-type']), body: response.body };
}

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

describe('the calendar feed of one’s time', () => {
  it('holds the entries the timesheet lists, at the same times in UTC, a running timer up to now', async () => {
    owner = await signUp(ctx.t.app);
    const project = await ok(owner, 'POST', '/projects', { name: 'Website', isPublic: true });
    const task = await ok(owner, 'POST', `/projects/${project.id}/tasks`, { name: 'Design' });
    await ok(owner, 'POST', '/time-entries', {
      start: hoursAgo(30),
      duration: '1h30m',
      projectId: project.id,
      taskId: task.id,
      note: 'Home page',
    });
    await ok(owner, 'POST', '/time-entries', { start: hoursAgo(5), duration: '45m', note: 'Reading mail' });
    // Long ago: outside the feed's 90 days.
    await ok(owner, 'POST', '/time-entries', {
      start: new Date(Date.now() - 120 * 86_400_000).toISOString(),
      duration: '1h',
    });
    await ok(owner, 'POST', '/timer/start', { projectId: project.id });

    expect(await ok(owner, 'GET', '/calendar-feed')).toMatchObject({ exists: false, includeTeam: false });
    const made = await ok(owner, 'POST', '/calendar-feed', {});
    expect(made.url).toMatch(/\/api\/v1\/calendar-feeds\/sdc_[\w-]{43}\.ics$/);
    expect(made.webcalUrl).toBe(made.url.replace(/^https?:/, 'webcal:'));
    const shown = await ok(owner, 'GET', '/calendar-feed');
    expect(shown).toMatchObject({ exists: true, canIncludeTeam: true });
    expect(JSON.stringify(shown)).not.toContain('sdc_');

    const before = Date.now();
    const feed = await readFeed(made.url);
    expect(feed.status).toBe(200);
    expect(feed.type).toMatch(/^text\/calendar/);
    expect(feed.body).toContain('X-WR-CALNAME');

    const from = new Date(Date.now() - 90 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const sheet = (await ok(owner, 'GET', `/time-entries?from=${from}&to=${to}&limit=100`)).items as {
      id: string;
      start: string;
      end: string | null;
    }[];
    expect(sheet).toHaveLength(3);
    const byUid = new Map(feed.events.map((e) => [e.uid, e]));
    expect([...byUid.keys()].sort()).toEqual(sheet.map((e) => `${e.id}@sundial`).sort());
    for (const entry of sheet) {
      const event = byUid.get(`${entry.id}@sundial`);
      expect(event?.start).toBe(new Date(entry.start).toISOString());
      if (entry.end) expect(event?.end).toBe(new Date(entry.end).toISOString());
      else expect(Date.parse(event?.end ?? '')).toBeGreaterThanOrEqual(before - 1000);
    }
    const designed = feed.events.find((e) => e.summary === 'Website · Design');
    expect(designed?.description).toContain('Note: Home page');
    expect(feed.events.find((e) => e.summary === 'Reading mail')).toBeDefined();
    expect(feed.events.find((e) => e.summary === 'Website (running)')).toBeDefined();
    // UTC times, as the feed writes them.
    expect(feed.body).toMatch(/DTSTART:\d{8}T\d{6}Z/);
    expect(feed.body).not.toContain('TZID');
  });

  it('stops the old address when reset or removed, and audits each step', async () => {
    const first = await ok(owner, 'POST', '/calendar-feed', {});
    const second = await ok(owner, 'POST', '/calendar-feed', {});
    expect(second.url).not.toBe(first.url);
    expect((await readFeed(first.url)).status).toBe(404);
    expect((await readFeed(second.url)).status).toBe(200);
    expect((await call(owner, 'DELETE', '/calendar-feed')).statusCode).toBe(204);
    const gone = await readFeed(second.url);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body).error.message).toMatch(/reset or removed/);
    expect((await readFeed(second.url.replace(/sdc_\w/, 'sdc_x'))).status).toBe(404);
    expect((await call(owner, 'DELETE', '/calendar-feed')).statusCode).toBe(404);
    const trail = await auditTrail(ctx.t.db, { workspaceId: owner.workspaceId });
    const actions = trail.map((r) => r.action).filter((a) => a.startsWith('calendar_feed.'));
    expect(actions.filter((a) => a === 'calendar_feed.reset').length).toBeGreaterThanOrEqual(2);
    expect(actions).toContain('calendar_feed.created');
    expect(actions).toContain('calendar_feed.revoked');
  });

  it('holds a manager’s people’s time only when the manager asks, and a member may not ask', async () => {
    const manager = await joinWorkspace(ctx.t, owner.workspaceId, 'manager');
    const report = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
    const stranger = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
    const group = await ok(owner, 'POST', '/groups', { name: 'Design team' });
    for (const who of [manager, report]) await ok(owner, 'PUT', `/groups/${group.id}/members/${who.userId}`);
    const own = await ok(manager, 'POST', '/time-entries', { start: hoursAgo(3), duration: '1h', note: 'Mine' });
    const theirs = await ok(report, 'POST', '/time-entries', { start: hoursAgo(4), duration: '1h', note: 'Report’s' });
    const other = await ok(stranger, 'POST', '/time-entries', {
      start: hoursAgo(4),
      duration: '1h',
      note: 'Not theirs',
    });

    const alone = await ok(manager, 'POST', '/calendar-feed', { includeTeam: false });
    expect((await readFeed(alone.url)).events.map((e) => e.uid)).toEqual([`${own.id}@sundial`]);

    await ok(manager, 'PATCH', '/calendar-feed', { includeTeam: true });
    const team = (await readFeed(alone.url)).events;
    expect(team.map((e) => e.uid).sort()).toEqual([`${own.id}@sundial`, `${theirs.id}@sundial`].sort());
    expect(team.map((e) => e.uid)).not.toContain(`${other.id}@sundial`);
    expect(team.find((e) => e.uid === `${theirs.id}@sundial`)?.summary).toMatch(/: Report’s$/);

    const refused = await call(report, 'POST', '/calendar-feed', { includeTeam: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/see others’ time/);
    expect((await ok(report, 'GET', '/calendar-feed')).canIncludeTeam).toBe(false);
  });

  it('says who may not: no session 401, another workspace 404', async () => {
    const outsider = await signUp(ctx.t.app);
    expect((await call(undefined, 'GET', '/calendar-feed')).statusCode).toBe(401);
    expect((await call(outsider, 'POST', '/calendar-feed', {})).statusCode).toBe(404);
  });
});

describe('reading feeds from one network', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMIT_CALENDAR_FEED_PER_IP: '2' });
  });
  afterAll(() => limited?.close());

  it('answers 429 past the limit a minute, wrong addresses counted too', async () => {
    const who = await signUp(limited.app);
    const made = await limited.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${who.workspaceId}/calendar-feed`,
      payload: {},
      headers: { cookie: who.cookie },
    });
    const path = new URL(made.json().url).pathname;
    expect((await limited.app.inject({ method: 'GET', url: '/api/v1/calendar-feeds/sdc_guess.ics' })).statusCode).toBe(
      404,
    );
    expect((await limited.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    // The window is a fixed minute: should one end between these reads, the next ones fill the new one.
    let refused = await limited.app.inject({ method: 'GET', url: path });
    for (let i = 0; i < 3 && refused.statusCode !== 429; i += 1) {
      refused = await limited.app.inject({ method: 'GET', url: path });
    }
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json().error.message).toMatch(/Too many calendar reads/);
  });
});
