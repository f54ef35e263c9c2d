import type { Role } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { joinWorkspace, type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';

/**
 * The reports API: who sees whose time and money, each filter, the day split, the matrix, the
 * Detailed report's keyset pages, marking entries invoiced, bad input and other workspaces.
 */
const ctx = useTestApp();
let owner: SignedUp;
let manager: SignedUp;
let memberA: SignedUp; // in the manager's group
let memberB: SignedUp; // outside it
let ws: string;
const { ok, call: as } = workspaceCalls(ctx, () => ws);
const join = (role: Role) => joinWorkspace(ctx.t, owner.workspaceId, role);
const ids = {} as Record<'alpha' | 'beta' | 'group' | 't1' | 't2' | 'entryA' | 'entryB' | 'entryM', string>;

const RANGE = 'preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC';
const summary = (who: SignedUp, q = '') => as(who, 'GET', `/reports/summary?${RANGE}${q}`);
const total = async (who: SignedUp, q = '') => {
  const response = await summary(who, q);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().totals.trackedSeconds as number;
};

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  manager = await join('manager');
  memberA = await join('member');
  memberB = await join('member');
  ids.alpha = (await ok(owner, 'POST', '/projects', { name: 'Alpha', isPublic: true })).id;
  ids.beta = (await ok(owner, 'POST', '/projects', { name: 'Beta', isPublic: true })).id;
  ids.group = (await ok(owner, 'POST', '/groups', { name: 'Team' })).id;
  await ok(owner, 'PUT', `/groups/${ids.group}/members/${manager.userId}`);
  await ok(owner, 'PUT', `/groups/${ids.group}/members/${memberA.userId}`);
  const list = await ok(owner, 'POST', '/tag-lists', { name: 'Kinds' });
  ids.t1 = (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'T1' })).id;
  ids.t2 = (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'T2' })).id;
  const entry = async (who: SignedUp, body: object) =>
    (await ok(owner, 'POST', '/time-entries', { userId: who.userId, ...body })).id as string;
  ids.entryA = await entry(memberA, {
    start: '2026-11-02T09:00:00Z',
    end: '2026-11-02T11:00:00Z',
    projectId: ids.alpha,
    tagIds: [ids.t1],
    billable: true,
    note: 'Design review',
  });
  ids.entryB = await entry(memberB, {
    start: '2026-11-02T10:00:00Z',
    end: '2026-11-02T11:30:00Z',
    projectId: ids.beta,
    tagIds: [ids.t1, ids.t2],
  });
  ids.entryM = await entry(manager, { start: '2026-11-03T22:00:00Z', end: '2026-11-04T02:00:00Z', note: 'Late call' });
  await ctx.t.db
    .updateTable('time_entries')
    .set({ billable_rate_cents: 10_000, cost_rate_cents: 4_000 })
    .where('id', '=', ids.entryA)
    .execute();
  await ctx.t.db.updateTable('time_entries').set({ cost_rate_cents: 3_000 }).where('id', '=', ids.entryM).execute();
});

