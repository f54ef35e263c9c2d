import { type Role, SHARE_SECRET_HEADER } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  joinWorkspace,
  type SignedUp,
  signUp,
  useLoggedTestApp,
  useTestApp,
  workspaceCalls,
} from '../../../test/harness.js';
import { hashSecret } from '../../platform/ids.js';

/**
 * Saved reports and public links: who may see, change and delete a saved report; the public page
 * runs the report as the link's creator with their access of now (a member's link never shows
 * others' time), leaves costs out unless the link includes them, and stops at revocation, expiry,
 * or when the creator is disabled; the secret is kept hashed and never reaches the request log.
 */
const ctx = useTestApp();
let owner: SignedUp;
let admin: SignedUp;
let manager: SignedUp;
let member: SignedUp;
let other: SignedUp;
let outsider: SignedUp;
let ws: string;
let alpha: string;
const { ok, call } = workspaceCalls(ctx, () => ws);
const join = (role: Role) => joinWorkspace(ctx.t, owner.workspaceId, role);
const RANGE = 'preset=custom&from=2026-11-02&to=2026-11-04&timeZone=UTC';

let named = 0;
const save = (who: SignedUp, body: Partial<{ name: string; kind: string; query: string; visibility: string }> = {}) =>
  ok(who, 'POST', '/saved-reports', {
    name: `Report ${++named}`,
    kind: 'summary',
    query: `${RANGE}&groupBy=user`,
    ...body,
  });
const share = (who: SignedUp, reportId: string, body: object = {}) =>
  ok(who, 'POST', `/saved-reports/${reportId}/links`, body);
