import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActivityTeam, activityTeam, pairComputer } from '../../../test/computer-time.js';
import { auditTrail, createTestApp, type SignedUp, type TestApp } from '../../../test/harness.js';

/**
 * Away time (issue 35) against the real app and database: the workspace's away activities, a
 * person's away periods (adjacent away spans as one) read by role and privacy setting, and each
 * period turned into a time entry (through the time-entries rules), a break in the entries it
 * overlaps (a stopped one's and a running timer's), or dismissed; once, idempotently, undone.
 */
let t: TestApp;
let team: ActivityTeam;
const tokens = new Map<string, string>();

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const call = (cookie: string | undefined, method: Method, url: string, payload?: object, headers = {}) =>
  t.app.inject({ method, url: `/api/v1${url}`, payload, headers: { ...(cookie ? { cookie } : {}), ...headers } });
const ws = (path: string) => `/workspaces/${team.owner.workspaceId}${path}`;

// Every test works in its own hours of the past week (spans cannot be in the future).
const HOUR = 3_600_000;
const origin = Math.floor(Date.now() / HOUR) * HOUR - 6 * 24 * HOUR;
/** An instant `h` hours (and `m` minutes) after the origin, six days ago on a whole hour. */
const at = (h: number, m = 0) => new Date(origin + h * HOUR + m * 60_000).toISOString();

async function pair(who: SignedUp): Promise<string> {
  const token = tokens.get(who.userId) ?? (await pairComputer(t, who, team.owner.workspaceId)).token;
  tokens.set(who.userId, token);
  return token;
}

/** Uploads away spans (from, to, reason) of `who`'s computer. */
async function away(who: SignedUp, ...spans: [string, string, ('idle' | 'locked' | 'suspended')?][]) {
  const token = await pair(who);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/agent/spans',
    headers: { authorization: `Bearer ${token}` },
    payload: {
      spans: spans.map(([startedAt, endedAt, reason]) => ({
        id: randomUUID(),
        kind: 'away',
        startedAt,
        endedAt,
        app: null,
        title: null,
        url: null,
        awayReason: reason ?? 'idle',
      })),
    },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const periods = async (who: SignedUp, from: string, to: string, userId?: string) =>
  call(who.cookie, 'GET', ws(`/computer-time/away?from=${from}&to=${to}${userId ? `&userId=${userId}` : ''}`));

const resolve = (who: SignedUp, body: object, key?: string) =>
  call(who.cookie, 'POST', ws('/computer-time/away/resolve'), body, key ? { 'idempotency-key': key } : {});

const entriesOf = async (who: SignedUp, from: string, to: string) =>
  (await call(who.cookie, 'GET', ws(`/time-entries?from=${from}&to=${to}`))).json().items as {
    id: string;
    start: string;
    end: string | null;
    note: string;
    projectId: string | null;
    durationSeconds: number;
    breaks: { start: string; end: string | null }[];
  }[];

async function project(name: string): Promise<string> {
  const response = await call(team.owner.cookie, 'POST', ws('/projects'), { name, isPublic: true });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

beforeAll(async () => {
  t = await createTestApp();
  team = await activityTeam(t);
});
afterAll(() => t?.close());

describe('away activities', () => {
  it('are the starter list until an owner or admin replaces them, with defaults of this workspace', async () => {
    const starter = await call(team.member.cookie, 'GET', ws('/computer-time/away-activities'));
    expect(starter.json().items.map((a: { name: string; makes: string }) => `${a.name}:${a.makes}`)).toEqual([
      'Meeting:entry',
      'Phone call:entry',
      'Break:break',
      'Lunch:break',
    ]);
    const projectId = await project('Meetings');
    const items = [
      { id: 'standup', name: 'Stand-up', makes: 'entry', projectId },
      { id: 'lunch', name: 'Lunch', makes: 'break' },
    ];
    for (const who of [team.manager, team.member]) {
      expect((await call(who.cookie, 'PUT', ws('/computer-time/away-activities'), { items })).statusCode).toBe(403);
    }
    expect((await call(team.outsider.cookie, 'PUT', ws('/computer-time/away-activities'), { items })).statusCode).toBe(
      404,
    );
    const saved = await call(team.admin.cookie, 'PUT', ws('/computer-time/away-activities'), { items });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().items[0]).toEqual({ id: 'standup', name: 'Stand-up', makes: 'entry', projectId, taskId: null });
    expect((await call(team.member.cookie, 'GET', ws('/computer-time/away-activities'))).json()).toEqual(saved.json());
    const trail = await auditTrail(t.db, { workspaceId: team.owner.workspaceId, action: 'away_activities.updated' });
    expect(trail).toHaveLength(1);
  });

  it('refuses repeated names, more than 30, and projects or tasks not of this workspace', async () => {
    const put = (items: object[]) => call(team.owner.cookie, 'PUT', ws('/computer-time/away-activities'), { items });
    const twice = await put([
      { id: 'a', name: 'Call', makes: 'entry' },
      { id: 'b', name: 'call', makes: 'break' },
    ]);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().error.fields['items.1.name']).toBe('Two away activities have the same name.');
    const many = Array.from({ length: 31 }, (_, i) => ({ id: `a${i}`, name: `A${i}`, makes: 'entry' }));
    expect((await put(many)).json().error.fields.items).toBe('At most 30 away activities.');
    const elsewhere = await call(team.outsider.cookie, 'POST', `/workspaces/${team.outsider.workspaceId}/projects`, {
      name: 'Theirs',
    });
    const foreign = await put([{ id: 'x', name: 'X', makes: 'entry', projectId: elsewhere.json().id }]);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.fields['items.0.projectId']).toBe('Project not found.');
    expect((await put([{ id: 'x', name: 'X', makes: 'maybe' }])).statusCode).toBe(422);
    expect((await put([{ id: 'Bad id!', name: 'X', makes: 'entry' }])).statusCode).toBe(422);
  });
});