describe('summary', () => {
  it('groups nested with subtotals; an entry with two tags counts under each, once in the totals', async () => {
    const report = (await summary(owner, '&groupBy=project,tag&measures=trackedSeconds,entryCount')).json();
    expect(report.totals).toEqual({ trackedSeconds: 7200 + 5400 + 14400, entryCount: 3 });
    const byProject = Object.fromEntries(
      report.groups.map(
        (g: {
          key: { label: string };
          measures: object;
          children: { key: { label: string }; measures: { trackedSeconds: number } }[];
        }) => [
          g.key.label,
          { ...g.measures, tags: Object.fromEntries(g.children.map((c) => [c.key.label, c.measures.trackedSeconds])) },
        ],
      ),
    );
    expect(byProject).toEqual({
      Alpha: { trackedSeconds: 7200, entryCount: 1, tags: { T1: 7200 } },
      Beta: { trackedSeconds: 5400, entryCount: 1, tags: { T1: 5400, T2: 5400 } },
      'Without project': { trackedSeconds: 14400, entryCount: 1, tags: { 'Without tag': 14400 } },
    });
  });

  it('sends only the first levels when asked for a depth, with the same subtotals and totals', async () => {
    const whole = await ok(owner, 'GET', `/reports/summary?${RANGE}&groupBy=project,user`);
    const first = await ok(owner, 'GET', `/reports/summary?${RANGE}&groupBy=project,user&depth=1`);
    expect(first.totals).toEqual(whole.totals);
    expect(first.groups).toEqual(whole.groups.map(({ children: _below, ...g }: { children?: unknown }) => g));
    expect(whole.groups.some((g: { children?: unknown[] }) => (g.children?.length ?? 0) > 0)).toBe(true);
    const bad = await as(owner, 'GET', `/reports/summary?${RANGE}&groupBy=project&depth=4`);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('at most three levels');
  });

  it('splits an entry crossing midnight into the days of the viewer time zone', async () => {
    const days = async (zone: string) =>
      Object.fromEntries(
        (
          await ok(
            owner,
            'GET',
            `/reports/summary?preset=custom&from=2026-11-02&to=2026-11-04&timeZone=${zone}&groupBy=day`,
          )
        ).groups.map((g: { key: { key: string }; measures: { trackedSeconds: number } }) => [
          g.key.key,
          g.measures.trackedSeconds,
        ]),
      );
    expect(await days('UTC')).toEqual({ '2026-11-02': 12600, '2026-11-03': 7200, '2026-11-04': 7200 });
    // Kathmandu is UTC+5:45: 22:00Z is 03:45 on the 4th, so the manager's 4 hours all fall on the 4th.
    expect(await days('Asia/Kathmandu')).toEqual({ '2026-11-02': 12600, '2026-11-04': 14400 });
  });

  it('applies each filter', async () => {
    expect(await total(owner, `&projects=${ids.alpha}`)).toBe(7200);
    expect(await total(owner, `&projects=${ids.alpha}&withoutProject=true`)).toBe(7200 + 14400);
    expect(await total(owner, '&withoutProject=true')).toBe(14400);
    expect(await total(owner, `&tags=${ids.t1},${ids.t2}&tagMode=all`)).toBe(5400);
    expect(await total(owner, `&tags=${ids.t2}&tagMode=any`)).toBe(5400);
    expect(await total(owner, `&tags=${ids.t1}&tagMode=none`)).toBe(14400);
    expect(await total(owner, '&withoutTag=true')).toBe(14400);
    expect(await total(owner, '&billable=true')).toBe(7200);
    expect(await total(owner, '&billable=false')).toBe(5400 + 14400);
    expect(await total(owner, '&description=REVIEW')).toBe(7200);
    expect(await total(owner, `&users=${memberB.userId}`)).toBe(5400);
    expect(await total(owner, `&groups=${ids.group}`)).toBe(7200 + 14400);
    expect(await total(owner, '&roundingMode=up&roundingMinutes=60')).toBe(7200 + 7200 + 7200 + 7200);
  });

  it('shows members their own time, managers their people, owners everyone', async () => {
    expect(await total(owner)).toBe(27000);
    expect(await total(manager)).toBe(7200 + 14400);
    expect(await total(memberA)).toBe(7200);
    expect(await total(memberB)).toBe(5400);
    // A member filtering by someone else still sees only their own time.
    expect(await total(memberB, `&users=${memberA.userId}`)).toBe(0);
  });

  it('gives amounts only to whom money access allows, and refuses the rest with a clear 403', async () => {
    const money = '&measures=billableAmount,costAmount,margin';
    expect((await summary(owner, money)).json().totals).toEqual({
      billableAmount: 20_000,
      costAmount: 8_000 + 12_000,
      margin: 20_000 - 20_000,
    });
    expect((await summary(manager, '&measures=billableAmount')).json().totals).toEqual({ billableAmount: 20_000 });
    const refused = await summary(manager, '&measures=costAmount');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'money_forbidden', message: expect.stringMatching(/costs/) });
    expect((await summary(memberA, '&measures=billableAmount')).statusCode).toBe(403);
    expect((await summary(memberA, '&measures=margin')).statusCode).toBe(403);
  });

  it('counts a disabled member in every total when the workspace hides disabled users from report lists', async () => {
    // The setting hides names from pickers and lists; totals count every entry the viewer may see
    // (issue 30: the Billable report said less than the invoice issued for the same time).
    const reports = [
      `/reports/summary?${RANGE}&groupBy=user&measures=trackedSeconds,billableSeconds,billableAmount,invoicedAmount,uninvoicedAmount`,
      `/reports/summary?${RANGE}&groupBy=project,user`,
      `/reports/matrix?${RANGE}&rows=user&columns=day`,
      `/reports/detailed?${RANGE}&limit=100`,
    ];
    const read = async () => {
      const answers = [];
      for (const report of reports) answers.push(await ok(owner, 'GET', report));
      return answers;
    };
    const before = await read();
    const setHidden = (hidden: boolean) =>
      ctx.t.db
        .updateTable('workspaces')
        .set({ hide_disabled_users: hidden })
        .where('id', '=', owner.workspaceId)
        .execute();
    const setStatus = (status: 'active' | 'disabled') =>
      ctx.t.db
        .updateTable('memberships')
        .set({ status })
        .where('user_id', '=', memberA.userId)
        .where('workspace_id', '=', owner.workspaceId)
        .execute();
    await setStatus('disabled');
    await setHidden(true);
    try {
      const after = await read();
      expect(after).toEqual(before);
      // Grouped by person, their row stays, so the rows add up to the totals.
      const [billable] = after;
      const row = billable.groups.find((g: { key: { key: string } }) => g.key.key === memberA.userId);
      expect(row.measures).toMatchObject({ trackedSeconds: 7200, billableAmount: 20_000 });
      expect(billable.totals.billableAmount).toBe(20_000);
      expect(after[3].items.map((e: { id: string }) => e.id)).toContain(ids.entryA);
    } finally {
      await setHidden(false);
      await setStatus('active');
    }
  });

  it('counts a running timer up to now', async () => {
    const now = Date.now();
    const start = new Date(now - 1800_000);
    const id = newId();
    await ctx.t.db
      .insertInto('time_entries')
      .values({
        id,
        workspace_id: owner.workspaceId,
        user_id: owner.userId,
        start_at: start,
        created_by_user_id: owner.userId,
      })
      .execute();
    const today = (await ok(owner, 'GET', '/reports/summary?preset=today&timeZone=UTC')).totals.trackedSeconds;
    const sinceMidnight = (now - Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00Z`)) / 1000;
    expect(today).toBeGreaterThanOrEqual(Math.floor(Math.min(1800, sinceMidnight)));
    expect(today).toBeLessThan(1800 + 60);
    await ctx.t.db.deleteFrom('time_entries').where('id', '=', id).execute();
  });
});

describe('matrix', () => {
  it('gives rows by columns with row, column and grand totals', async () => {
    const m = await ok(owner, 'GET', `/reports/matrix?${RANGE}&rows=user&columns=day`);
    expect(m.totals.trackedSeconds).toBe(27000);
    const row = (userId: string) => m.rows.find((r: { key: { key: string } }) => r.key.key === userId);
    expect(row(manager.userId).cells).toEqual({
      '2026-11-03': expect.objectContaining({ trackedSeconds: 7200 }),
      '2026-11-04': expect.objectContaining({ trackedSeconds: 7200 }),
    });
    expect(row(manager.userId).totals.trackedSeconds).toBe(14400);
    expect(
      m.columns.map((c: { key: { key: string }; totals: { trackedSeconds: number } }) => [
        c.key.key,
        c.totals.trackedSeconds,
      ]),
    ).toEqual([
      ['2026-11-02', 12600],
      ['2026-11-03', 7200],
      ['2026-11-04', 7200],
    ]);
  });
});

describe('detailed', () => {
  it('pages through every entry with a cursor, newest first, and by duration', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await ok(
        owner,
        'GET',
        `/reports/detailed?${RANGE}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([ids.entryM, ids.entryB, ids.entryA]);
    const byDuration = await ok(owner, 'GET', `/reports/detailed?${RANGE}&sort=duration&order=asc&limit=2`);
    expect(byDuration.items.map((i: { id: string }) => i.id)).toEqual([ids.entryB, ids.entryA]);
    const next = await ok(
      owner,
      'GET',
      `/reports/detailed?${RANGE}&sort=duration&order=asc&limit=2&cursor=${byDuration.nextCursor}`,
    );
    expect(next.items.map((i: { id: string }) => i.id)).toEqual([ids.entryM]);
  });

  it('pages by description with cursors that carry no note text, and refuses one whose entry is gone', async () => {
    const seen: string[] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await ok(
        owner,
        'GET',
        `/reports/detailed?${RANGE}&sort=description&order=asc&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
      if (cursor) cursors.push(Buffer.from(cursor, 'base64url').toString('utf8'));
    } while (cursor);
    expect(seen).toEqual([ids.entryB, ids.entryA, ids.entryM]);
    expect(cursors).toHaveLength(2);
    for (const text of cursors) expect(text).not.toMatch(/Design review|Late call/);
    const gone = Buffer.from(JSON.stringify(['', '2026-11-02T09:00:00.000Z', newId()])).toString('base64url');
    const response = await as(owner, 'GET', `/reports/detailed?${RANGE}&sort=description&cursor=${gone}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/first page/);
  });

  it('shows amounts per row only where money access reaches', async () => {
    const mine = await ok(manager, 'GET', `/reports/detailed?${RANGE}`);
    const a = mine.items.find((i: { id: string }) => i.id === ids.entryA);
    expect(a).toMatchObject({ seconds: 7200, billableAmount: 20_000, costAmount: null, userName: expect.any(String) });
    expect(mine.items).toHaveLength(2);
  });

  it('refuses a cursor it did not write', async () => {
    const response = await as(owner, 'GET', `/reports/detailed?${RANGE}&cursor=bm9wZQ`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/first page/);
  });
});

