import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../../test/harness.js';
import { membersRepository } from '../modules/members/members.repository.js';
import { idempotent, purgeIdempotencyKeys } from './idempotency.js';
import { newId } from './ids.js';

const ctx = useTestApp();

function createProject(workspaceId: string, cookie: string, body: object, key?: string) {
  return ctx.t.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${workspaceId}/projects`,
    payload: body,
    headers: { cookie, ...(key ? { 'idempotency-key': key } : {}) },
  });
}

const projectsNamed = (workspaceId: string, name: string) =>
  ctx.t.db
    .selectFrom('projects')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .execute();

describe('Idempotency-Key on project create', () => {
  it('replays the first answer to a retry and creates the project once', async () => {
    const owner = await signUp(ctx.t.app);
    const key = newId();
    const first = await createProject(owner.workspaceId, owner.cookie, { name: 'Retried' }, key);
    const retry = await createProject(owner.workspaceId, owner.cookie, { name: 'Retried' }, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await projectsNamed(owner.workspaceId, 'Retried')).toHaveLength(1);
    // Without the key, the same body is a new request: the name is taken.
    expect((await createProject(owner.workspaceId, owner.cookie, { name: 'Retried' })).statusCode).toBe(409);
  });

  it('refuses the same key with another body, with a message saying why', async () => {
    const owner = await signUp(ctx.t.app);
    const key = newId();
    expect((await createProject(owner.workspaceId, owner.cookie, { name: 'First' }, key)).statusCode).toBe(201);
    const other = await createProject(owner.workspaceId, owner.cookie, { name: 'Second' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toEqual({
      code: 'idempotency_key_reused',
      message: 'This Idempotency-Key was already used with a different request body. Send a new key for a new request.',
    });
    expect(await projectsNamed(owner.workspaceId, 'Second')).toHaveLength(0);
  });

  it('scopes keys per user and per workspace', async () => {
    const owner = await signUp(ctx.t.app);
    const admin = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: admin.userId,
      role: 'admin',
    });
    const key = newId();
    const mine = await createProject(owner.workspaceId, owner.cookie, { name: 'Mine' }, key);
    const theirs = await createProject(owner.workspaceId, admin.cookie, { name: 'Theirs' }, key);
    const elsewhere = await createProject(admin.workspaceId, admin.cookie, { name: 'Mine' }, key);
    expect([mine.statusCode, theirs.statusCode, elsewhere.statusCode]).toEqual([201, 201, 201]);
    expect(new Set([mine.json().id, theirs.json().id, elsewhere.json().id]).size).toBe(3);
  });

  it('refuses a key used for another operation, and one that is too long', async () => {
    const owner = await signUp(ctx.t.app);
    const key = newId();
    expect((await createProject(owner.workspaceId, owner.cookie, { name: 'Keyed' }, key)).statusCode).toBe(201);
    const timer = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/timer/start`,
      payload: {},
      headers: { cookie: owner.cookie, 'idempotency-key': key },
    });
    expect(timer.statusCode).toBe(422);
    expect(timer.json().error.message).toBe(
      'This Idempotency-Key was already used for another request. Send a new key for a new request.',
    );
    const long = await createProject(owner.workspaceId, owner.cookie, { name: 'Long' }, 'k'.repeat(201));
    expect(long.statusCode).toBe(422);
    expect(long.json().error.fields).toEqual({ 'idempotency-key': 'The Idempotency-Key is too long (at most 200).' });
  });

  it('forgets the key of a write that failed, so the retry runs it afresh', async () => {
    const owner = await signUp(ctx.t.app);
    const request = {
      key: newId(),
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      operation: 'test.write',
      body: { n: 1 },
    };
    const failure = new Error('the work failed');
    await expect(
      ctx.t.db.transaction().execute((tx) =>
        idempotent(tx, request, async () => {
          throw failure;
        }),
      ),
    ).rejects.toBe(failure);
    let runs = 0;
    const work = async () => ({ status: 201, body: { run: ++runs } });
    const first = await ctx.t.db.transaction().execute((tx) => idempotent(tx, request, work));
    const again = await ctx.t.db.transaction().execute((tx) => idempotent(tx, request, work));
    expect(first).toEqual({ status: 201, body: { run: 1 } });
    expect(again).toEqual(first);
    expect(runs).toBe(1);
  });

  it('purges keys older than a day, and only those', async () => {
    const owner = await signUp(ctx.t.app);
    const [old, fresh] = [newId(), newId()];
    expect((await createProject(owner.workspaceId, owner.cookie, { name: 'Old' }, old)).statusCode).toBe(201);
    expect((await createProject(owner.workspaceId, owner.cookie, { name: 'Fresh' }, fresh)).statusCode).toBe(201);
    await ctx.t.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000) })
      .where('key', '=', old)
      .execute();
    expect(await purgeIdempotencyKeys(ctx.t.db)).toBeGreaterThanOrEqual(1);
    const left = await ctx.t.db.selectFrom('idempotency_keys').select('key').where('key', 'in', [old, fresh]).execute();
    expect(left.map((r) => r.key)).toEqual([fresh]);
  });
});
