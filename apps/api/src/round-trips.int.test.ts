import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingStatements, createTestApp, type SignedUp, signUp, type TestApp } from '../test/harness.js';
import { membersRepository } from './modules/members/members.repository.js';

/*
 * Round trips to the database per request, counted on the real driver (begin and commit left out):
 * one query authenticates a request, and the time writes stay within their budget, so a change that
 * adds a query to every request or reads the same row twice fails here instead of in production.
 */

const log = countingStatements();
let t: TestApp;
let owner: SignedUp;
let member: SignedUp;
let ws: string;
let projectId: string;
let taskId: string;
let tagId: string;

beforeAll(async () => {
  t = await createTestApp({ JOBS_ENABLED: 'false' }, {}, { onQuery: log.onQuery });
  owner = await signUp(t.app);
  member = await signUp(t.app);
  await membersRepository.add(t.db, { workspaceId: owner.workspaceId, userId: member.userId, role: 'member' });
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  const post = async (url: string, payload: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url: `${ws}${url}`,
      payload,
      headers: { cookie: owner.cookie },
    });
    if (response.statusCode !== 201) throw new Error(`${url}: ${response.body}`);
    return response.json().id as string;
  };
  projectId = await post('/projects', { name: 'Harbour', isPublic: true });
  taskId = await post(`/projects/${projectId}/tasks`, { name: 'Design' });
  const listId = await post('/tag-lists', { name: 'Kind' });
  tagId = await post(`/tag-lists/${listId}/tags`, { name: 'urgent' });
  await t.app.services.background.drain();
});

afterAll(() => t?.close());

async function send(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  cookie: string,
  payload?: object,
): Promise<{ response: LightMyRequestResponse; statements: string[] }> {
  const { result, statements } = await log.during(() => t.app.inject({ method, url, payload, headers: { cookie } }));
  return { response: result, statements };
}

const reading = (table: string) => (sql: string) => new RegExp(`^select .* from "${table}"`, 'is').test(sql);
const touching = (table: string) => (sql: string) => sql.includes(`"${table}"`);