describe('invoiced', () => {
  it('marks entries by ids or by filter, for those who may edit that time', async () => {
    expect(await ok(owner, 'POST', '/reports/invoiced', { invoiced: true, ids: [ids.entryA] })).toEqual({ updated: 1 });
    expect(await total(owner, '&invoiced=true')).toBe(7200);
    expect((await as(memberB, 'POST', '/reports/invoiced', { invoiced: true, ids: [ids.entryA] })).statusCode).toBe(
      404,
    );
    expect((await as(manager, 'POST', '/reports/invoiced', { invoiced: true, ids: [ids.entryB] })).statusCode).toBe(
      404,
    );
    // The manager's filter reaches their own entry and memberA's (already invoiced).
    expect(await ok(manager, 'POST', '/reports/invoiced', { invoiced: true, filter: RANGE })).toEqual({ updated: 1 });
    expect(await total(owner, '&invoiced=false')).toBe(5400);
    expect(await ok(owner, 'POST', '/reports/invoiced', { invoiced: false, filter: RANGE })).toEqual({ updated: 2 });
    expect(await total(owner, '&invoiced=true')).toBe(0);
    const bad = await as(owner, 'POST', '/reports/invoiced', { invoiced: true, filter: 'groupBy=colour' });
    expect(bad.statusCode).toBe(422);
  });

  it('keeps an entry invoiced through a delete and its Undo', async () => {
    const entry = (
      await ok(owner, 'POST', '/time-entries', { start: '2026-11-03T08:00:00Z', end: '2026-11-03T08:30:00Z' })
    ).id as string;
    const invoicedOnly = `&invoiced=true&users=${owner.userId}`;
    await ok(owner, 'POST', '/reports/invoiced', { invoiced: true, ids: [entry] });
    expect(await total(owner, invoicedOnly)).toBe(1800);
    await ok(owner, 'POST', '/time-entries/bulk-delete', { ids: [entry] });
    expect(await total(owner, invoicedOnly)).toBe(0);
    await ok(owner, 'POST', '/time-entries/restore', { ids: [entry] });
    expect(await total(owner, invoicedOnly)).toBe(1800);
    const detailed = await ok(owner, 'GET', `/reports/detailed?${RANGE}${invoicedOnly}`);
    expect(detailed.items.map((e: { id: string; invoiced: boolean }) => [e.id, e.invoiced])).toEqual([[entry, true]]);
  });
});

