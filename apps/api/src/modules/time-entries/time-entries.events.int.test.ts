import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, signUp } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { type DbHandle, openDb } from '../../db/connection.js';
import { migrateToLatest } from '../../db/migrate.js';
import { newId } from '../../platform/ids.js';
import { membersRepository } from '../members/members.repository.js';

/**
 * Two API processes' worth of apps on one database: on PostgreSQL each has its own pool and
 * LISTEN connection (as two processes would); on PGlite they share the one embedded database.
 */
const handles: DbHandle[] = [];
const apps: FastifyInstance[] = [];
const bases: string[] = [];
let dropDatabase = async () => {};

async function openPair(): Promise<[DbHandle, DbHandle]> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const one = openDb({ dataDir: 'memory://' });
    return [one, { ...one, close: async () => {} }];
  }
  const name = `sundial_test_${newId().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  dropDatabase = async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return [openDb({ databaseUrl: url.toString() }), openDb({ databaseUrl: url.toString() })];
}

beforeAll(async () => {
  const pair = await openPair();
  await migrateToLatest(pair[0].db);
  for (const handle of pair) {
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'http://localhost:3000',
      WEB_DIST: '/nonexistent',
      ...GENEROUS_LIMITS,
    });
    const app = await buildApp({ config, db: handle.db, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    handles.push(handle);
    apps.push(app);
    bases.push(`http://127.0.0.1:${address.port}`);
  }
});

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const handle of handles.reverse()) await handle.close();
  await dropDatabase();
});

interface Stream {
  events: { type: string; userId: string; entryIds: string[] }[];
  /** Settles when the server ends the stream. */
  ended: Promise<void>;
  waitFor(predicate: (e: Stream['events'][number]) => boolean, ms?: number): Promise<Stream['events'][number]>;
  close(): void;
}

