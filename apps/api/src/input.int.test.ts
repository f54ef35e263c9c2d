import { describe, expect, it } from 'vitest';
import { sendCsv, signUp, uniqueEmail, useTestApp } from '../test/harness.js';

const ctx = useTestApp();
const call: typeof ctx.call = (...args) => ctx.call(...args);

/** Rows of every table that a refused request must leave alone. */
async function counts(): Promise<Record<string, number>> {
  const tables = ['users', 'projects', 'tasks', 'clients', 'tags', 'time_entries', 'audit_log', 'outbox', 'groups'];
  const result: Record<string, number> = {};
  for (const table of tables) {
    const row = await ctx.t.db
      .selectFrom(table as 'users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    result[table] = Number(row.n);
  }
  return result;
}

/** Runs a request that must be refused with `status`, and checks it wrote nothing. */
async function expectRefused(
  status: number,
  request: () => ReturnType<typeof call>,
): Promise<{ code: string; message: string; fields?: Record<string, string> }> {
  const before = await counts();
  const response = await request();
  expect(response.statusCode, response.body).toBe(status);
  expect(await counts()).toEqual(before);
  return response.json().error;
}

const NUL = 'Design\u0000review';
const LONE_SURROGATE = 'Design \ud800 review';

describe('text that PostgreSQL cannot store', () => {
  it('is refused with a 422 naming the field, in bodies, queries and nested fields alike', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    for (const bad of [NUL, LONE_SURROGATE]) {
      const project = await expectRefused(422, () => call('POST', `${ws}/projects`, owner.cookie, { name: bad }));
      expect(project.fields).toEqual({ name: expect.stringContaining('cannot be stored') });
      await expectRefused(422, () => call('POST', `${ws}/clients`, owner.cookie, { name: 'Acme', note: bad }));
      await expectRefused(422, () =>
        call('POST', `${ws}/time-entries`, owner.cookie, { start: '2026-11-20T09:00:00Z', duration: 600, note: bad }),
      );
      const nested = await expectRefused(422, () =>
        call('POST', `${ws}/projects`, owner.cookie, { name: 'Fine', keywords: ['ok', bad] }),
      );
      expect(Object.keys(nested.fields ?? {})).toEqual(['keywords.1']);
      await expectRefused(422, () =>
        call('POST', '/api/v1/auth/signup', undefined, { email: `a${bad}@example.com`, password: 'Tidal-wave-42' }),
      );
    }
    for (const path of ['members', 'projects', 'clients', 'tags']) {
      const error = await expectRefused(422, () =>
        call('GET', `${ws}/${path}?search=${encodeURIComponent(NUL)}`, owner.cookie),
      );
      expect(error.fields).toEqual({ search: expect.stringContaining('cannot be stored') });
    }
  });

  it('is refused in an external id and in a JSON key', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    await expectRefused(422, () =>
      call('PATCH', `${ws}/members/${owner.userId}`, owner.cookie, { externalId: `E-${NUL}` }),
    );
    await expectRefused(422, () => call('POST', `${ws}/projects`, owner.cookie, { name: 'Ok', 'x\u0000': 1 }));
  });

  it('keeps names with emoji, accents and other scripts as they were typed', async () => {
    const owner = await signUp(ctx.t.app);
    const name = '  Café 🌞 дизайн 設計  ';
    const response = await call('POST', `/api/v1/workspaces/${owner.workspaceId}/projects`, owner.cookie, { name });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().name).toBe(name.trim());
  });
});

describe('bodies nested deeper than any request of ours', () => {
  it('are refused with a 400 before validation', async () => {
    const owner = await signUp(ctx.t.app);
    for (const depth of [17, 200_000]) {
      // Written by hand: JSON.stringify itself runs out of stack on such a value.
      const payload = `{"name":"Deep","extra":${'['.repeat(depth)}"x"${']'.repeat(depth)}}`;
      const error = await expectRefused(400, () =>
        ctx.t.app.inject({
          method: 'POST',
          url: `/api/v1/workspaces/${owner.workspaceId}/projects`,
          headers: { cookie: owner.cookie, 'content-type': 'application/json' },
          payload,
        }),
      );
      expect(error.code).toBe('too_deep');
    }
  });
});

