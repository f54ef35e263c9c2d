import { PassThrough } from 'node:stream';
import type { Role } from '@sundial/core';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { type AppDeps, buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Db, type DbOptions, openDb } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { membersRepository } from '../src/modules/members/members.repository.js';
import { newId } from '../src/platform/ids.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}

/**
 * A fresh database for one test file: in-memory PGlite, or a new PostgreSQL database created
 * beside DATABASE_URL's (and dropped afterwards) when that is set. Empty, or with `migrated` at
 * the latest schema (a copy of the run's migrated template or image, test/global-setup.ts).
 */
export async function openTestDb(
  options: Pick<DbOptions, 'onQuery'> & { migrated?: boolean } = {},
): Promise<{ db: Db; url?: string; close(): Promise<void> }> {
  const { migrated = false, ...dbOptions } = options;
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    // The run's migrated image (test/global-setup.ts) when asked for and there is one.
    const image = migrated ? inject('pgliteImage') : '';
    const handle = openDb({ dataDir: 'memory://', ...dbOptions, ...(image ? { image } : {}) });
    if (migrated && !image) await migrateToLatest(handle.db);
    return { db: handle.db, close: () => handle.close() };
  }
  const name = `sundial_test_${newId().replaceAll('-', '')}`;
  // The run's migrated template (test/global-setup.ts) when asked for and there is one.
  const template = migrated ? inject('pgTemplate') : '';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  // A test database need not survive a crash: commits stop waiting for the disk (a 2-core CI machine
  // spent ~1.5 ms a commit in fdatasync, tens of thousands of commits a run; issue 31).
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openDb({ databaseUrl: url.toString(), ...dbOptions });
  if (migrated && !template) await migrateToLatest(handle.db);
  return {
    db: handle.db,
    /** For a second connection pool, as another process would open. */
    url: url.toString(),
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      // pool.end() resolves before its sockets have closed: wait until the server has let them
      // go, so the forced drop never cuts a connection that is still saying goodbye (that
      // surfaced as an uncaught "terminating connection" error in whichever test file ran).
      for (let attempt = 0; attempt < 100; attempt++) {
        const { rows } = await cleanup.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * Abuse limits high enough for whole suites, which sign many users up from one address; a test
 * of a limit passes its own low value through createTestApp(env) or useTestApp(env).
 */
export const GENEROUS_LIMITS: Record<string, string> = {
  RATE_LIMIT_SIGNUP_PER_IP: '100000',
  RATE_LIMIT_LOGIN_PER_IP: '100000',
  RATE_LIMIT_FORGOT_PER_IP: '100000',
  RATE_LIMIT_FORGOT_PER_EMAIL: '100000',
  RATE_LIMIT_INVITE_RESEND: '100000',
  RATE_LIMIT_DEMO_PER_IP: '100000',
  RATE_LIMIT_DEMO_PER_EMAIL: '100000',
  RATE_LIMIT_CARD_TOKENS_PER_IP: '100000',
  RATE_LIMIT_AGENT_PAIRING_PER_IP: '100000',
  // /readyz's own limit (3 s) is for a server; at load 20 a test database's first answer took longer.
  READY_TIMEOUT_MS: '60000',
};

/** What a test may plug into the app it builds: token authenticators, a clock, report sources. */
export type TestAppDeps = Pick<AppDeps, 'tokenAuthenticators' | 'now' | 'reportSources'>;

export async function createTestApp(
  env: Record<string, string> = {},
  deps: TestAppDeps = {},
  dbOptions: Pick<DbOptions, 'onQuery'> = {},
): Promise<TestApp> {
  const { db, close } = await openTestDb({ ...dbOptions, migrated: true });
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST: '/nonexistent',
    AGENT_DIST: '/nonexistent/sundial-agent.mjs',
    ...GENEROUS_LIMITS,
    ...env,
  });
  const app = await buildApp({ config, db, logger: false, ...deps });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await close();
    },
  };
}

