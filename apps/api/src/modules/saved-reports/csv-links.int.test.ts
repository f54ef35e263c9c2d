import type { Role } from '@sundial/core';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditTrail,
  joinWorkspace,
  type SignedUp,
  signUp,
  useLoggedTestApp,
  useTestApp,
  workspaceCalls,
} from '../../../test/harness.js';
import { hashSecret } from '../../platform/ids.js';

/**
 * CSV links for Google Sheets' IMPORTDATA (issue 15): a saved report's CSV at a public address whose
 * token sits in the path. The CSV is the saved report exported at each fetch as the link's creator
 * with their access of now (a member's link never shows others' time), costs only when the link
 * includes them; one working link per report; revoked, expired and unknown tokens answer the same
 * 404; the token is kept hashed and never reaches the request log.
 */
const ctx = useTestApp();
let owner: SignedUp;
let admin: SignedUp;
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
  ok(who, 'POST', '/saved-reports', { name: `Sheet ${++named}`, kind: 'summary', query: RANGE, ...body });
const csvLink = (who: SignedUp, reportId: string, body: object = {}) =>
  ok(who, 'POST', `/saved-reports/${reportId}/csv-link`, body) as Promise<{ id: string; token: string; path: string }>;
/** The public CSV, fetched as Google does: no cookie, no header. */
const fetchCsv = (path: string) => ctx.t.app.inject({ method: 'GET', url: path });
async function rowsOf(path: string): Promise<string[][]> {
  const response = await fetchCsv(path);
  expect(response.statusCode, response.body).toBe(200);
  return parse(response.rawPayload);
}
const seconds = (hms: string) => {
  const [h, m, s] = hms.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  admin = await join('admin');
  member = await join('member');
  other = await join('member');
  outsider = await signUp(ctx.t.app);
  alpha = (await ok(owner, 'POST', '/projects', { name: 'Alpha', isPublic: true })).id;
  const entry = (who: SignedUp, start: string, end: string) =>
    ok(owner, 'POST', '/time-entries', { userId: who.userId, start, end, projectId: alpha, billable: true });
  await entry(member, '2026-11-02T09:00:00Z', '2026-11-02T11:00:00Z');
  await entry(other, '2026-11-02T09:00:00Z', '2026-11-02T12:00:00Z');
  await entry(owner, '2026-11-03T09:00:00Z', '2026-11-03T10:30:00Z');
  await ctx.t.db
    .updateTable('time_entries')
    .set({ billable_rate_cents: 10_000, cost_rate_cents: 4_000 })
    .where('workspace_id', '=', owner.workspaceId)
    .execute();
});