describe('dates and durations', () => {
  it('refuses instants outside the years 1970 to 9999, in filters and in entries', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    for (const from of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '1900-01-01T00:00:00Z']) {
      const error = await expectRefused(422, () =>
        call('GET', `${ws}/time-entries?from=${encodeURIComponent(from)}`, owner.cookie),
      );
      expect(error.fields?.from).toBe('Enter a date between the years 1970 and 9999.');
      await expectRefused(422, () => call('POST', `${ws}/time-entries`, owner.cookie, { start: from, duration: 60 }));
    }
    expect((await call('GET', `${ws}/time-entries?from=1970-01-01T00:00:00Z`, owner.cookie)).statusCode).toBe(200);
  });

  it('refuses a duration past 168 hours, the longest entry a workspace may allow', async () => {
    const owner = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    for (const duration of [9007199254740991, 604801, '10000h']) {
      const error = await expectRefused(422, () =>
        call('POST', `${ws}/time-entries`, owner.cookie, { start: '2026-11-20T09:00:00Z', duration }),
      );
      expect(error.fields?.duration).toBe('A duration can be at most 168 hours.');
    }
  });

  it('refuses a page cursor that does not point at an entry', async () => {
    const owner = await signUp(ctx.t.app);
    for (const raw of ['garbage', '2026-11-20T09:00:00.000Z|not-a-uuid', '0000-01-01T00:00:00.000Z|0']) {
      const cursor = Buffer.from(raw).toString('base64url');
      const error = await expectRefused(422, () =>
        call('GET', `/api/v1/workspaces/${owner.workspaceId}/time-entries?cursor=${cursor}`, owner.cookie),
      );
      expect(error.fields?.cursor).toBe('This page link is not valid.');
    }
  });

  it('reports an imported row dated year 0000 or on a day that does not exist as a row error', async () => {
    const owner = await signUp(ctx.t.app);
    const csv = [
      'Email,Project,Start date,Start time,Duration',
      ...['0000-01-01', '2026-02-30'].map((d) => `${owner.email},Site,${d},09:00,01:00:00`),
    ].join('\n');
    const response = await sendCsv(
      ctx.t.app,
      `/api/v1/workspaces/${owner.workspaceId}/imports?source=toggl`,
      owner.cookie,
      csv,
    );
    expect(response.statusCode, response.body).toBe(201);
    const errors = response.json().rows.map((r: { error: string | null }) => r.error);
    expect(errors).toEqual([
      'The date “0000-01-01” is not between the years 1970 and 9999.',
      'The date “2026-02-30” is not understood.',
    ]);
  });
});

describe('changes that change nothing', () => {
  it('PATCH of a member with no known field is a 422, not an empty update', async () => {
    const owner = await signUp(ctx.t.app);
    const member = await signUp(ctx.t.app, uniqueEmail('member'));
    const invite = await call('POST', `/api/v1/workspaces/${owner.workspaceId}/invites`, owner.cookie, {
      emails: [member.email],
    });
    expect(invite.statusCode, invite.body).toBe(201);
    for (const body of [{}, { nickname: 'x' }]) {
      const error = await expectRefused(422, () =>
        call('PATCH', `/api/v1/workspaces/${owner.workspaceId}/members/${owner.userId}`, owner.cookie, body),
      );
      expect(error.message).toBe('Nothing to change: send a role, a status or an external id.');
    }
  });

  it('taking someone out of a group they are not in is a 404 and writes no audit entry', async () => {
    const owner = await signUp(ctx.t.app);
    const stranger = await signUp(ctx.t.app);
    const ws = `/api/v1/workspaces/${owner.workspaceId}`;
    const group = (await call('POST', `${ws}/groups`, owner.cookie, { name: 'Design' })).json();
    for (const userId of [owner.userId, stranger.userId, '0190a4c2-0000-7000-8000-000000000000']) {
      const error = await expectRefused(404, () =>
        call('DELETE', `${ws}/groups/${group.id}/members/${userId}`, owner.cookie),
      );
      expect(error.message).toMatch(/not in the group|not found/i);
    }
    const added = await call('PUT', `${ws}/groups/${group.id}/members/${owner.userId}`, owner.cookie);
    expect(added.statusCode, added.body).toBe(200);
    // Adding again changes nothing and records nothing.
    await expectRefused(200, () => call('PUT', `${ws}/groups/${group.id}/members/${owner.userId}`, owner.cookie));
    expect((await call('DELETE', `${ws}/groups/${group.id}/members/${owner.userId}`, owner.cookie)).statusCode).toBe(
      200,
    );
  });
});