export const STRONG_PASSWORD = 'Tidal-wave-42';

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now()}.${++counter}@example.com`;

/** The session cookie a response set, ready for a `cookie` header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'sundial_sid' || c.name === '__Host-sid');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

export interface SignedUp {
  email: string;
  password: string;
  cookie: string;
  userId: string;
  workspaceId: string;
}

/** Signs a new user up over HTTP and returns their cookie and first workspace. */
export async function signUp(app: FastifyInstance, email = uniqueEmail()): Promise<SignedUp> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { email, password: STRONG_PASSWORD },
  });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.body}`);
  const cookie = sessionCookie(response);
  const me = await app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } });
  const body = me.json();
  return { email, password: STRONG_PASSWORD, cookie, userId: body.user.id, workspaceId: body.currentWorkspaceId };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The token of the newest link `page` (`verify-email`, `password`) e-mailed to the address, read from the outbox. */
export async function mailedToken(db: Db, email: string, page: 'verify-email' | 'password'): Promise<string> {
  const mail = await db
    .selectFrom('outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .where('text_body', 'like', `%/${page}?token=%`)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const token = new RegExp(`/${page}\\?token=([\\w-]+)`).exec(mail?.text_body ?? '')?.[1];
  if (!token) throw new Error(`no ${page} link mailed to ${email}`);
  return token;
}

/** Confirms the address of a signed-up user by opening the link mailed to it (docs/decisions/0014). */
export async function confirmEmail(t: TestApp, email: string): Promise<void> {
  const token = await mailedToken(t.db, email, 'verify-email');
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/auth/email/verify', payload: { token } });
  if (response.statusCode !== 200) throw new Error(`confirming ${email} failed: ${response.body}`);
}

/** A short way to call the API as someone (a cookie) or as nobody. */
export const caller =
  (app: FastifyInstance) =>
  (method: Method, url: string, cookie?: string, payload?: object): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, payload, headers: cookie ? { cookie } : {} });

/** Sends a file to import the way the web does: the raw body as text/csv (a string, bytes or a stream). */
export const sendCsv = (
  app: FastifyInstance,
  url: string,
  cookie: string,
  payload: string | Buffer | NodeJS.ReadableStream,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'POST', url, payload, headers: { cookie, 'content-type': 'text/csv', ...headers } });

/**
 * One app and database for the test file, opened before its tests and closed after them.
 * Read `ctx.t` inside tests (it is set once beforeAll has run).
 */
export function useTestApp(
  env: Record<string, string> = {},
  deps: TestAppDeps = {},
): { t: TestApp; call: ReturnType<typeof caller> } {
  const ctx = {} as { t: TestApp; call: ReturnType<typeof caller> };
  beforeAll(async () => {
    ctx.t = await createTestApp(env, deps);
    ctx.call = caller(ctx.t.app);
  });
  afterAll(() => ctx.t?.close());
  return ctx;
}

/** A user signed up and added straight to a workspace with `role` (no invitation round trip). */
export async function joinWorkspace(t: TestApp, workspaceId: string, role: Role): Promise<SignedUp> {
  const user = await signUp(t.app);
  await membersRepository.add(t.db, { workspaceId, userId: user.userId, role });
  return user;
}

/**
 * A custom role made by the workspace's owner (`owner`, signed in) and given to `to`, whose built-in
 * role becomes its base: how the tests of access decisions meet a role the matrix does not name.
 */
export async function giveCustomRole(
  t: TestApp,
  o: { owner: SignedUp; to: SignedUp; name: string; baseRole: Role; permissions: readonly string[] },
): Promise<string> {
  const call = caller(t.app);
  const base = `/api/v1/workspaces/${o.owner.workspaceId}`;
  const { name, baseRole, permissions } = o;
  const role = await call('POST', `${base}/roles`, o.owner.cookie, { name, baseRole, permissions });
  expect(role.statusCode, role.body).toBe(201);
  const given = await call('PUT', `${base}/members/${o.to.userId}/custom-role`, o.owner.cookie, {
    customRoleId: role.json().id,
  });
  expect(given.statusCode, given.body).toBe(204);
  return role.json().id;
}

/**
 * Calls into one workspace's API as someone: `url` is relative to the workspace
 * (`/projects` is `/api/v1/workspaces/:id/projects`; a path starting with /api is taken as it
 * is). `ok` expects a success and answers its JSON, naming the call and its answer otherwise.
 */