async function openStream(url: string, cookie: string): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { cookie }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const events: Stream['events'] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let ready: () => void = () => {};
  let end: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          end();
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name === 'ready') ready();
          if (name === 'change' && data) events.push(JSON.parse(data));
          for (const w of waiters) w();
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  await isReady;
  return {
    events,
    ended,
    waitFor(predicate, ms = 1000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(predicate);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

async function putInGroup(db: FastifyInstance['services']['db'], workspaceId: string, userIds: string[]) {
  const groupId = newId();
  await db
    .insertInto('groups')
    .values({ id: groupId, workspace_id: workspaceId, parent_id: null, name: groupId })
    .execute();
  await db
    .insertInto('group_members')
    .values(userIds.map((user_id) => ({ workspace_id: workspaceId, group_id: groupId, user_id })))
    .execute();
}

describe('live changes of time entries', () => {
  it('reach the user open tabs on another API process within a second, and only theirs', async () => {
    const [appA] = apps;
    if (!appA) throw new Error('no app');
    const owner = await signUp(appA);
    // The user whose time changes: a member in a group of the manager's (a manager's people are
    // the members and guests of their groups).
    const user = await signUp(appA);
    const manager = await signUp(appA);
    const stranger = await signUp(appA);
    const db = handles[0]?.db ?? appA.services.db;
    for (const [who, role] of [
      [user, 'member'],
      [manager, 'manager'],
    ] as const) {
      await membersRepository.add(db, { workspaceId: owner.workspaceId, userId: who.userId, role });
    }
    await putInGroup(db, owner.workspaceId, [user.userId, manager.userId]);
    const ws = owner.workspaceId;
    const path = `/api/v1/workspaces/${ws}/time-entries/events`;

    expect((await fetch(`${bases[1]}${path}`)).status).toBe(401);
    expect((await fetch(`${bases[1]}${path}`, { headers: { cookie: stranger.cookie } })).status).toBe(404);

    const ownTab = await openStream(`${bases[1]}${path}`, user.cookie);
    const managerView = await openStream(`${bases[0]}${path}?userId=${user.userId}`, manager.cookie);
    const managersOwn = await openStream(`${bases[1]}${path}`, manager.cookie);

    const started = Date.now();
    const response = await fetch(`${bases[0]}/api/v1/workspaces/${ws}/timer/start`, {
      method: 'POST',
      headers: { cookie: user.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'live' }),
    });
    expect(response.status).toBe(201);
    const entryId = ((await response.json()) as { entry: { id: string } }).entry.id;

    const seen = await ownTab.waitFor((e) => e.entryIds.includes(entryId));
    expect(seen).toMatchObject({ type: 'created', userId: user.userId, workspaceId: ws });
    await managerView.waitFor((e) => e.entryIds.includes(entryId));
    expect(Date.now() - started).toBeLessThan(1000);

    const stop = await fetch(`${bases[1]}/api/v1/workspaces/${ws}/timer/stop`, {
      method: 'POST',
      headers: { cookie: user.cookie },
    });
    expect(stop.status).toBe(200);
    await ownTab.waitFor((e) => e.type === 'updated' && e.entryIds.includes(entryId));
    expect(managersOwn.events).toEqual([]);

    ownTab.close();
    managerView.close();
    managersOwn.close();
  });

  it.runIf(process.env.DATABASE_URL)('keep flowing after the LISTEN connection drops', async () => {
    const [appA, appB] = apps;
    if (!appA || !appB) throw new Error('no app');
    const owner = await signUp(appA);
    const path = `/api/v1/workspaces/${owner.workspaceId}`;
    const tab = await openStream(`${bases[1]}${path}/time-entries/events`, owner.cookie);
    const db = handles[0]?.db ?? appA.services.db;
    const killed = await sql<{ ok: boolean }>`
      select pg_terminate_backend(pid) as ok from pg_stat_activity
      where query like 'listen %' and datname = current_database()`.execute(db);
    expect(killed.rows.length).toBeGreaterThanOrEqual(2);
    const deadline = Date.now() + 5000;
    let seen = false;
    while (!seen && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const created = await fetch(`${bases[0]}${path}/time-entries`, {
        method: 'POST',
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ start: new Date(Date.now() - 3_600_000).toISOString(), duration: '10m' }),
      });
      const id = ((await created.json()) as { id: string }).id;
      seen = await tab
        .waitFor((e) => e.entryIds.includes(id), 400)
        .then(
          () => true,
          () => false,
        );
    }
    expect(seen).toBe(true);
    tab.close();
  });

  it('is refused for someone else timesheet without time:view_others', async () => {
    const [appA] = apps;
    if (!appA) throw new Error('no app');
    const owner = await signUp(appA);
    const member = await signUp(appA);
    await membersRepository.add(appA.services.db, {
      workspaceId: owner.workspaceId,
      userId: member.userId,
      role: 'member',
    });
    const path = `/api/v1/workspaces/${owner.workspaceId}/time-entries/events`;
    const refused = await fetch(`${bases[0]}${path}?userId=${owner.userId}`, { headers: { cookie: member.cookie } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden');
  });

  it("gives a manager following everyone only their people's changes", async () => {
    const [appA] = apps;
    if (!appA) throw new Error('no app');
    const db = handles[0]?.db ?? appA.services.db;
    const owner = await signUp(appA);
    const manager = await signUp(appA);
    const theirs = await signUp(appA);
    const workspaceId = owner.workspaceId;
    for (const [user, role] of [
      [manager, 'manager'],
      [theirs, 'member'],
    ] as const) {
      await membersRepository.add(db, { workspaceId, userId: user.userId, role });
    }
    await putInGroup(db, workspaceId, [manager.userId, theirs.userId]);
    const ws = `/api/v1/workspaces/${workspaceId}`;
    const everyone = await openStream(`${bases[1]}${ws}/time-entries/events?userId=all`, manager.cookie);
    expect(
      (
        await fetch(`${bases[1]}${ws}/time-entries/events?userId=${owner.userId}`, {
          headers: { cookie: manager.cookie },
        })
      ).status,
    ).toBe(403);
    const book = async (cookie: string) => {
      const response = await fetch(`${bases[0]}${ws}/time-entries`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ start: new Date(Date.now() - 3_600_000).toISOString(), duration: '10m' }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    const ownersEntry = await book(owner.cookie);
    const theirEntry = await book(theirs.cookie);
    await everyone.waitFor((e) => e.entryIds.includes(theirEntry));
    expect(everyone.events.some((e) => e.entryIds.includes(ownersEntry))).toBe(false);
    everyone.close();
  });

  it('end when the session that opened them is signed out, expires, or its user is disabled', async () => {
    const [appA] = apps;
    if (!appA) throw new Error('no app');
    const db = handles[0]?.db ?? appA.services.db;
    const owner = await signUp(appA);
    const member = await signUp(appA);
    await membersRepository.add(db, { workspaceId: owner.workspaceId, userId: member.userId, role: 'member' });
    // Two sessions of the owner: one signs out elsewhere, the other expires.
    const second = await fetch(`${bases[0]}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password: owner.password }),
    });
    expect(second.status).toBe(200);
    // The session's cookie among those the log-in sets (a remembered device's may come first).
    const sessionCookie = second.headers.getSetCookie().find((c) => /^(sundial_sid|__Host-sid)=/.test(c));
    const secondCookie = sessionCookie?.split(';')[0] ?? '';
    const path = `/api/v1/workspaces/${owner.workspaceId}/time-entries/events`;
    const signedOut = await openStream(`${bases[1]}${path}`, owner.cookie);
    const expiring = await openStream(`${bases[0]}${path}`, secondCookie);
    const disabled = await openStream(`${bases[1]}${path}`, member.cookie);
    const outcome = (s: Stream) =>
      Promise.race([s.ended.then(() => 'ended'), new Promise((r) => setTimeout(() => r('open'), 8000))]);

    expect(
      (await fetch(`${bases[0]}/api/v1/auth/logout`, { method: 'POST', headers: { cookie: owner.cookie } })).status,
    ).toBeLessThan(300);
    await db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', owner.userId)
      .execute();
    await db
      .updateTable('memberships')
      .set({ status: 'disabled' })
      .where('workspace_id', '=', owner.workspaceId)
      .where('user_id', '=', member.userId)
      .execute();
    expect(await Promise.all([outcome(signedOut), outcome(expiring), outcome(disabled)])).toEqual([
      'ended',
      'ended',
      'ended',
    ]);
    // The browser's reconnect is refused.
    expect((await fetch(`${bases[1]}${path}`, { headers: { cookie: secondCookie } })).status).toBe(401);
  });
});
