import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertBulkEntries,
  joinWorkspace,
  type SignedUp,
  signUp,
  useTestApp,
  workspaceCalls,
} from '../../../test/harness.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { copyOutFor } from '../../db/connection.js';

/**
 * On PostgreSQL the Detailed CSV is written by the database (COPY, exports.copy.ts): it must be
 * the very bytes Node writes from the cursor (EXPORT_DATABASE_CSV=false, the PGlite path), for
 * every viewer's money, date and time format, sort, zone, and text a CSV or a spreadsheet treats
 * specially. PGlite has no COPY to a client: there, only the Node path exists (exports.stream).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const ctx = useTestApp({ EXPORT_PAGE_ROWS: '3' });
let inNode: FastifyInstance;
/** Every start-sorted export copied in three parts at once (exact quantiles); `whole` never splits. */
let inParts: FastifyInstance;
let whole: FastifyInstance;
let owner: SignedUp;
let manager: SignedUp;
let member: SignedUp;
let ws: string;
let tagId: string;
const { ok } = workspaceCalls(ctx, () => ws);

const NOTES = [
  'Plain work',
  'Comma, "quotes" and\na line break',
  '=HYPERLINK("http://example.com")',
  '-5 minus first',
  '+plus first',
  '@at first',
  '\ttab first',
  '\rcarriage return first',
  '',
  ' leading space',
  'Ünïcödé ✓ 日本',
  'semi;colon',
  'safe;=1+1',
  'a,"=1;\t@x\n -y',
];

async function csvFrom(app: FastifyInstance, who: SignedUp, query: string): Promise<Buffer> {
  const response = await app.inject({
    method: 'GET',
    url: `${ws}/reports/export?format=csv&kind=detailed&${query}`,
    headers: { cookie: who.cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  manager = await joinWorkspace(ctx.t, owner.workspaceId, 'manager');
  member = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
  const group = (await ok(owner, 'POST', '/groups', { name: 'Team' })).id;
  await ok(owner, 'PUT', `/groups/${group}/members/${manager.userId}`);
  await ok(owner, 'PUT', `/groups/${group}/members/${member.userId}`);
  const client = (await ok(owner, 'POST', '/clients', { name: 'Client, "Quoted"' })).id;
  const projects = [
    (await ok(owner, 'POST', '/projects', { name: '=Sum project', isPublic: true, clientId: client })).id,
    (await ok(owner, 'POST', '/projects', { name: 'Beta', isPublic: true })).id,
    null,
  ];
  const list = await ok(owner, 'POST', '/tag-lists', { name: 'Kinds' });
  const tags = [
    (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'Zeta, with comma' })).id,
    (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'Alpha' })).id,
  ];
  tagId = tags[0];
  const people = [owner, manager, member];
  for (let i = 0; i < 30; i++) {
    const who = people[i % 3] as SignedUp;
    // Late starts in Auckland run past its midnight; some cross Paris's end of DST (2026-10-25).
    const start = Date.UTC(2026, 9, 20 + (i % 10), (i * 5) % 24, (i * 17) % 60, i % 7);
    const seconds = 600 + ((i * 7919) % 30_000);
    const entry = await ok(owner, 'POST', '/time-entries', {
      userId: who.userId,
      start: new Date(start).toISOString(),
      end: new Date(start + seconds * 1000).toISOString(),
      projectId: projects[i % 3],
      tagIds: i % 4 === 0 ? tags : i % 4 === 1 ? [tags[0]] : [],
      billable: i % 2 === 0,
    });
    // Written straight to the row: the API would tidy some of these texts.
    await ctx.t.db
      .updateTable('time_entries')
      .set({
        note: NOTES[i % NOTES.length] ?? '',
        billable_rate_cents: i % 7 === 0 ? null : 7_000 + i * 11,
        cost_rate_cents: 3_333 + i,
        invoiced_at: i % 5 === 0 ? new Date() : null,
      })
      .where('id', '=', entry.id)
      .execute();
  }
  // A running timer (after the ranges compared byte for byte: its duration grows with every read).
  await ok(member, 'POST', '/timer/start', {});
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: 'http://localhost:3000',
    WEB_DIST: '/nonexistent',
    EXPORT_PAGE_ROWS: '3',
    EXPORT_DATABASE_CSV: 'false',
  });
  inNode = await buildApp({ config, db: ctx.t.db, logger: false });
  await inNode.ready();
  const copying = (env: Record<string, string>) =>
    loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'http://localhost:3000',
      WEB_DIST: '/nonexistent',
      EXPORT_JOB_MIN_ROWS: '1000000',
      ...env,
    });
  inParts = await buildApp({
    config: copying({ EXPORT_COPY_PARTS: '3', EXPORT_COPY_SPLIT_ROWS: '0' }),
    db: ctx.t.db,
    logger: false,
  });
  whole = await buildApp({ config: copying({ EXPORT_COPY_PARTS: '1' }), db: ctx.t.db, logger: false });
  await Promise.all([inParts.ready(), whole.ready()]);
});
afterAll(() => Promise.all([inNode?.close(), inParts?.close(), whole?.close()]));

