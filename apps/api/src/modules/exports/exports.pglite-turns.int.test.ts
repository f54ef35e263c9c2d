import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, GENEROUS_LIMITS, type SignedUp, signUp, type TestApp } from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';

/**
 * The embedded database's one connection, shared (issue 33). On PGlite a Detailed export reads
 * keyset pages, each a short statement of its own, and another request is answered between two
 * of them; the pages give the same file as the one statement read through a held cursor (the way
 * before), ties on every sort key falling across pages included. /readyz answers 503 while a
 * statement holds the connection, at once when a request has already waited longer than
 * READY_TIMEOUT_MS, and ready again once the statement ends. PGlite only: PostgreSQL has a pool.
 */
const PAGE_ROWS = 7;
const ENTRIES = 300;
const READY_TIMEOUT_MS = 400;
const RANGE = 'preset=custom&from=2026-11-01&to=2026-11-30&timeZone=UTC';
/** Statements the app sent, in order (Kysely's log: PGlite's own held cursor bypasses it). */
const statements: string[] = [];
let onStatement: ((sql: string) => void) | undefined;
let t: TestApp;
let heldCursorApp: FastifyInstance;
let owner: SignedUp;

const isPage = (statement: string) => statement.includes('page as materialized');

describe.skipIf(process.env.DATABASE_URL)('PGlite: exports take turns with other requests', () => {
  beforeAll(async () => {
    t = await createTestApp(
      {
        EXPORT_PAGE_ROWS: String(PAGE_ROWS),
        EXPORT_JOB_MIN_ROWS: '1000000',
        READY_TIMEOUT_MS: String(READY_TIMEOUT_MS),
      },
      {},
      {
        onQuery: (statement) => {
          statements.push(statement);
          onStatement?.(statement);
        },
      },
    );
    // The same database read the way before issue 33: one statement run whole into a held cursor.
    heldCursorApp = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        PUBLIC_URL: 'http://localhost:3000',
        WEB_DIST: '/nonexistent',
        ...GENEROUS_LIMITS,
        EXPORT_PAGE_ROWS: String(PAGE_ROWS),
        EXPORT_JOB_MIN_ROWS: '1000000',
        EXPORT_PGLITE_READ: 'cursor',
      }),
      db: t.db,
      logger: false,
    });
    await heldCursorApp.ready();
    owner = await signUp(t.app);
    // Ten entries per start, three durations and four notes: ties on every sort key, across pages.
    await sql`insert into time_entries (id, workspace_id, user_id, note, billable, start_at, end_at,
        duration_seconds, created_by_user_id)
      select gen_random_uuid(), ${owner.workspaceId}, ${owner.userId}, 'Note ' || (n % 4), n % 2 = 0, s.start_at,
        s.start_at + (600 * (1 + n % 3)) * interval '1 second', 600 * (1 + n % 3), ${owner.userId}
      from generate_series(1, ${ENTRIES}::int) n
      cross join lateral (select '2026-11-02T08:00:00Z'::timestamptz + (n / 10) * interval '1 hour' as start_at) s`.execute(
      t.db,
    );
  }, 60_000);
  afterAll(async () => {
    await heldCursorApp?.close();
    await t?.close();
  });

  const exportPath = (query: string) =>
    `/api/v1/workspaces/${owner.workspaceId}/reports/export?format=csv&kind=detailed&${RANGE}&${query}`;

  it("answers another request between an export's pages", async () => {
    let me: Promise<{ status: number; pagesBefore: number }> | undefined;
    // Asked for as soon as the export's first page has been read.
    onStatement = (statement) => {
      if (me || !isPage(statement)) return;
      me = t.app
        .inject({ url: '/api/v1/me', headers: { cookie: owner.cookie } })
        .then((response) => ({ status: response.statusCode, pagesBefore: statements.filter(isPage).length }));
    };
    const from = statements.length;
    const response = await t.app.inject({ url: exportPath('sort=start'), headers: { cookie: owner.cookie } });
    onStatement = undefined;
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body.trim().split('\n')).toHaveLength(ENTRIES + 2);
    const pages = statements.slice(from).filter(isPage).length;
    // One short statement a page (the last one finds the end).
    expect(pages).toBe(Math.ceil((ENTRIES + 1) / PAGE_ROWS));
    expect(me, 'the export read no keyset page').toBeDefined();
    const answered = await (me as NonNullable<typeof me>);
    expect(answered.status).toBe(200);
    // Answered while the export still had pages to read: it did not wait for the whole export.
    expect(answered.pagesBefore - statements.slice(0, from).filter(isPage).length).toBeLessThan(pages);
  });

  it('writes the same file as the one statement read through a held cursor, on every sort', async () => {
    for (const sort of ['start', 'duration', 'description'])
      for (const order of ['asc', 'desc']) {
        const query = `sort=${sort}&order=${order}`;
        const [paged, held] = await Promise.all(
          [t.app, heldCursorApp].map((app) =>
            app.inject({ url: exportPath(query), headers: { cookie: owner.cookie } }),
          ),
        );
        expect(paged?.statusCode, paged?.body).toBe(200);
        expect(paged?.body.trim().split('\n'), query).toHaveLength(ENTRIES + 2);
        expect(paged?.body, query).toBe(held?.body);
      }
  });

  it('/readyz answers 503 while a statement holds the database, and ready again after', async () => {
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode, ready.body).toBe(200);
    // A real statement on the one connection, long past READY_TIMEOUT_MS.
    const stuck = sql`select pg_sleep(${(READY_TIMEOUT_MS * 5) / 1000})`.execute(t.db);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const probe = await t.app.inject('/readyz');
    expect(probe.statusCode, probe.body).toBe(503);
    expect(probe.json()).toEqual({
      error: { code: 'not_ready', message: `The database did not answer within ${READY_TIMEOUT_MS} ms.` },
    });
    // That probe's `select 1` (and a user's request) has waited longer than READY_TIMEOUT_MS by
    // now: the next probe says so at once, without queueing behind the statement.
    const me = t.app.inject({ url: '/api/v1/me', headers: { cookie: owner.cookie } });
    const waited = await t.app.inject('/readyz');
    expect(waited.statusCode, waited.body).toBe(503);
    expect(waited.json().error.message).toMatch(/^The database has kept a request waiting \d+ ms\.$/);
    await stuck;
    expect((await me).statusCode).toBe(200);
    const again = await t.app.inject('/readyz');
    expect(again.statusCode, again.body).toBe(200);
  });
});
