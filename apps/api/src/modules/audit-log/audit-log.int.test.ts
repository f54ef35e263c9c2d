import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { joinWorkspace, openTestDb, type SignedUp, signUp, useTestApp } from '../../../test/harness.js';
import { audit } from '../../platform/audit.js';
import { newId } from '../../platform/ids.js';
import { createAuditLogService } from './audit-log.service.js';

/**
 * The audit log people read and its hash chain (issue 34), against the real app and database: the
 * owner pages through what happened with filters; an edited, a deleted and a cut-off record are
 * each found by the chain's walk, by the API and by `npm run audit:verify`.
 */
const ctx = useTestApp();

const ws = (who: SignedUp, rest = '') => `/api/v1/workspaces/${who.workspaceId}${rest}`;
async function ok(who: SignedUp, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: object) {
  const response = await ctx.call(method, url, who.cookie, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.statusCode === 204 ? null : response.json();
}

/** A workspace with a project made, renamed and archived, and a client made. */
async function workspaceWithHistory() {
  const owner = await signUp(ctx.t.app);
  const project = await ok(owner, 'POST', ws(owner, '/projects'), { name: 'Harbour' });
  await ok(owner, 'PATCH', ws(owner, `/projects/${project.id}`), { name: 'Harbour bridge' });
  await ok(owner, 'POST', ws(owner, `/projects/${project.id}/archive`));
  await ok(owner, 'POST', ws(owner, '/clients'), { name: 'Port authority' });
  return { owner, projectId: project.id as string };
}

const verify = async (who: SignedUp) => ok(who, 'POST', ws(who, '/audit-log/verify'));

describe('reading the audit log', () => {
  it('lists what happened, newest first, with who did it, filtered by action, object and person', async () => {
    const { owner, projectId } = await workspaceWithHistory();
    const all = await ok(owner, 'GET', ws(owner, '/audit-log'));
    const actions = all.items.map((e: { action: string }) => e.action);
    expect(actions.slice(0, 4)).toEqual(['client.created', 'project.archived', 'project.updated', 'project.created']);
    expect(all.items[0].actor).toMatchObject({ id: owner.userId, email: owner.email });

    const family = await ok(owner, 'GET', ws(owner, '/audit-log?action=project.'));
    expect(family.items.map((e: { action: string }) => e.action)).toEqual([
      'project.archived',
      'project.updated',
      'project.created',
    ]);
    const renamed = await ok(owner, 'GET', ws(owner, `/audit-log?action=project.updated&subjectId=${projectId}`));
    expect(renamed.items).toHaveLength(1);
    expect(renamed.items[0].subjectId).toBe(projectId);

    const someoneElse = await joinWorkspace(ctx.t, owner.workspaceId, 'admin');
    const theirs = await ok(owner, 'GET', ws(owner, `/audit-log?actorUserId=${someoneElse.userId}`));
    expect(theirs.items).toEqual([]);
    const future = await ok(owner, 'GET', ws(owner, `/audit-log?from=${encodeURIComponent('2099-01-01T00:00:00Z')}`));
    expect(future.items).toEqual([]);
  });

  it('pages by cursor through every record once', async () => {
    const { owner } = await workspaceWithHistory();
    const whole = (await ok(owner, 'GET', ws(owner, '/audit-log'))).items.map((e: { id: string }) => e.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const query = `/audit-log?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { items: { id: string }[]; nextCursor: string | null } = await ok(owner, 'GET', ws(owner, query));
      paged.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(whole);
    expect(whole.length).toBeGreaterThanOrEqual(5);
    const bad = await ctx.call('GET', ws(owner, '/audit-log?cursor=bm9wZQ'), owner.cookie);
    expect([bad.statusCode, bad.json().error.fields.cursor]).toEqual([422, 'This cursor is not one this list gave.']);
  });

  it('downloads what the filters match as CSV, the same records as the list, formulas made inert', async () => {
    const { owner } = await workspaceWithHistory();
    // A name a spreadsheet would run as a formula.
    await ok(owner, 'PATCH', '/api/v1/me', { name: '=HYPERLINK("http://evil")' });
    const listed = (await ok(owner, 'GET', ws(owner, '/audit-log'))).items;
    const response = await ctx.call('GET', ws(owner, '/audit-log/export'), owner.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d\d-\d\d\.csv"/);
    const [header, ...records] = parse(response.body) as string[][];
    expect(header).toEqual([
      'Time (UTC)',
      'Person',
      'E-mail',
      'API key',
      'IP address',
      'Action',
      'Object',
      'Details',
      'Sealed as',
      'Record',
    ]);
    expect(records.map((r) => r[9])).toEqual(listed.map((e: { id: string }) => e.id));
    expect(records[0]?.[5]).toBe('client.created');
    expect(records[0]?.[4]).toBe('127.0.0.1');
    expect(records[0]?.[2]).toBe(owner.email);
    expect(records[0]?.[1]).toBe(`'=HYPERLINK("http://evil")`);
    const family = parse((await ctx.call('GET', ws(owner, '/audit-log/export?action=project.'), owner.cookie)).body);
    expect(family.slice(1).map((r: string[]) => r[5])).toEqual([
      'project.archived',
      'project.updated',
      'project.created',
    ]);
  });

  it('is for owners and admins: a manager is refused, an outsider finds no workspace', async () => {
    const { owner } = await workspaceWithHistory();
    const manager = await joinWorkspace(ctx.t, owner.workspaceId, 'manager');
    expect((await ctx.call('GET', ws(owner, '/audit-log'), manager.cookie)).statusCode).toBe(403);
    expect((await ctx.call('POST', ws(owner, '/audit-log/verify'), manager.cookie)).statusCode).toBe(403);
    expect((await ctx.call('GET', ws(owner, '/audit-log/export'), manager.cookie)).statusCode).toBe(403);
    const outsider = await signUp(ctx.t.app);
    expect((await ctx.call('GET', ws(owner, '/audit-log'), outsider.cookie)).statusCode).toBe(404);
  });
});

describe('what each record says of its request', () => {
  it('keeps the address, the API key and the fields an edit changed, all sealed into the chain', async () => {
    const { owner, projectId } = await workspaceWithHistory();
    const renamed = await ok(owner, 'GET', ws(owner, `/audit-log?action=project.updated&subjectId=${projectId}`));
    expect(renamed.items[0]).toMatchObject({
      ip: '127.0.0.1',
      apiKey: null,
      detail: { name: 'Harbour', changes: { name: { from: 'Harbour', to: 'Harbour bridge' } } },
    });

    // Through an API key, from another address: the key is named and the address kept, with the body read.
    const key = await ok(owner, 'POST', '/api/v1/me/api-keys', {
      name: 'Sync script',
      scopes: { projects: 'write' },
    });
    const viaKey = await ctx.t.app.inject({
      method: 'PATCH',
      url: ws(owner, `/projects/${projectId}`),
      headers: { authorization: `Bearer ${key.token}` },
      payload: { color: '#2e7d32', name: 'Harbour bridge' },
      remoteAddress: '203.0.113.7',
    });
    expect(viaKey.statusCode, viaKey.body).toBe(200);
    const latest = (await ok(owner, 'GET', ws(owner, `/audit-log?subjectId=${projectId}&limit=1`))).items[0];
    expect(latest).toMatchObject({
      action: 'project.updated',
      actor: { id: owner.userId },
      apiKey: { id: key.id, name: 'Sync script' },
      ip: '203.0.113.7',
    });
    // Only what differed: the name was sent unchanged.
    expect(Object.keys(latest.detail.changes)).toEqual(['color']);

    expect(await verify(owner)).toMatchObject({ ok: true, prunedThrough: 0 });
    await sql`update audit_log set ip = '198.51.100.1' where id = ${latest.id}`.execute(ctx.t.db);
    expect((await verify(owner)).broken).toMatchObject({ id: latest.id, reason: 'altered' });
  });
});

describe('retention', () => {
  it("is the owner's to set, to one of the offered lengths", async () => {
    const { owner } = await workspaceWithHistory();
    expect(await ok(owner, 'GET', ws(owner, '/audit-log/settings'))).toEqual({ retentionDays: null });
    const admin = await joinWorkspace(ctx.t, owner.workspaceId, 'admin');
    expect(await ok(admin, 'GET', ws(owner, '/audit-log/settings'))).toEqual({ retentionDays: null });
    const refused = await ctx.call('PUT', ws(owner, '/audit-log/settings'), admin.cookie, { retentionDays: 90 });
    expect(refused.statusCode).toBe(403);
    const odd = await ctx.call('PUT', ws(owner, '/audit-log/settings'), owner.cookie, { retentionDays: 45 });
    expect([odd.statusCode, odd.json().error.fields.retentionDays]).toEqual([
      422,
      'Keep records for 90, 180, 365, 730, 1095, 2555 days, or forever (null).',
    ]);
    expect(await ok(owner, 'PUT', ws(owner, '/audit-log/settings'), { retentionDays: 365 })).toEqual({
      retentionDays: 365,
    });
    const changed = (await ok(owner, 'GET', ws(owner, '/audit-log?action=audit_settings.updated'))).items;
    expect(changed[0].detail).toEqual({ changes: { retentionDays: { from: null, to: 365 } } });
  });

  it('removes the oldest records from the start of the chain, and what is kept still verifies', async () => {
    const { owner } = await workspaceWithHistory();
    const workspaceId = owner.workspaceId;
    // Everything so far happened 400 days ago (before it was sealed, so the seals are of that time).
    const aged = await sql`update audit_log set created_at = created_at - interval '400 days'
      where workspace_id = ${workspaceId}`.execute(ctx.t.db);
    const old = Number(aged.numAffectedRows);
    await ok(owner, 'PUT', ws(owner, '/audit-log/settings'), { retentionDays: 365 });
    await ok(owner, 'POST', ws(owner, '/clients'), { name: 'Kept' });
    await ok(owner, 'POST', ws(owner, '/clients'), { name: 'Kept too' });

    const service = ctx.t.app.services.auditLog;
    expect(await service.pruneAll(new Date())).toBeGreaterThanOrEqual(old);
    expect(await service.pruneAll(new Date())).toBe(0);
    const kept = (await ok(owner, 'GET', ws(owner, '/audit-log'))).items;
    expect(kept.map((e: { action: string }) => e.action)).toEqual([
      'client.created',
      'client.created',
      'audit_settings.updated',
    ]);
    const result = await verify(owner);
    expect(result).toMatchObject({ ok: true, checked: 3, prunedThrough: old });

    // A kept record removed any other way still shows.
    await sql`delete from audit_log where workspace_id = ${workspaceId} and seq = ${old + 2}`.execute(ctx.t.db);
    expect((await verify(owner)).broken).toMatchObject({ seq: old + 2, reason: 'missing' });
  });
});

describe('the hash chain', () => {
  it('seals every record in order and finds the chain intact, and goes on from its head', async () => {
    const { owner } = await workspaceWithHistory();
    const first = await verify(owner);
    expect(first).toMatchObject({ ok: true, broken: null });
    expect(first.checked).toBeGreaterThanOrEqual(5);
    expect(first.head.seq).toBe(first.checked);
    const listed = await ok(owner, 'GET', ws(owner, '/audit-log'));
    expect(listed.items.map((e: { seq: number }) => e.seq)).toEqual(
      Array.from({ length: first.checked }, (_, i) => first.checked - i),
    );
    await ok(owner, 'POST', ws(owner, '/clients'), { name: 'Later' });
    const second = await verify(owner);
    expect([second.ok, second.checked]).toEqual([true, first.checked + 1]);
  });

  it('finds a record edited after it was sealed', async () => {
    const { owner, projectId } = await workspaceWithHistory();
    await verify(owner);
    const renamed = await ctx.t.db
      .selectFrom('audit_log')
      .select(['id', sql<string>`seq::text`.as('seq')])
      .where('subject_id', '=', projectId)
      .where('action', '=', 'project.updated')
      .executeTakeFirstOrThrow();
    await sql`update audit_log set detail = '{"name":"Nothing to see"}' where id = ${renamed.id}`.execute(ctx.t.db);
    const result = await verify(owner);
    expect(result.ok).toBe(false);
    expect(result.broken).toMatchObject({ seq: Number(renamed.seq), id: renamed.id, reason: 'altered' });
    expect(result.broken.message).toMatch(/was changed after it was written/);
  });

  it('finds a record deleted from the middle, and the newest deleted from the end', async () => {
    const middle = await workspaceWithHistory();
    await verify(middle.owner);
    await sql`delete from audit_log where workspace_id = ${middle.owner.workspaceId} and seq = 2`.execute(ctx.t.db);
    expect((await verify(middle.owner)).broken).toMatchObject({ seq: 2, reason: 'missing' });

    const end = await workspaceWithHistory();
    const sealed = await verify(end.owner);
    await sql`delete from audit_log where workspace_id = ${end.owner.workspaceId} and seq = ${sealed.checked}`.execute(
      ctx.t.db,
    );
    const cut = await verify(end.owner);
    expect(cut.broken).toMatchObject({ reason: 'truncated', seq: sealed.checked });
    expect(cut.checked).toBe(sealed.checked - 1);
  });
});

describe('npm run audit:verify', () => {
  it.runIf(process.env.DATABASE_URL)('says the log is intact, or fails naming the broken record', async () => {
    const { db, url, close } = await openTestDb({ migrated: true });
    try {
      const workspaceId = newId();
      await db.insertInto('workspaces').values({ id: workspaceId, name: 'Audited', plan: 'pro' }).execute();
      for (const name of ['One', 'Two', 'Three']) {
        await audit(db, { action: 'client.created', workspaceId, detail: { name } });
      }
      const root = path.resolve(import.meta.dirname, '../../../../..');
      const run = (id: string) =>
        promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'apps/api/src/modules/audit-log/audit-verify-cli.ts', id],
          { cwd: root, env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'test' } },
        );
      expect((await run(workspaceId)).stdout).toContain('The audit log is intact: 3 records checked.');
      await sql`update audit_log set detail = '{"name":"Four"}' where workspace_id = ${workspaceId} and seq = 3`.execute(
        db,
      );
      const failed = await run(workspaceId).catch((error: { code: number; stderr: string }) => error);
      expect(failed).toMatchObject({ code: 1 });
      expect((failed as { stderr: string }).stderr).toMatch(
        /broken after 2 intact records\. Record 3 \(client\.created\)/,
      );
      expect(await createAuditLogService({ db }).verifyWorkspace(workspaceId)).toMatchObject({ ok: false, checked: 2 });
    } finally {
      await close();
    }
  });
});
