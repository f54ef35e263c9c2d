import { beforeAll, describe, expect, it } from 'vitest';
import { auditTrail, type SignedUp, signUp, uniqueEmail, useTestApp } from '../../test/harness.js';
import { membersRepository } from '../modules/members/members.repository.js';
import { AUDIT_ACTIONS } from './audit.js';

/**
 * Deleting is always audited (ARCHITECTURE.md): each kind of workspace object is created, then
 * deleted through the API, and its audit row is looked up by action and subject.
 */
const ctx = useTestApp();

let owner: SignedUp;
let ws: string;

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
});

async function call(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: object) {
  const response = await ctx.call(method, `${ws}${url}`, owner.cookie, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.statusCode === 204 ? undefined : response.json();
}

async function auditOf(action: string, subjectId: string) {
  return auditTrail(ctx.t.db, { action, subjectId });
}

async function expectAudited(action: string, subjectId: string) {
  const rows = await auditOf(action, subjectId);
  expect(rows, `${action} of ${subjectId}`).toHaveLength(1);
  expect(rows[0]).toMatchObject({ actor_user_id: owner.userId, workspace_id: owner.workspaceId });
}

const entry = async (note: string, extra: object = {}) =>
  (await call('POST', '/time-entries', { start: '2026-11-02T09:00:00Z', duration: '30m', note, ...extra }))
    .id as string;

describe('every delete of a workspace object is audited', () => {
  it('projects, tasks and clients', async () => {
    const client = (await call('POST', '/clients', { name: 'Audited client' })).id;
    const project = (await call('POST', '/projects', { name: 'Audited project', clientId: client })).id;
    const task = (await call('POST', `/projects/${project}/tasks`, { name: 'Audited task' })).id;
    await call('DELETE', `/tasks/${task}`);
    await expectAudited('task.deleted', task);
    await call('DELETE', `/projects/${project}`);
    await expectAudited('project.deleted', project);
    await call('DELETE', `/clients/${client}`);
    await expectAudited('client.deleted', client);
  });

  it('tag lists and tags, deleted and merged away', async () => {
    const list = (await call('POST', '/tag-lists', { name: 'Audited list' })).id;
    const [a, b, c] = [
      (await call('POST', `/tag-lists/${list}/tags`, { name: 'a' })).id,
      (await call('POST', `/tag-lists/${list}/tags`, { name: 'b' })).id,
      (await call('POST', `/tag-lists/${list}/tags`, { name: 'c' })).id,
    ];
    await expectAudited('tag.created', a);
    await call('DELETE', `/tags/${a}`);
    await expectAudited('tag.deleted', a);
    await call('POST', `/tags/${b}/merge`, { intoTagId: c });
    const merged = await auditOf('tag.merged', c);
    expect(merged[0]?.detail).toMatchObject({ from: b });
    await call('DELETE', `/tag-lists/${list}`);
    await expectAudited('tag_list.deleted', list);
  });

  it('groups, group memberships, members and invites', async () => {
    const teammate = await signUp(ctx.t.app);
    await membersRepository.add(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: teammate.userId,
      role: 'member',
    });
    const group = (await call('POST', '/groups', { name: 'Audited group' })).id;
    await call('PUT', `/groups/${group}/members/${teammate.userId}`);
    await call('DELETE', `/groups/${group}/members/${teammate.userId}`);
    await expectAudited('group.member_removed', group);
    await call('DELETE', `/groups/${group}`);
    await expectAudited('group.deleted', group);
    await call('DELETE', `/members/${teammate.userId}`);
    await expectAudited('member.removed', teammate.userId);

    const [invite] = (await call('POST', '/invites', { emails: [uniqueEmail('audited')] })).items;
    await call('DELETE', `/invites/${invite.id}`);
    await expectAudited('invite.revoked', invite.id);
  });

  it('time entries, however they go: one by one, in bulk, a discarded timer, with their project', async () => {
    const one = await entry('one by one');
    await call('DELETE', `/time-entries/${one}`);
    await expectAudited('time_entry.deleted', one);

    const bulk = [await entry('bulk 1'), await entry('bulk 2')];
    await call('POST', '/time-entries/bulk-delete', { ids: bulk });
    const rows = await auditTrail(ctx.t.db, { workspaceId: owner.workspaceId, action: 'time_entry.deleted' });
    expect(rows.map((r) => r.detail)).toContainEqual({ userId: owner.userId, entryIds: bulk, count: 2 });

    const timer = (await call('POST', '/timer/start', {})).entry.id;
    await call('DELETE', '/timer');
    await expectAudited('time_entry.deleted', timer);

    const project = (await call('POST', '/projects', { name: 'Going with its time' })).id;
    const onProject = await entry('on the project', { projectId: project });
    await call('DELETE', `/projects/${project}`);
    await expectAudited('time_entry.deleted', onProject);
  });

  it('records only typed actions', async () => {
    const rows = await ctx.t.db
      .selectFrom('audit_log')
      .select('action')
      .distinct()
      .where('workspace_id', '=', owner.workspaceId)
      .execute();
    expect(rows.length).toBeGreaterThan(10);
    const known = new Set<string>(AUDIT_ACTIONS);
    expect(rows.map((r) => r.action).filter((a) => !known.has(a))).toEqual([]);
  });
});

describe('creates and updates of time entries are audited too', () => {
  it('names the entry, its owner and who changed it', async () => {
    const id = await entry('created');
    await expectAudited('time_entry.created', id);
    await ctx.call('PATCH', `${ws}/time-entries/${id}`, owner.cookie, { note: 'changed' });
    const [updated] = await auditOf('time_entry.updated', id);
    expect(updated?.detail).toEqual({
      userId: owner.userId,
      entryIds: [id],
      count: 1,
      changes: { note: { before: 'created', after: 'changed' } },
    });
  });
});