describe('a CSV link', () => {
  it('answers the saved report as CSV without signing in, with the Summary report’s totals', async () => {
    const saved = await save(owner, { query: `${RANGE}&groupBy=project,user` });
    const link = await csvLink(owner, saved.id);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.path).toBe(`/api/v1/public/reports/csv/${link.token}.csv`);
    const response = await fetchCsv(link.path);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.rawPayload[0]).not.toBe(0xef); // no byte-order mark: Sheets needs none
    const rows: string[][] = parse(response.rawPayload);
    const summary = await ok(
      owner,
      'GET',
      `/reports/summary?${RANGE}&groupBy=project,user&measures=trackedSeconds,billableSeconds,billableAmount`,
    );
    expect(rows[0]?.slice(0, 6)).toEqual([
      'Project',
      'User',
      'Tracked',
      'Tracked (hours)',
      'Billable time',
      'Billable time (hours)',
    ]);
    expect(rows[0]?.[6]).toMatch(/^Billable amount \(\w{3}\)$/);
    const total = rows.at(-1) as string[];
    expect(total[0]).toBe('Total');
    expect(seconds(total[2] as string)).toBe(summary.totals.trackedSeconds);
    expect(total[3]).toBe((summary.totals.trackedSeconds / 3600).toFixed(2));
    expect(Number(total[6]) * 100).toBe(summary.totals.billableAmount);
    const leaves = rows.slice(1, -1);
    expect(leaves).toHaveLength(3);
    expect(leaves.reduce((sum, r) => sum + seconds(r[2] as string), 0)).toBe(summary.totals.trackedSeconds);
  });

  it('shows its state to who manages the report, never the token; a new link replaces the one before', async () => {
    const saved = await save(owner, { visibility: 'workspace' });
    expect(await ok(owner, 'GET', `/saved-reports/${saved.id}/csv-link`)).toEqual({ link: null });
    const first = await csvLink(owner, saved.id);
    const second = await csvLink(owner, saved.id);
    expect((await fetchCsv(first.path)).statusCode).toBe(404);
    expect((await fetchCsv(second.path)).statusCode).toBe(200);
    const state = await ok(admin, 'GET', `/saved-reports/${saved.id}/csv-link`);
    expect(state.link).toMatchObject({ id: second.id, status: 'active', includeCosts: false });
    expect(state.link.lastFetchedAt).not.toBeNull();
    expect(JSON.stringify(state)).not.toContain(second.token);
    const stored = await ctx.t.db
      .selectFrom('report_csv_links')
      .select(['id', 'token_hash', 'revoked_at'])
      .where('saved_report_id', '=', saved.id)
      .orderBy('created_at')
      .execute();
    expect(stored).toHaveLength(2);
    expect(stored[0]?.revoked_at).not.toBeNull();
    expect(stored[1]?.token_hash).toBe(hashSecret(second.token));
    const audits = await ctx.t.db
      .selectFrom('audit_log')
      .select('action')
      .where('subject_id', 'in', [first.id, second.id])
      .execute();
    expect(audits.map((a) => a.action).sort()).toEqual(['report_csv_link.created', 'report_csv_link.created']);
  });

  it('stops at revocation and at expiry with the same 404 as an unknown token', async () => {
    const saved = await save(owner);
    const link = await csvLink(owner, saved.id);
    const unknown = await fetchCsv(`/api/v1/public/reports/csv/${'A'.repeat(43)}.csv`);
    expect(unknown.statusCode).toBe(404);
    const revoked = await ok(owner, 'POST', `/saved-reports/${saved.id}/csv-link/revoke`);
    expect(revoked.link).toMatchObject({ id: link.id, status: 'revoked' });
    const gone = await fetchCsv(link.path);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toBe(unknown.body);
    // Revoking again changes nothing.
    expect((await ok(owner, 'POST', `/saved-reports/${saved.id}/csv-link/revoke`)).link.revokedAt).toBe(
      revoked.link.revokedAt,
    );
    const audits = await auditTrail(ctx.t.db, { subjectId: link.id });
    expect(audits.map((a) => a.action).sort()).toEqual(['report_csv_link.created', 'report_csv_link.revoked']);

    const later = await csvLink(owner, saved.id, { expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect((await fetchCsv(later.path)).statusCode).toBe(200);
    await ctx.t.db
      .updateTable('report_csv_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', later.id)
      .execute();
    const expired = await fetchCsv(later.path);
    expect(expired.statusCode).toBe(404);
    expect(expired.body).toBe(unknown.body);
    expect((await ok(owner, 'GET', `/saved-reports/${saved.id}/csv-link`)).link.status).toBe('expired');
    expect((await fetchCsv('/api/v1/public/reports/csv/nothing')).statusCode).toBe(404);
    expect((await fetchCsv(`/api/v1/public/reports/csv/${later.token}`)).statusCode).toBe(404);
  });

  it("a member's link shows only their own time, even when the saved query names everyone", async () => {
    const saved = await save(member, { query: `${RANGE}&groupBy=user` });
    const rows = await rowsOf((await csvLink(member, saved.id)).path);
    expect(rows.slice(1, -1)).toHaveLength(1);
    expect(seconds(rows.at(-1)?.[1] as string)).toBe(2 * 3600);
  });

  it('follows the creator’s access of now: a creator who left takes the link down', async () => {
    const leaving = await join('member');
    const saved = await save(leaving);
    const link = await csvLink(leaving, saved.id);
    expect((await fetchCsv(link.path)).statusCode).toBe(200);
    await ctx.t.db
      .updateTable('memberships')
      .set({ status: 'disabled' })
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', leaving.userId)
      .execute();
    expect((await fetchCsv(link.path)).statusCode).toBe(404);
  });

  it('has cost and margin columns only when the link includes them, which only owners and admins may ask', async () => {
    const saved = await save(owner, { kind: 'margin', query: RANGE });
    const without = await rowsOf((await csvLink(owner, saved.id)).path);
    expect(without[0]?.some((h) => /^(Cost|Margin)/.test(h))).toBe(false);
    expect(without[0]?.[1]).toMatch(/^Billable amount/);
    const withCosts = await rowsOf((await csvLink(owner, saved.id, { includeCosts: true })).path);
    expect(withCosts[0]?.map((h) => h.replace(/ \(\w{3}\)$/, ''))).toEqual([
      'Project',
      'Billable amount',
      'Cost',
      'Margin',
    ]);
    expect(withCosts.at(-1)?.slice(1)).toEqual(['650.00', '260.00', '390.00']);

    const mine = await save(member, { kind: 'costs', query: RANGE });
    const refused = await call(member, 'POST', `/saved-reports/${mine.id}/csv-link`, { includeCosts: true });
    expect(refused.statusCode).toBe(403);
    const memberRows = await rowsOf((await csvLink(member, mine.id)).path);
    expect(memberRows[0]).toEqual(['Project', 'Tracked', 'Tracked (hours)']);
  });

  it('exports a Detailed saved report too, without its cost column unless included', async () => {
    const saved = await save(owner, { kind: 'detailed', query: RANGE });
    const rows = await rowsOf((await csvLink(owner, saved.id)).path);
    expect(rows[0]?.slice(0, 4)).toEqual(['Date', 'Start', 'End', 'User']);
    expect(rows[0]?.some((h) => h.startsWith('Cost'))).toBe(false);
    expect(rows.slice(1, -1)).toHaveLength(3);
    const included = await rowsOf((await csvLink(owner, saved.id, { includeCosts: true })).path);
    expect(included[0]?.some((h) => h.startsWith('Cost'))).toBe(true);
  });

  it('makes every cell inert, headers included: names that start like formulas', async () => {
    const project = (await ok(owner, 'POST', '/projects', { name: '=HYPERLINK("http://x")', isPublic: true })).id;
    await ok(owner, 'POST', '/time-entries', {
      start: '2026-11-04T09:00:00Z',
      end: '2026-11-04T10:00:00Z',
      projectId: project,
    });
    const matrix = await save(owner, { kind: 'people-by-projects', query: RANGE });
    const rows = await rowsOf((await csvLink(owner, matrix.id)).path);
    expect(rows[0]).toContain('\'=HYPERLINK("http://x")');
    const summary = await save(owner, { query: `${RANGE}&groupBy=project` });
    const summaryRows = await rowsOf((await csvLink(owner, summary.id)).path);
    expect(summaryRows.map((r) => r[0])).toContain('\'=HYPERLINK("http://x")');
    for (const row of [...rows, ...summaryRows]) for (const cell of row) expect(cell).not.toMatch(/^[=+@]/);
  });

  it('is made by the report’s owner alone, revoked by who manages it, and is 404 from another workspace', async () => {
    const saved = await save(member, { visibility: 'workspace' });
    expect((await call(other, 'POST', `/saved-reports/${saved.id}/csv-link`, {})).statusCode).toBe(403);
    expect((await call(admin, 'POST', `/saved-reports/${saved.id}/csv-link`, {})).statusCode).toBe(403);
    expect((await call(other, 'GET', `/saved-reports/${saved.id}/csv-link`)).statusCode).toBe(403);
    const link = await csvLink(member, saved.id);
    expect((await call(other, 'POST', `/saved-reports/${saved.id}/csv-link/revoke`)).statusCode).toBe(403);
    const outside = `/api/v1/workspaces/${outsider.workspaceId}/saved-reports/${saved.id}/csv-link`;
    expect((await call(outsider, 'POST', outside, {})).statusCode).toBe(404);
    for (const url of [`/saved-reports/${saved.id}/csv-link`, `/saved-reports/${saved.id}/csv-link/revoke`])
      expect((await call(outsider, url.endsWith('revoke') ? 'POST' : 'GET', url, {})).statusCode).toBe(404);
    expect((await call(undefined, 'POST', `/saved-reports/${saved.id}/csv-link`, {})).statusCode).toBe(401);
    expect((await ok(admin, 'POST', `/saved-reports/${saved.id}/csv-link/revoke`)).link.status).toBe('revoked');
    expect((await fetchCsv(link.path)).statusCode).toBe(404);
    const none = await save(owner);
    expect((await call(owner, 'POST', `/saved-reports/${none.id}/csv-link/revoke`)).statusCode).toBe(404);
    const past = await call(owner, 'POST', `/saved-reports/${none.id}/csv-link`, { expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(422);
  });
});

describe('a saved Estimates report (issue 14)', () => {
  it('is saved and reopened with its filters, and refused a page link and a CSV link with a clear 422', async () => {
    const saved = await save(member, { kind: 'estimates', query: `${RANGE}&projects=${alpha}` });
    expect(saved).toMatchObject({ kind: 'estimates', canEdit: true });
    expect((await ok(member, 'GET', `/saved-reports/${saved.id}`)).query).toBe(`${RANGE}&projects=${alpha}`);
    for (const url of [`/saved-reports/${saved.id}/links`, `/saved-reports/${saved.id}/csv-link`]) {
      const refused = await call(member, 'POST', url, {});
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json().error).toMatchObject({ code: 'not_shareable' });
      expect(refused.json().error.message).toContain('Estimates report cannot be shared by link');
    }
    expect(await ok(member, 'GET', `/saved-reports/${saved.id}/csv-link`)).toEqual({ link: null });
  });
});

describe('CSV links in the request log', () => {
  const logged = useLoggedTestApp({ RATE_LIMIT_SHARE_VIEWS_PER_IP: '3' });
  const { lines } = logged;

  it('logs the fetch without its token, and limits the fetches of one address', async () => {
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
      await app.inject({ method: 'POST', url: `${base}/saved-reports/${saved.id}/csv-link`, headers, payload: {} })
    ).json();
    const fetchIt = () => app.inject({ method: 'GET', url: link.path });
    expect((await fetchIt()).statusCode).toBe(200);
    expect(lines.some((l) => l.includes('/api/v1/public/reports/csv/[redacted]'))).toBe(true);
    expect(lines.filter((l) => l.includes(link.token))).toEqual([]);
    expect((await fetchIt()).statusCode).toBe(200);
    expect((await fetchIt()).statusCode).toBe(200);
    const limited = await fetchIt();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
