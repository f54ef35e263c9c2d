import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../src/db/connection.js';
import { membersRepository } from '../../src/modules/members/members.repository.js';
import { type SignedUp, STRONG_PASSWORD, signUp, uniqueEmail } from '../harness.js';
import type { Kind, Pools } from './generate.js';

/** A small workspace with one or more objects of every kind, made over HTTP as its owner would. */
export interface Fixture {
  owner: SignedUp;
  member: SignedUp;
  pools: Pools;
  /**
   * After a request that may have removed objects (a delete, a merge, a restore): reads the live ids
   * back from the database and makes new objects of a kind that ran low, so later cases still
   * reach real objects.
   */
  refresh(): Promise<void>;
}

const KINDS: Kind[] = [
  'workspace',
  'user',
  'project',
  'task',
  'client',
  'tagList',
  'tag',
  'group',
  'invite',
  'entry',
  'trashedEntry',
  'inviteToken',
  'resetToken',
];

/** Kinds read back from the database after a request that may have removed some. */
const REFRESHED: Kind[] = ['project', 'task', 'client', 'tagList', 'tag', 'group', 'invite', 'entry', 'trashedEntry'];

export async function buildFixture(
  app: FastifyInstance,
  db: Db,
  foreign: Partial<Record<Kind, string[]>> = {},
): Promise<Fixture> {
  const owner = await signUp(app);
  const member = await signUp(app);
  const ws = owner.workspaceId;
  await membersRepository.add(db, { workspaceId: ws, userId: member.userId, role: 'member' });
  const ids = Object.fromEntries(KINDS.map((k) => [k, [] as string[]])) as Record<Kind, string[]>;
  ids.workspace.push(ws);
  ids.user.push(owner.userId, member.userId);

  const call = async (method: 'POST' | 'PUT' | 'DELETE', path: string, payload?: object) => {
    const response = await app.inject({
      method,
      url: `/api/v1/workspaces/${ws}${path}`,
      headers: { cookie: owner.cookie },
      payload,
    });
    if (response.statusCode >= 300) throw new Error(`fixture ${method} ${path}: ${response.body}`);
    return response.body ? response.json() : undefined;
  };
  const named = (what: string) => `${what} ${uniqueEmail('f')}`;
  const hourAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

  const make: Partial<Record<Kind, () => Promise<void>>> = {
    client: async () => {
      ids.client.push((await call('POST', '/clients', { name: named('Client'), currency: 'EUR' })).id);
    },
    project: async () => {
      const body = { name: named('Project'), clientId: ids.client[0] ?? null, isPublic: ids.project.length !== 1 };
      ids.project.push((await call('POST', '/projects', body)).id);
    },
    task: async () => {
      const parentTaskId = ids.task.length === 2 ? ids.task[0] : undefined;
      const body = { name: named('Task'), parentTaskId };
      ids.task.push((await call('POST', `/projects/${ids.project[0]}/tasks`, body)).id);
    },
    tagList: async () => {
      ids.tagList.push((await call('POST', '/tag-lists', { name: named('List') })).id);
    },
    tag: async () => {
      ids.tag.push((await call('POST', `/tag-lists/${ids.tagList[0]}/tags`, { name: named('Tag') })).id);
    },
    group: async () => {
      const id = (await call('POST', '/groups', { name: named('Group') })).id;
      await call('PUT', `/groups/${id}/members/${member.userId}`);
      ids.group.push(id);
    },
    invite: async () => {
      const email = uniqueEmail('invited');
      ids.invite.push((await call('POST', '/invites', { emails: [email] })).items[0].id);
      const mail = await db.selectFrom('outbox').select('text_body').where('to_address', '=', email).executeTakeFirst();
      const token = /\/invite\?token=([\w-]+)/.exec(mail?.text_body ?? '')?.[1];
      if (token) ids.inviteToken.push(token);
    },
    entry: async () => {
      const body = {
        start: hourAgo(3 + ids.entry.length),
        duration: '30m',
        projectId: ids.project[0],
        taskId: ids.task[0],
        tagIds: ids.tag.slice(0, 1),
        note: 'Design review',
        userId: ids.entry.length % 2 === 0 ? owner.userId : member.userId,
      };
      ids.entry.push((await call('POST', '/time-entries', body)).id);
    },
    user: async () => {
      // A request removed the member: put them back, so member cases keep reaching the workspace.
      const had = await db
        .selectFrom('memberships')
        .select('user_id')
        .where('workspace_id', '=', ws)
        .where('user_id', '=', member.userId)
        .executeTakeFirst();
      if (!had) await membersRepository.add(db, { workspaceId: ws, userId: member.userId, role: 'member' });
    },
  };
  for (const [kind, count] of [
    ['client', 2],
    ['project', 3],
    ['task', 3],
    ['tagList', 2],
    ['tag', 3],
    ['group', 2],
    ['invite', 2],
    ['entry', 4],
  ] as const) {
    for (let i = 0; i < count; i++) await make[kind]?.();
  }
  // Entries in the trash (for restore) and running timers (for the timer routes).
  for (const hours of [20, 21]) {
    const trashed = await call('POST', '/time-entries', { start: hourAgo(hours), duration: '10m' });
    await call('DELETE', `/time-entries/${trashed.id}`);
    ids.trashedEntry.push(trashed.id);
  }
  await call('POST', '/timer/start', { userId: member.userId, note: 'Running' });
  await call('POST', '/timer/start', { note: 'Running' });

  const forgot = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/password/forgot',
    payload: { email: owner.email },
  });
  await settle(app);
  if (forgot.statusCode < 300) {
    const mail = await db
      .selectFrom('outbox')
      .select('text_body')
      .where('to_address', '=', owner.email)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    const token = /\/password\?token=([\w-]+)/.exec(mail?.text_body ?? '')?.[1];
    if (token) ids.resetToken.push(token);
  }

  return {
    owner,
    member,
    pools: { ids, foreign, emails: [owner.email, member.email], password: STRONG_PASSWORD },
    async refresh() {
      const { rows } = await sql<{ kind: Kind; id: string }>`
        select 'project' as kind, id::text from projects where workspace_id = ${ws}
        union all select 'task', id::text from tasks where workspace_id = ${ws}
        union all select 'client', id::text from clients where workspace_id = ${ws}
        union all select 'tagList', id::text from tag_lists where workspace_id = ${ws}
        union all select 'tag', id::text from tags where workspace_id = ${ws}
        union all select 'group', id::text from groups where workspace_id = ${ws}
        union all select 'invite', id::text from invites where workspace_id = ${ws}
        union all select 'entry', id::text from time_entries where workspace_id = ${ws}
        union all select 'trashedEntry', entry_id::text from time_entry_trash where workspace_id = ${ws}`.execute(db);
      for (const kind of REFRESHED) ids[kind] = rows.filter((r) => r.kind === kind).map((r) => r.id);
      for (const kind of REFRESHED) {
        if (ids[kind].length < 2) await make[kind]?.();
      }
      await make.user?.();
    },
  };
}

/**
 * Waits for work a request left behind (mail, background tasks that run after the answer so its
 * timing tells nothing, the jobs it queued), so its writes are counted against the request that
 * caused them. The app runs no job loop (JOBS_ENABLED=false): queued jobs run here and only here,
 * and no scheduled job (an hourly reminder, the every-minute fold) ever runs beside a request.
 */
export async function settle(app: FastifyInstance): Promise<void> {
  await settleBackground(app);
  await runQueuedJobs(app);
}

const servicesOf = (app: FastifyInstance) =>
  app.services as {
    background?: { drain(): Promise<void> };
    jobs: { drain(options: { schedules: boolean }): Promise<number> };
  };

/** The background tasks a request left (they may queue jobs: settle's first half). */
export const settleBackground = (app: FastifyInstance) => servicesOf(app).background?.drain();

/**
 * Runs the queued jobs, never a schedule. Mail goes out as queued jobs, so this sends it too. Not
 * mailer.flush(): that drains with the schedules, and the every-minute rollups job then wrote during
 * whichever request was settling.
 */
export const runQueuedJobs = (app: FastifyInstance) => servicesOf(app).jobs.drain({ schedules: false });