const view = (linkId: string, secret?: string, cursor?: string) =>
  ctx.t.app.inject({
    method: 'GET',
    url: `/api/v1/shared-reports/${linkId}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
    headers: secret === undefined ? {} : { [SHARE_SECRET_HEADER]: secret },
  });

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  admin = await join('admin');
  manager = await join('manager');
  member = await join('member');
  other = await join('member');
  outsider = await signUp(ctx.t.app);
  alpha = (await ok(owner, 'POST', '/projects', { name: 'Alpha', isPublic: true })).id;
  const entry = (who: SignedUp, start: string, end: string) =>
    ok(owner, 'POST', '/time-entries', { userId: who.userId, start, end, projectId: alpha, billable: true });
  await entry(member, '2026-11-02T09:00:00Z', '2026-11-02T11:00:00Z');
  await entry(other, '2026-11-02T09:00:00Z', '2026-11-02T12:00:00Z');
  await entry(owner, '2026-11-03T09:00:00Z', '2026-11-03T10:00:00Z');
  await ctx.t.db
    .updateTable('time_entries')
    .set({ billable_rate_cents: 10_000, cost_rate_cents: 4_000 })
    .where('workspace_id', '=', owner.workspaceId)
    .execute();
});

describe('saved reports', () => {
  it('saves a view, lists it to its owner only while private, to everyone once shared', async () => {
    const saved = await save(member, { name: 'My week', query: `?${RANGE}&groupBy=project&chart=donut&cursor=abc` });
    expect(saved).toMatchObject({ name: 'My week', kind: 'summary', visibility: 'private', canEdit: true });
    expect(saved.query).toContain('chart=donut');
    expect(saved.query).not.toContain('cursor');
    const names = async (who: SignedUp) =>
      (await ok(who, 'GET', '/saved-reports')).items.map((r: { name: string }) => r.name);
    expect(await names(member)).toContain('My week');
    expect(await names(other)).not.toContain('My week');
    expect((await call(other, 'GET', `/saved-reports/${saved.id}`)).statusCode).toBe(404);
    await ok(member, 'PATCH', `/saved-reports/${saved.id}`, { visibility: 'workspace' });
    expect(await names(other)).toContain('My week');
    const seen = await ok(other, 'GET', `/saved-reports/${saved.id}`);
    expect(seen).toMatchObject({ canEdit: false, canDelete: false, ownerUserId: member.userId });
  });

  it('refuses a second report of the same name (any case) by the same owner, not by another', async () => {
    await save(member, { name: 'Monthly' });
    const again = await call(member, 'POST', '/saved-reports', { name: 'MONTHLY', kind: 'summary', query: RANGE });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'name_taken', fields: { name: expect.any(String) } });
    await save(other, { name: 'Monthly' });
  });

  it('checks the kind, the query and the name with clear messages', async () => {
    const bad = async (body: object) => {
      const response = await call(member, 'POST', '/saved-reports', { name: 'X', kind: 'summary', query: '', ...body });
      expect(response.statusCode, response.body).toBe(422);
      return response.json().error.message as string;
    };
    expect(await bad({ kind: 'invoices' })).toMatch(/The report is one of/);
    expect(await bad({ query: 'preset=custom&from=2026-01-01' })).toMatch(/custom range needs from and to/);
    expect(await bad({ query: 'groupBy=planet' })).toMatch(/Group by one of/);
    expect(await bad({ name: '   ' })).toMatch(/Give the report a name/);
  });

  it('lets only the owner change it; owners and admins delete a shared one, not a private one', async () => {
    const shared = await save(member, { visibility: 'workspace' });
    expect((await call(manager, 'PATCH', `/saved-reports/${shared.id}`, { name: 'Mine now' })).statusCode).toBe(403);
    expect((await call(admin, 'PATCH', `/saved-reports/${shared.id}`, { name: 'Mine now' })).statusCode).toBe(403);
    expect((await call(manager, 'DELETE', `/saved-reports/${shared.id}`)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', `/saved-reports/${shared.id}`)).statusCode).toBe(204);
    const hidden = await save(member);
    expect((await call(owner, 'DELETE', `/saved-reports/${hidden.id}`)).statusCode).toBe(404);
    expect((await call(member, 'DELETE', `/saved-reports/${hidden.id}`)).statusCode).toBe(204);
    expect((await call(member, 'GET', `/saved-reports/${hidden.id}`)).statusCode).toBe(404);
  });

  it('answers 404 to another workspace and to malformed ids', async () => {
    const saved = await save(owner, { visibility: 'workspace' });
    expect((await call(outsider, 'GET', `/saved-reports/${saved.id}`)).statusCode).toBe(404);
    const theirs = `/api/v1/workspaces/${outsider.workspaceId}/saved-reports/${saved.id}`;
    expect((await call(outsider, 'GET', theirs)).statusCode).toBe(404);
    expect((await call(outsider, 'DELETE', theirs)).statusCode).toBe(404);
    expect((await call(owner, 'GET', '/saved-reports/not-an-id')).statusCode).toBe(404);
  });
});

describe('public links', () => {
  it('shows the same figures as the report, without signing in, and keeps only the hash of the secret', async () => {
    const saved = await save(owner, { query: `${RANGE}&projects=${alpha}&groupBy=user` });
    const link = await share(owner, saved.id);
    expect(link.secret).toMatch(/^[\w-]{40,}$/);
    const row = await ctx.t.db
      .selectFrom('report_links')
      .selectAll()
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashSecret(link.secret));
    expect(JSON.stringify(row)).not.toContain(link.secret);
    const direct = await ok(owner, 'GET', `/reports/summary?${RANGE}&projects=${alpha}&groupBy=user`);
    const response = await view(link.id, link.secret);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const shared = response.json();
    expect(shared).toMatchObject({ name: saved.name, kind: 'summary', currency: 'USD', moneyHidden: false });
    expect(shared.report.engine).toBe('summary');
    expect(shared.report.view.totals.trackedSeconds).toBe(direct.totals.trackedSeconds);
    expect(shared.report.view.totals.trackedSeconds).toBe(6 * 3600);
    const listed = await ok(owner, 'GET', `/saved-reports/${saved.id}/links`);
    expect(listed.items[0]).toMatchObject({ id: link.id, status: 'active' });
    expect(listed.items[0].lastViewedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(link.secret);
  });

  it("never shows others' time on a member's link", async () => {
    const saved = await save(member, { query: RANGE });
    const link = await share(member, saved.id);
    const shared = (await view(link.id, link.secret)).json();
    expect(shared.report.view.totals.trackedSeconds).toBe(2 * 3600);
  });

  it('answers one 404 to a wrong, missing or query-string secret and to unknown ids', async () => {
    const saved = await save(owner, { query: RANGE });
    const link = await share(owner, saved.id);
    for (const response of [
      await view(link.id, `${link.secret.slice(0, -1)}x`),
      await view(link.id),
      await ctx.t.app.inject({ method: 'GET', url: `/api/v1/shared-reports/${link.id}?secret=${link.secret}` }),
      await view('0190a000-0000-7000-8000-000000000000', link.secret),
      await view('nope', link.secret),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({
        code: 'link_not_found',
        message: expect.stringMatching(/expired/),
      });
    }
  });

  it('stops working once revoked (revoking twice is harmless), and once expired', async () => {
    const saved = await save(owner, { query: RANGE });
    const link = await share(owner, saved.id, { expiresAt: '2099-01-01T00:00:00Z' });
    expect(link.expiresAt).toBe('2099-01-01T00:00:00.000Z');
    expect((await view(link.id, link.secret)).statusCode).toBe(200);
    const revoked = await ok(owner, 'POST', `/saved-reports/${saved.id}/links/${link.id}/revoke`);
    expect(revoked.status).toBe('revoked');
    expect((await call(owner, 'POST', `/saved-reports/${saved.id}/links/${link.id}/revoke`)).json().revokedAt).toBe(
      revoked.revokedAt,
    );
    expect((await view(link.id, link.secret)).statusCode).toBe(404);

    const expiring = await share(owner, saved.id, { expiresAt: '2099-01-01T00:00:00Z' });
    await ctx.t.db
      .updateTable('report_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    expect((await view(expiring.id, expiring.secret)).statusCode).toBe(404);
    const statuses = (await ok(owner, 'GET', `/saved-reports/${saved.id}/links`)).items.map(
      (l: { status: string }) => l.status,
    );
    expect(statuses.sort()).toEqual(['expired', 'revoked']);
    const past = await call(owner, 'POST', `/saved-reports/${saved.id}/links`, { expiresAt: '2020-01-01T00:00:00Z' });
    expect([past.statusCode, past.json().error.fields]).toEqual([422, { expiresAt: expect.stringMatching(/future/) }]);
  });

  it('leaves costs out unless an owner or admin chose to include them', async () => {
    const saved = await save(admin, { query: `${RANGE}&measures=trackedSeconds,costAmount,margin,billableAmount` });
    const plain = (await view(...secretOf(await share(admin, saved.id)))).json();
    expect(Object.keys(plain.report.view.totals).sort()).toEqual(['billableAmount', 'trackedSeconds']);
    const withCosts = (await view(...secretOf(await share(admin, saved.id, { includeCosts: true })))).json();
    expect(withCosts.report.view.totals.costAmount).toBe(6 * 4_000);
    const mine = await save(member, { query: RANGE });
    const refused = await call(member, 'POST', `/saved-reports/${mine.id}/links`, { includeCosts: true });
    expect([refused.statusCode, refused.json().error.message]).toEqual([403, expect.stringMatching(/administrators/)]);
  });

  it("re-checks the creator's access on each view: a disabled creator's link stops", async () => {
    const creator = await join('manager');
    const saved = await save(creator, { query: RANGE });
    const link = await share(creator, saved.id);
    expect((await view(link.id, link.secret)).statusCode).toBe(200);
    await ok(owner, 'PATCH', `/members/${creator.userId}`, { status: 'disabled' });
    expect((await view(link.id, link.secret)).statusCode).toBe(404);
    await ok(owner, 'PATCH', `/members/${creator.userId}`, { status: 'active' });
    expect((await view(link.id, link.secret)).statusCode).toBe(200);
  });

  it('lets only the owner share, and owners and admins revoke the links of a shared report', async () => {
    const saved = await save(member, { visibility: 'workspace', query: RANGE });
    expect((await call(other, 'POST', `/saved-reports/${saved.id}/links`, {})).statusCode).toBe(403);
    expect((await call(admin, 'POST', `/saved-reports/${saved.id}/links`, {})).statusCode).toBe(403);
    const link = await share(member, saved.id);
    expect((await call(other, 'GET', `/saved-reports/${saved.id}/links`)).statusCode).toBe(403);
    expect((await call(other, 'POST', `/saved-reports/${saved.id}/links/${link.id}/revoke`)).statusCode).toBe(403);
    await ok(admin, 'POST', `/saved-reports/${saved.id}/links/${link.id}/revoke`);
    expect((await view(link.id, link.secret)).statusCode).toBe(404);
    const estimates = await save(member, { kind: 'estimates', query: RANGE });
    const refused = await call(member, 'POST', `/saved-reports/${estimates.id}/links`, {});
    expect([refused.statusCode, refused.json().error.code]).toEqual([422, 'not_shareable']);
  });

  it("gives a Summary's bars over its range, adding up to its total", async () => {
    const saved = await save(owner, { query: `${RANGE}&groupBy=project` });
    const shared = (await view(...secretOf(await share(owner, saved.id)))).json();
    expect(shared.report.bars.interval).toBe('day');
    const sum = shared.report.bars.points.reduce((n: number, p: { seconds: number }) => n + p.seconds, 0);
    expect(sum).toBe(shared.report.view.totals.trackedSeconds);
    expect(shared.report.bars.points.map((p: { key: string }) => p.key)).toEqual(['2026-11-02', '2026-11-03']);
  });

  it('runs a matrix kind with its own axes', async () => {
    const saved = await save(owner, { kind: 'people-by-projects', query: RANGE });
    const shared = (await view(...secretOf(await share(owner, saved.id)))).json();
    expect(shared.report.engine).toBe('matrix');
    expect(shared.report.view.columns.map((c: { key: { label: string } }) => c.key.label)).toEqual(['Alpha']);
    expect(shared.report.view.rows).toHaveLength(3);
  });
});

describe('a shared Detailed report', () => {
  const PAGED = 'preset=custom&from=2026-11-10&to=2026-11-11&timeZone=UTC';
  type Entry = { id: string; costAmount: number | null; billableAmount: number | null };
  beforeAll(async () => {
    // 55 entries: more than one page of 50.
    for (let i = 0; i < 55; i++) {
      const start = new Date(Date.parse('2026-11-10T06:00:00Z') + i * 15 * 60_000);
      await ok(owner, 'POST', '/time-entries', {
        userId: i % 2 ? member.userId : other.userId,
        start: start.toISOString(),
        end: new Date(start.getTime() + 10 * 60_000).toISOString(),
        projectId: alpha,
        billable: true,
        note: `Entry ${i}`,
      });
    }
    await ctx.t.db
      .updateTable('time_entries')
      .set({ billable_rate_cents: 10_000, cost_rate_cents: 4_000 })
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
  });

  it("pages its entries as the signed-in report does, with the report's totals", async () => {
    const saved = await save(owner, { kind: 'detailed', query: `${PAGED}&sort=duration&order=asc` });
    const [id, secret] = secretOf(await share(owner, saved.id));
    const first = await view(id, secret);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const one = first.json();
    expect(one).toMatchObject({ kind: 'detailed', moneyHidden: false });
    expect(one.report).toMatchObject({ engine: 'detailed', sort: 'duration', order: 'asc' });
    expect(one.report.view.items).toHaveLength(50);
    expect(one.report.view.nextCursor).toEqual(expect.any(String));
    const two = (await view(id, secret, one.report.view.nextCursor)).json();
    expect(two.report.view.items).toHaveLength(5);
    expect(two.report.view.nextCursor).toBeNull();
    const ids = [...one.report.view.items, ...two.report.view.items].map((e: Entry) => e.id);
    expect(new Set(ids).size).toBe(55);

    const signedIn = await ok(owner, 'GET', `/reports/detailed?${PAGED}&sort=duration&order=asc&limit=50`);
    expect(one.report.view.items.map((e: Entry) => e.id)).toEqual(signedIn.items.map((e: Entry) => e.id));
    const summary = await ok(
      owner,
      'GET',
      `/reports/summary?${PAGED}&measures=trackedSeconds,billableSeconds,billableAmount,entryCount`,
    );
    expect(one.report.totals).toEqual(summary.totals);
    expect(one.report.totals).toMatchObject({ entryCount: 55, trackedSeconds: 55 * 600 });
    expect(two.report.totals).toEqual(one.report.totals);
  });

  it('hides costs unless the link includes them', async () => {
    const saved = await save(owner, { kind: 'detailed', query: PAGED });
    const plain = (await view(...secretOf(await share(owner, saved.id)))).json();
    expect(plain.report.view.items.every((e: Entry) => e.costAmount === null)).toBe(true);
    expect(plain.report.view.items.every((e: Entry) => typeof e.billableAmount === 'number')).toBe(true);
    expect(plain.report.totals.costAmount).toBeUndefined();
    const costly = (await view(...secretOf(await share(owner, saved.id, { includeCosts: true })))).json();
    expect(costly.report.view.items.every((e: Entry) => e.costAmount === Math.round((4_000 * 600) / 3600))).toBe(true);
    const summary = await ok(owner, 'GET', `/reports/summary?${PAGED}&measures=costAmount`);
    expect(costly.report.totals.costAmount).toBe(summary.totals.costAmount);
  });

  it('answers 404 once revoked or expired, and to a wrong secret even with a cursor', async () => {
    const saved = await save(owner, { kind: 'detailed', query: PAGED });
    const link = await share(owner, saved.id);
    const cursor = (await view(link.id, link.secret)).json().report.view.nextCursor;
    expect((await view(link.id, 'x'.repeat(43), cursor)).statusCode).toBe(404);
    await ok(owner, 'POST', `/saved-reports/${saved.id}/links/${link.id}/revoke`);
    expect((await view(link.id, link.secret)).statusCode).toBe(404);
    expect((await view(link.id, link.secret, cursor)).statusCode).toBe(404);
    const expiring = await share(owner, saved.id, { expiresAt: '2099-01-01T00:00:00Z' });
    await ctx.t.db
      .updateTable('report_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    expect((await view(expiring.id, expiring.secret)).statusCode).toBe(404);
  });

  it("shows only what its creator may see now: a demoted creator's link shows only their own time", async () => {
    const creator = await join('admin');
    const saved = await save(creator, { kind: 'detailed', query: RANGE });
    const [id, secret] = secretOf(await share(creator, saved.id));
    const before = (await view(id, secret)).json();
    expect(before.report.view.items).toHaveLength(3);
    expect(before.report.totals.trackedSeconds).toBe(6 * 3600);
    await ok(owner, 'PATCH', `/members/${creator.userId}`, { role: 'member' });
    const after = (await view(id, secret)).json();
    expect(after.report.view.items).toHaveLength(0);
    expect(after.report.totals.trackedSeconds ?? 0).toBe(0);
  });
});

const secretOf = (link: { id: string; secret: string }): [string, string] => [link.id, link.secret];

describe('public links in the request log', () => {
  const logged = useLoggedTestApp({ RATE_LIMIT_SHARE_VIEWS_PER_IP: '3' });
  const { lines } = logged;

  it('logs the request without its secret, and limits the views of one address', async () => {
    const { app } = logged;
    const user = await signUp(app);
    const base = `/api/v1/workspaces/${user.workspaceId}`;
    const headers = { cookie: user.cookie };
    const saved = (
      await app.inject({
        method: 'POST',
        url: `${base}/saved-reports`,
        headers,
        payload: { name: 'Log', kind: 'summary', query: RANGE },
      })
    ).json();
    const link = (
      await app.inject({ method: 'POST', url: `${base}/saved-reports/${saved.id}/links`, headers, payload: {} })
    ).json();
    const viewIt = () =>
      app.inject({
        method: 'GET',
        url: `/api/v1/shared-reports/${link.id}`,
        headers: { [SHARE_SECRET_HEADER]: link.secret },
      });
    expect((await viewIt()).statusCode).toBe(200);
    expect(lines.some((l) => l.includes(`/api/v1/shared-reports/${link.id}`))).toBe(true);
    expect(lines.filter((l) => l.includes(link.secret))).toEqual([]);
    expect((await viewIt()).statusCode).toBe(200);
    expect((await viewIt()).statusCode).toBe(200);
    const limited = await viewIt();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