describe('bad input and other workspaces', () => {
  it('names the problem', async () => {
    for (const [q, message] of [
      ['groupBy=colour', /Group by one of/],
      ['preset=custom&from=2026-11-05&to=2026-11-01', /ends before it starts/],
      ['timeZone=Nowhere/Land', /Unknown time zone/],
      ['measures=hours', /Measures are among/],
    ] as const) {
      const response = await as(owner, 'GET', `/reports/summary?${q}`);
      expect(response.statusCode, q).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, q).toBeLessThan(500);
      expect(response.body, q).toMatch(message);
    }
  });

  it('takes from and to without a preset as that range, and refuses them beside another preset', async () => {
    for (const path of ['summary', 'detailed', 'matrix']) {
      const given = await as(owner, 'GET', `/reports/${path}?from=2026-11-02&to=2026-11-04&timeZone=UTC`);
      expect(given.statusCode, given.body).toBe(200);
      expect(given.json().range).toMatchObject({ from: '2026-11-02', to: '2026-11-04' });
      const both = await as(owner, 'GET', `/reports/${path}?preset=lastMonth&from=2026-11-02&to=2026-11-04`);
      expect(both.statusCode).toBe(422);
      expect(both.body).toMatch(/leave preset out/);
    }
    // The same figures as the custom range spelled out.
    const spelled = (await summary(owner)).json();
    expect((await as(owner, 'GET', '/reports/summary?from=2026-11-02&to=2026-11-04&timeZone=UTC')).json()).toEqual(
      spelled,
    );
    const exported = await as(owner, 'GET', '/reports/export?kind=summary&format=csv&from=2026-11-02&to=2026-11-04');
    expect(exported.statusCode, exported.body).toBe(200);
  });

  it('answers 404 to someone of another workspace', async () => {
    const outsider = await signUp(ctx.t.app);
    for (const path of ['summary', 'detailed', 'matrix'])
      expect((await ctx.call('GET', `${ws}/reports/${path}`, outsider.cookie)).statusCode).toBe(404);
    expect((await ctx.call('GET', `${ws}/reports/summary`)).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents every report route with its query', async () => {
    const spec = (await ctx.t.app.inject('/api/docs/json')).json();
    for (const path of ['summary', 'detailed', 'matrix'])
      expect(
        spec.paths[`/api/v1/workspaces/{workspaceId}/reports/${path}`].get.parameters.map(
          (p: { name: string }) => p.name,
        ),
      ).toContain('preset');
    expect(spec.paths['/api/v1/workspaces/{workspaceId}/reports/invoiced'].post).toBeDefined();
  });
});