export function workspaceCalls(ctx: { call: ReturnType<typeof caller> }, base: () => string) {
  const call = (who: SignedUp | undefined, method: Method, url: string, body?: object) =>
    ctx.call(method, url.startsWith('/api') ? url : `${base()}${url}`, who?.cookie, body);
  const ok = async (who: SignedUp, method: Method, url: string, body?: object) => {
    const response = await call(who, method, url, body);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  return { call, ok };
}

/**
 * An app of its own for the test file's block, logging at debug into `lines` (one JSON line each),
 * so a test can read what the request log says (secrets left out, for instance).
 */
export function useLoggedTestApp(
  /** Settings, or a function read when the app starts (for values other hooks make first). */
  env: Record<string, string> | (() => Record<string, string>) = {},
): { app: FastifyInstance; lines: string[] } {
  const ctx = { lines: [] as string[] } as { app: FastifyInstance; lines: string[] };
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await openTestDb({ migrated: true });
    close = opened.close;
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => ctx.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'http://localhost:3000',
      WEB_DIST: '/nonexistent',
      // Debug: each request's own line is there to read (requests log at debug since issue 30).
      LOG_LEVEL: 'debug',
      ...GENEROUS_LIMITS,
      ...(typeof env === 'function' ? env() : env),
    });
    ctx.app = await buildApp({ config, db: opened.db, logStream: stream });
    await ctx.app.ready();
  });
  afterAll(async () => {
    await ctx.app?.close();
    await close?.();
  });
  return ctx;
}

/** Statements sent to the database, as counted by `countingStatements`; begin and commit left out. */
export interface StatementLog {
  /** Every statement of the calls made inside `during`, in order. */
  during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }>;
  /** Feed for `createTestApp(…, { onQuery })`. */
  onQuery(sql: string): void;
}

/**
 * Records the statements the app sends while `during` runs, the same on PGlite and PostgreSQL
 * (begin, commit and rollback are left out: PGlite opens transactions without a statement).
 */
export function countingStatements(): StatementLog {
  let recording: string[] | undefined;
  return {
    onQuery(sql) {
      if (/^(begin|commit|rollback)\b/i.test(sql.trim())) return;
      recording?.push(sql);
    },
    async during(work) {
      recording = [];
      try {
        const result = await work();
        return { result, statements: recording };
      } finally {
        recording = undefined;
      }
    },
  };
}

/** Which rows of the audit trail `auditTrail` reads; an action ending in `%` matches a prefix. */
export interface AuditFilter {
  workspaceId?: string;
  actorUserId?: string;
  subjectId?: string;
  action?: string;
}

/** The audit trail's rows that match every given field, oldest first. */
export function auditTrail(db: Db, filter: AuditFilter) {
  let query = db
    .selectFrom('audit_log')
    .select(['action', 'actor_user_id', 'workspace_id', 'subject_id', 'detail'])
    .orderBy('created_at')
    .orderBy('id');
  if (filter.workspaceId !== undefined) query = query.where('workspace_id', '=', filter.workspaceId);
  if (filter.actorUserId !== undefined) query = query.where('actor_user_id', '=', filter.actorUserId);
  if (filter.subjectId !== undefined) query = query.where('subject_id', '=', filter.subjectId);
  if (filter.action !== undefined)
    query = query.where('action', filter.action.endsWith('%') ? 'like' : '=', filter.action);
  return query.execute();
}

/**
 * `count` finished entries of one person, written straight to the database (set-based, for tests
 * that need many): entry n (from 1) starts `n * everySeconds` after `from`, lasts `seconds`, notes
 * `${note} ${n}`, not billable.
 */
export async function insertBulkEntries(
  db: Db,
  o: {
    workspaceId: string;
    userId: string;
    from: string;
    count: number;
    everySeconds: number;
    seconds: number;
    note: string;
  },
): Promise<void> {
  await sql`insert into time_entries (id, workspace_id, user_id, note, billable, start_at, end_at,
      duration_seconds, created_by_user_id)
    select gen_random_uuid(), ${o.workspaceId}, ${o.userId}, ${o.note} || ' ' || n, false,
      ${o.from}::timestamptz + n * ${o.everySeconds} * interval '1 second',
      ${o.from}::timestamptz + (n * ${o.everySeconds} + ${o.seconds}) * interval '1 second', ${o.seconds}, ${o.userId}
    from generate_series(1, ${o.count}::int) n`.execute(db);
}