describe('round trips per request', () => {
  it('authenticates a workspace request with one query for session, user and membership', async () => {
    const { response, statements } = await send('GET', `${ws}/timer`, member.cookie);
    expect(response.statusCode).toBe(200);
    const auth = statements.filter(touching('sessions'));
    expect(auth).toHaveLength(1);
    expect(auth[0]).toContain('"users"');
    expect(auth[0]).toContain('"memberships"');
    expect(statements.filter(touching('users'))).toHaveLength(1);
    expect(statements.filter(touching('memberships'))).toHaveLength(1);
  });

  it('authenticates a request outside a workspace with one query', async () => {
    const { response, statements } = await send('GET', '/api/v1/me', member.cookie);
    expect(response.statusCode).toBeLessThan(500);
    expect(statements.filter(touching('sessions'))).toHaveLength(1);
  });

  it('slides the session with a write at most once a minute, not on every request', async () => {
    await t.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() - 5 * 60_000) })
      .where('user_id', '=', member.userId)
      .execute();
    const first = await send('GET', `${ws}/timer`, member.cookie);
    expect(first.statements.filter((sql) => /^update "sessions"/i.test(sql))).toHaveLength(1);
    const second = await send('GET', `${ws}/timer`, member.cookie);
    expect(second.statements.filter((sql) => /^update "sessions"/i.test(sql))).toHaveLength(0);
  });

  it('answers 404 for a workspace the user is not a member of, from the same one query', async () => {
    const stranger = await signUp(t.app);
    const { response, statements } = await send('GET', `${ws}/timer`, stranger.cookie);
    expect(response.statusCode).toBe(404);
    expect(statements).toHaveLength(1);
  });

  it('lists a week with its entries’ tags and breaks in one statement after authentication', async () => {
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const { response, statements } = await send('GET', `${ws}/time-entries?from=${from}&to=${to}`, member.cookie);
    expect(response.statusCode).toBe(200);
    expect(statements.filter((sql) => !/^update "sessions"/i.test(sql))).toHaveLength(2);
  });

  it('keeps each time write within its budget, reading the entry at most once', async () => {
    const budgets: Record<string, number> = {};
    const check = (name: string, r: { response: LightMyRequestResponse; statements: string[] }, status: number) => {
      expect(r.response.statusCode, r.response.body).toBe(status);
      budgets[name] = r.statements.length;
      expect(r.statements.filter(reading('time_entries')).length, name).toBeLessThanOrEqual(1);
    };
    const start = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const created = await send('POST', `${ws}/time-entries`, member.cookie, {
      start,
      duration: 3600,
      projectId,
      taskId,
      tagIds: [tagId],
      note: 'Sketches',
    });
    check('create', created, 201);
    const id = created.response.json().id as string;
    check('edit', await send('PATCH', `${ws}/time-entries/${id}`, member.cookie, { note: 'Final sketches' }), 200);
    check('start', await send('POST', `${ws}/timer/start`, member.cookie, { projectId, tagIds: [tagId] }), 201);
    check('stop', await send('POST', `${ws}/timer/stop`, member.cookie, {}), 200);
    // Authentication 1; create and start check the task, the project, the member's reach to it and
    // the tags; then the write, its tags, the audit row and the notify (it was 15 to 21 round trips).
    // Issue 17 adds two to each: the tag lists' rules (one statement for the tags and the project)
    // and the budget-alert job queued with the event (the budgets are read by the job, not here),
    // and one more for the approval and lock-date locks (one statement that also holds the owner's
    // membership row).
    const limits = { create: 13, edit: 9, start: 12, stop: 9 };
    for (const [name, limit] of Object.entries(limits)) expect(budgets[name], name).toBeLessThanOrEqual(limit);
  });

  it('reads the lists a project requires with the project when an entry is created, in no statement of their own', async () => {
    const start = new Date(Date.now() - 5 * 3_600_000).toISOString();
    const created = await send('POST', `${ws}/time-entries`, member.cookie, { start, duration: 600, projectId });
    expect(created.response.statusCode, created.response.body).toBe(201);
    const required = created.statements.filter((sql) => sql.includes('project_required_tag_lists'));
    expect(required).toHaveLength(1);
    expect(required[0]).toMatch(/ from "projects" where /);
  });

  it('stores an agent’s upload of 1,000 spans in three statements after authentication', async () => {
    const codes = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/agent/device-codes',
        payload: { name: 'laptop', platform: 'linux', agentVersion: '0.1.0' },
      })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/agent/device-codes/approve',
      payload: { userCode: codes.userCode, workspaceId: owner.workspaceId },
      headers: { cookie: member.cookie },
    });
    const { token } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/agent/device-token',
        payload: { deviceCode: codes.deviceCode },
      })
    ).json();
    const first = Date.now() - 3 * 3_600_000;
    const batch = (n: number) =>
      Array.from({ length: 1000 }, (_, i) => ({
        id: crypto.randomUUID(),
        kind: i % 50 === 49 ? 'away' : 'active',
        startedAt: new Date(first + (n * 1000 + i) * 5_000).toISOString(),
        endedAt: new Date(first + (n * 1000 + i) * 5_000 + 4_000).toISOString(),
        app: i % 50 === 49 ? null : `app-${i % 7}`,
        title: null,
        url: null,
        awayReason: i % 50 === 49 ? 'idle' : null,
      }));
    const upload = (spans: object[]) =>
      log.during(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/agent/spans',
          payload: { spans },
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    await upload(batch(0)); // the device's first use is also written
    const { result, statements } = await upload(batch(1));
    expect(result.json()).toEqual({ accepted: 1000, duplicates: 0 });
    // The device with its person, then: the device locked with the settings and time zone; the
    // overlap check and the insert; the rollups.
    expect(statements).toHaveLength(4);
    expect(statements.filter((sql) => /insert into activity_spans/.test(sql))).toHaveLength(1);
    expect(statements.filter((sql) => /activity_daily/.test(sql))).toHaveLength(1);
  });
});