describe('away periods', () => {
  it('are adjacent away spans as one, named by the reason covering most of it', async () => {
    await away(team.member, [at(0), at(0, 5), 'idle'], [at(0, 5), at(0, 50), 'locked'], [at(1), at(1, 20), 'idle']);
    const response = await periods(team.member, at(0), at(2));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().items).toEqual([
      { start: at(0), end: at(0, 50), seconds: 3000, reason: 'locked', resolution: null },
      { start: at(1), end: at(1, 20), seconds: 1200, reason: 'idle', resolution: null },
    ]);
    // A period reads whole from a range that cuts it.
    expect((await periods(team.member, at(0, 30), at(0, 40))).json().items[0]).toMatchObject({
      start: at(0),
      end: at(0, 50),
    });
  });

  it('are a manager’s to read for their people only when the workspace lets them', async () => {
    const settings = { keep: 'titles', idleSeconds: 180, retentionDays: null, exclusions: [] };
    const refused = await periods(team.manager, at(0), at(2), team.member.userId);
    expect(refused.statusCode).toBe(403);
    expect((await periods(team.admin, at(0), at(2), team.member.userId)).statusCode).toBe(403);
    const on = await call(team.owner.cookie, 'PUT', ws('/computer-time/settings'), {
      ...settings,
      managersSeeActivity: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    try {
      expect((await periods(team.manager, at(0), at(2), team.member.userId)).json().items).toHaveLength(2);
      expect((await periods(team.admin, at(0), at(2), team.member.userId)).json().items).toHaveLength(2);
      expect((await periods(team.manager, at(0), at(2), team.other.userId)).statusCode).toBe(403);
      expect((await periods(team.other, at(0), at(2), team.member.userId)).statusCode).toBe(403);
    } finally {
      await call(team.owner.cookie, 'PUT', ws('/computer-time/settings'), { ...settings, managersSeeActivity: false });
    }
    // A group's own choice opens its people's away time to their managers, as their spans.
    const group = ws(`/computer-time/group-settings/${team.supportGroupId}`);
    const opened = await call(team.owner.cookie, 'PUT', group, { keep: null, managersSeeActivity: true });
    expect(opened.statusCode, opened.body).toBe(200);
    try {
      expect((await periods(team.manager, at(0), at(2), team.member.userId)).json().items).toHaveLength(2);
    } finally {
      await call(team.owner.cookie, 'PUT', group, { keep: null, managersSeeActivity: null });
    }
    expect((await periods(team.manager, at(0), at(2), team.member.userId)).statusCode).toBe(403);
    expect((await periods(team.outsider, at(0), at(2))).statusCode).toBe(404);
    expect((await call(undefined, 'GET', ws(`/computer-time/away?from=${at(0)}&to=${at(2)}`))).statusCode).toBe(401);
  });

  it('refuses a range backwards, longer than 31 days, or not instants', async () => {
    expect((await periods(team.member, at(2), at(0))).statusCode).toBe(422);
    const long = await periods(team.member, at(-24 * 40), at(0));
    expect([long.statusCode, long.json().error.message]).toEqual([422, 'Read at most 31 days of activity at once.']);
    expect((await periods(team.member, 'yesterday', at(0))).statusCode).toBe(422);
  });
});

describe('resolving an away period', () => {
  it('makes a time entry with the activity’s defaults, once; undo keeps the entry', async () => {
    await away(team.member, [at(3), at(3, 45), 'locked']);
    const standup = await resolve(team.member, {
      start: at(3),
      end: at(3, 45),
      outcome: 'entry',
      activityId: 'standup',
    });
    expect(standup.statusCode, standup.body).toBe(201);
    const body = standup.json();
    expect(body).toMatchObject({ start: at(3), end: at(3, 45), seconds: 2700, entriesWithBreak: 0 });
    expect(body.resolution).toMatchObject({ outcome: 'entry', activityId: 'standup' });
    const [entry] = await entriesOf(team.member, at(3), at(4));
    expect(entry).toMatchObject({ id: body.resolution.entryId, start: at(3), end: at(3, 45), note: 'Stand-up' });
    expect(entry?.projectId).toBeTruthy();
    expect((await periods(team.member, at(3), at(4))).json().items[0].resolution.entryId).toBe(entry?.id);

    const again = await resolve(team.member, { start: at(3), end: at(3, 45), outcome: 'dismissed' });
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'away_period_resolved']);

    const undo = await call(team.member.cookie, 'DELETE', ws(`/computer-time/away/resolutions?start=${at(3)}`));
    expect(undo.statusCode, undo.body).toBe(204);
    expect((await periods(team.member, at(3), at(4))).json().items[0].resolution).toBeNull();
    expect(await entriesOf(team.member, at(3), at(4))).toHaveLength(1);
    expect(
      (await call(team.member.cookie, 'DELETE', ws(`/computer-time/away/resolutions?start=${at(3)}`))).statusCode,
    ).toBe(404);
    const trail = await auditTrail(t.db, { workspaceId: team.owner.workspaceId });
    expect(trail.map((r) => r.action).filter((a) => a.startsWith('away_period'))).toEqual([
      'away_period.resolved',
      'away_period.reopened',
    ]);
  });

  it('answers a retry with the same Idempotency-Key as the first time, making one entry', async () => {
    await away(team.member, [at(5), at(5, 30)]);
    const body = { start: at(5), end: at(5, 30), outcome: 'entry', note: 'Call with Ann' };
    const first = await resolve(team.member, body, 'away-key-1');
    const retry = await resolve(team.member, body, 'away-key-1');
    expect(first.statusCode, first.body).toBe(201);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toEqual(first.json());
    const entries = await entriesOf(team.member, at(5), at(6));
    expect(entries.map((e) => e.note)).toEqual(['Call with Ann']);
    // Another key is another request: the period is answered.
    expect((await resolve(team.member, body, 'away-key-2')).statusCode).toBe(409);
  });

  it('answered twice at once makes one entry: the later request gets 409 and leaves nothing behind', async () => {
    await away(team.member, [at(19), at(19, 30)]);
    const body = { start: at(19), end: at(19, 30), outcome: 'entry', note: 'Twice' };
    const answers = await Promise.all([resolve(team.member, body, 'twice-1'), resolve(team.member, body, 'twice-2')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const entries = await entriesOf(team.member, at(19), at(20));
    const made = answers.find((r) => r.statusCode === 201)?.json().resolution.entryId;
    expect(entries.map((e) => e.id)).toEqual([made]);
  });

  it('is refused by the time-entries rules with their own errors, and records nothing then', async () => {
    // The second period falls inside an entry: as a break it changes that entry.
    const inside = await call(team.member.cookie, 'POST', ws('/time-entries'), { start: at(7, 35), end: at(8) });
    expect(inside.statusCode, inside.body).toBe(201);
    await away(team.member, [at(7), at(7, 30)], [at(7, 40), at(7, 50)]);
    const period = { start: at(7), end: at(7, 30), outcome: 'entry', activityId: 'lunch' };
    const required = await call(team.owner.cookie, 'PATCH', ws('/time-settings'), { requireProject: true });
    expect(required.statusCode, required.body).toBe(200);
    try {
      const refused = await resolve(team.member, period);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.fields.projectId).toMatch(/Choose a project/);
    } finally {
      await call(team.owner.cookie, 'PATCH', ws('/time-settings'), { requireProject: false });
    }
    const today = new Date().toISOString().slice(0, 10);
    const locked = await call(team.admin.cookie, 'PUT', ws('/approvals/settings'), {
      period: 'week',
      approverRule: 'managers_and_admins',
      lockDate: today,
    });
    expect(locked.statusCode, locked.body).toBe(200);
    try {
      const refused = await resolve(team.member, period);
      expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'time_locked']);
      const breakRefused = await resolve(team.member, { start: at(7, 40), end: at(7, 50), outcome: 'break' });
      expect([breakRefused.statusCode, breakRefused.json().error.code]).toEqual([409, 'time_locked']);
    } finally {
      await call(team.admin.cookie, 'PUT', ws('/approvals/settings'), {
        period: 'week',
        approverRule: 'managers_and_admins',
        lockDate: null,
      });
    }
    const after = (await periods(team.member, at(7), at(8))).json().items;
    expect(after.map((p: { resolution: unknown }) => p.resolution)).toEqual([null, null]);
    const entries = await entriesOf(team.member, at(7), at(8));
    expect(entries.map((e) => [e.id, e.breaks, e.durationSeconds])).toEqual([[inside.json().id, [], 1500]]);
  });

  it('as a break cuts a stopped entry’s work seconds; with no entry it is still recorded', async () => {
    const made = await call(team.member.cookie, 'POST', ws('/time-entries'), {
      start: at(9),
      end: at(11),
      note: 'Work',
    });
    expect(made.statusCode, made.body).toBe(201);
    await away(team.member, [at(9, 30), at(10)], [at(12), at(12, 15)]);
    const lunch = await resolve(team.member, { start: at(9, 30), end: at(10), outcome: 'break', activityId: 'lunch' });
    expect(lunch.statusCode, lunch.body).toBe(201);
    expect(lunch.json()).toMatchObject({ entriesWithBreak: 1, resolution: { outcome: 'break', entryId: null } });
    const [entry] = await entriesOf(team.member, at(9), at(11));
    expect(entry?.durationSeconds).toBe(5400);
    expect(entry?.breaks).toEqual([{ start: at(9, 30), end: at(10) }]);
    const none = await resolve(team.member, { start: at(12), end: at(12, 15), outcome: 'break' });
    expect(none.json()).toMatchObject({ entriesWithBreak: 0, resolution: { outcome: 'break' } });
  });

  it('as a break pauses a running timer over it, up to now', async () => {
    const started = await call(team.other.cookie, 'POST', ws('/timer/start'), { note: 'Long task' });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json().id ?? started.json().entry.id;
    const now = Math.floor(Date.now() / 60_000) * 60_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const moved = await call(team.other.cookie, 'PATCH', ws(`/time-entries/${id}`), { start: iso(now - 2 * HOUR) });
    expect(moved.statusCode, moved.body).toBe(200);
    await away(team.other, [iso(now - 90 * 60_000), iso(now - 60 * 60_000)]);
    const resolved = await resolve(team.other, {
      start: iso(now - 90 * 60_000),
      end: iso(now - 60 * 60_000),
      outcome: 'break',
    });
    expect(resolved.json().entriesWithBreak, resolved.body).toBe(1);
    const timer = (await call(team.other.cookie, 'GET', ws(`/time-entries/${id}`))).json();
    expect(timer.end).toBeNull();
    expect(timer.breaks).toEqual([{ start: iso(now - 90 * 60_000), end: iso(now - 60 * 60_000) }]);
    const expected = (Date.now() - (now - 2 * HOUR)) / 1000 - 1800;
    expect(Math.abs(timer.durationSeconds - expected)).toBeLessThan(10);
    await call(team.other.cookie, 'POST', ws('/timer/stop'), {});
  });

  it('dismissed records the answer and nothing else', async () => {
    await away(team.member, [at(13), at(13, 10)]);
    const dismissed = await resolve(team.member, { start: at(13), end: at(13, 10), outcome: 'dismissed' });
    expect(dismissed.statusCode, dismissed.body).toBe(201);
    expect(dismissed.json().resolution).toMatchObject({ outcome: 'dismissed', activityId: null, entryId: null });
    expect(await entriesOf(team.member, at(13), at(14))).toEqual([]);
  });

  it('is only the person’s own: a manager cannot answer their people’s periods', async () => {
    await away(team.member, [at(15), at(15, 20)]);
    const body = { start: at(15), end: at(15, 20), outcome: 'dismissed' };
    for (const who of [team.manager, team.owner]) {
      const refused = await resolve(who, body);
      expect([refused.statusCode, refused.json().error.code]).toEqual([422, 'away_period_unknown']);
    }
    expect((await resolve(team.outsider, body)).statusCode).toBe(404);
    expect((await call(undefined, 'POST', ws('/computer-time/away/resolve'), body)).statusCode).toBe(401);
    expect((await periods(team.member, at(15), at(16))).json().items[0].resolution).toBeNull();
  });

  it('refuses bad input with a 4xx that says what is wrong', async () => {
    await away(team.member, [at(17), at(17, 20)]);
    const base = { start: at(17), end: at(17, 20), outcome: 'dismissed' };
    expect((await resolve(team.member, { ...base, outcome: 'maybe' })).statusCode).toBe(422);
    expect((await resolve(team.member, { ...base, start: 'soon' })).statusCode).toBe(422);
    expect((await resolve(team.member, { ...base, end: at(17, 10) })).json().error.code).toBe('away_period_unknown');
    const unknown = await resolve(team.member, { ...base, activityId: 'nope' });
    expect([unknown.statusCode, unknown.json().error.fields.activityId]).toEqual([
      422,
      'This away activity no longer exists.',
    ]);
    expect((await call(team.member.cookie, 'DELETE', ws('/computer-time/away/resolutions'))).statusCode).toBe(422);
  });
});