describe.runIf(onPostgres)('a Detailed CSV written by PostgreSQL', () => {
  it('is there to write it', () => {
    expect(copyOutFor(ctx.t.db)).toBeTypeOf('function');
  });

  const formats = [
    { dateFormat: 'YYYY-MM-DD', timeFormat: '24h' },
    { dateFormat: 'DD/MM/YYYY', timeFormat: '12h' },
    { dateFormat: 'MM/DD/YYYY', timeFormat: '12h' },
    { dateFormat: 'DD.MM.YYYY', timeFormat: '24h' },
  ];
  const queries = [
    'preset=custom&from=2026-10-18&to=2026-11-02&timeZone=Europe/Paris&sort=start&order=asc',
    'preset=custom&from=2026-10-21&to=2026-10-27&timeZone=Pacific/Auckland&sort=duration&order=desc&bom=true',
    'preset=custom&from=2026-10-18&to=2026-11-02&timeZone=Asia/Kathmandu&sort=description&order=asc&roundingMode=up&roundingMinutes=15',
    'preset=custom&from=2026-10-18&to=2026-11-02&timeZone=UTC&sort=start&order=desc&billable=true&tags=__TAG__',
  ];

  it.each(formats)(
    'holds the bytes Node writes, for every viewer and sort ($dateFormat, $timeFormat)',
    async (format) => {
      for (const who of [owner, manager, member]) {
        await ok(who, 'PATCH', '/api/v1/me', format);
        for (const query of queries) {
          const q = query.replace('__TAG__', tagId);
          const [database, node] = [await csvFrom(ctx.t.app, who, q), await csvFrom(inNode, who, q)];
          expect(database.toString('utf8')).toBe(node.toString('utf8'));
          const rows: string[][] = parse(database, { bom: true, relax_column_count: true });
          expect(rows.length).toBeGreaterThan(2);
          expect(rows[0]?.[0]).toBe('Date');
          expect(rows.at(-1)?.[0]).toBe('Total');
        }
      }
    },
  );

  it('writes what a spreadsheet would run as text, and keeps quotes and line breaks inside one field', async () => {
    await ok(owner, 'PATCH', '/api/v1/me', { dateFormat: 'YYYY-MM-DD', timeFormat: '24h' });
    const csv = await csvFrom(ctx.t.app, owner, 'preset=custom&from=2026-10-18&to=2026-12-31&timeZone=UTC');
    const rows: string[][] = parse(csv);
    // The running timer: no end yet.
    expect(rows.filter((r) => r[2] === '')).toHaveLength(2);
    const descriptions = rows.map((r) => r[7]);
    expect(descriptions).toContain('\'=HYPERLINK("http://example.com")');
    expect(descriptions).toContain("'-5 minus first");
    expect(descriptions).toContain("'\ttab first");
    expect(descriptions).toContain("safe;'=1+1");
    expect(descriptions).toContain(`a,'"=1;'\t'@x\n' -y`);
    expect(descriptions).toContain('Comma, "quotes" and\na line break');
    expect(rows.map((r) => r[5])).toContain("'=Sum project");
    expect(rows.map((r) => r[4])).toContain('Client, "Quoted"');
  });

  it.each([
    'preset=custom&from=2026-10-18&to=2026-11-02&timeZone=Europe/Paris&sort=start&order=asc',
    'preset=custom&from=2026-10-21&to=2026-10-27&timeZone=Pacific/Auckland&sort=start&order=desc&bom=true',
    // Each range ends before the running timer (started when the test runs): its duration grows between two reads.
    'preset=custom&from=2026-10-18&to=2026-11-15&timeZone=UTC&sort=start&order=asc',
    'preset=custom&from=2026-10-18&to=2026-11-02&timeZone=Asia/Kathmandu&sort=start&order=desc&roundingMode=up&roundingMinutes=15',
  ])('copied in parts at once, holds the bytes of one copy (%s)', async (query) => {
    await ok(manager, 'PATCH', '/api/v1/me', { dateFormat: 'DD.MM.YYYY', timeFormat: '12h' });
    for (const who of [owner, manager, member]) {
      const [parts, one] = [await csvFrom(inParts, who, query), await csvFrom(whole, who, query)];
      expect(parts.toString('utf8')).toBe(one.toString('utf8'));
      expect(parse(parts, { bom: true, relax_column_count: true }).at(-1)?.[0]).toBe('Total');
    }
  });

  it('gives every connection back and leaves no file behind when the reader of a copy in parts hangs up', async () => {
    // Enough rows that the file cannot sit whole in the socket's buffers before the reader stops.
    await insertBulkEntries(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      from: '2027-01-01T00:00:00Z',
      count: 60_000,
      everySeconds: 10,
      seconds: 5,
      note: 'Bulk',
    });
    await inParts.listen({ port: 0, host: '127.0.0.1' });
    const { port } = inParts.server.address() as AddressInfo;
    const bytes = await new Promise<number>((resolve, reject) => {
      const request = http.get(
        {
          host: '127.0.0.1',
          port,
          path: `${ws}/reports/export?format=csv&kind=detailed&preset=custom&from=2027-01-01&to=2027-01-31&timeZone=UTC`,
          headers: { cookie: owner.cookie },
        },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            response.pause();
            // Hangs up while the server still has rows to send, the later parts still copying or spooled.
            setTimeout(() => {
              request.destroy();
              resolve(chunk.length);
            }, 100);
          });
        },
      );
      request.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
    });
    expect(bytes).toBeGreaterThan(0);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const open = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`.execute(ctx.t.db);
      const spooled = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('sundial-copy-'));
      if (open.rows[0]?.n === 0 && spooled.length === 0) break;
      expect(Date.now(), 'a transaction or a spooled part stayed after the download stopped').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Read to the end, the same export holds every row, once.
    const rows: string[][] = parse(
      await csvFrom(inParts, owner, 'preset=custom&from=2027-01-01&to=2027-01-31&timeZone=UTC&sort=start&order=asc'),
    );
    const bulk = rows.map((r) => r[7] ?? '').filter((note) => note.startsWith('Bulk '));
    expect(bulk).toHaveLength(60_000);
    expect(new Set(bulk).size).toBe(60_000);
    // The header, the running timer (it started before the range's end) and the totals.
    expect(rows.length).toBe(60_000 + 3);
  });
});
