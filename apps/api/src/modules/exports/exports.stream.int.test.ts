import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DetailedEntryView, Role } from '@sundial/core';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  insertBulkEntries,
  joinWorkspace,
  type SignedUp,
  signUp,
  useTestApp,
  workspaceCalls,
} from '../../../test/harness.js';
import { decimalMoney, formatDateTime, hms, localTime, safeText } from './exports.format.js';

/**
 * The Detailed export reads ONE statement through a cursor, 7 rows a chunk here: row for row it
 * is the Detailed report's pages (every sort, a time zone with midnight-crossing entries, an entry
 * with a break, rounding, money per role), and a download stopped halfway gives its database
 * connection back.
 */
const ctx = useTestApp({ EXPORT_PAGE_ROWS: '7' });
let owner: SignedUp;
let manager: SignedUp;
let member: SignedUp;
let ws: string;
const { ok } = workspaceCalls(ctx, () => ws);
const join = (role: Role) => joinWorkspace(ctx.t, owner.workspaceId, role);
const ZONE = 'Europe/Paris';
const RANGE = `preset=custom&from=2026-11-16&to=2026-11-30&timeZone=${ZONE}`;

/** Every entry of the Detailed report, walked page by page (5 a page) as the screen does. */
async function pagesOf(who: SignedUp, query: string): Promise<DetailedEntryView[]> {
  const items: DetailedEntryView[] = [];
  let cursor: string | null = null;
  do {
    const page = await ok(
      who,
      'GET',
      `/reports/detailed?${query}&limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

async function csvOf(who: SignedUp, query: string): Promise<string[][]> {
  const response = await ctx.t.app.inject({
    method: 'GET',
    url: `${ws}/reports/export?format=csv&kind=detailed&${query}`,
    headers: { cookie: who.cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return parse(response.rawPayload);
}

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  manager = await join('manager');
  member = await join('member');
  const group = (await ok(owner, 'POST', '/groups', { name: 'Team' })).id;
  await ok(owner, 'PUT', `/groups/${group}/members/${manager.userId}`);
  await ok(owner, 'PUT', `/groups/${group}/members/${member.userId}`);
  const projects = [
    (await ok(owner, 'POST', '/projects', { name: 'Alpha', isPublic: true })).id,
    (await ok(owner, 'POST', '/projects', { name: 'Beta', isPublic: true })).id,
    null,
  ];
  const list = await ok(owner, 'POST', '/tag-lists', { name: 'Kinds' });
  const tags = [
    (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'Zeta' })).id,
    (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'Alpha' })).id,
  ];
  const people = [owner, manager, member];
  for (let i = 0; i < 40; i++) {
    const who = people[i % 3] as SignedUp;
    // Some start late in the evening, Paris time, and run past midnight: two days' parts.
    const start = Date.UTC(2026, 10, 16 + (i % 8), 8 + ((i * 5) % 15), (i * 17) % 60, i % 7);
    const seconds = 600 + ((i * 7919) % 14_400);
    const entry = await ok(owner, 'POST', '/time-entries', {
      userId: who.userId,
      start: new Date(start).toISOString(),
      end: new Date(start + seconds * 1000).toISOString(),
      projectId: projects[i % 3],
      tagIds: i % 4 === 0 ? tags : i % 4 === 1 ? [tags[0]] : [],
      billable: i % 2 === 0,
      // Repeated notes: the description sort falls back on start and id.
      note: i % 5 === 0 ? '=formula' : `Work ${i % 6}`,
    });
    await ctx.t.db
      .updateTable('time_entries')
      .set({ billable_rate_cents: 7_000 + i * 11, cost_rate_cents: 3_333 + i })
      .where('id', '=', entry.id)
      .execute();
  }
  // An entry with a break (paused and resumed), stopped so it no longer grows between two reads.
  const base = `${ws}/timer`;
  for (const step of ['start', 'pause', 'resume', 'stop'])
    expect((await ctx.call('POST', `${base}/${step}`, owner.cookie, {})).statusCode).toBeLessThan(300);
});

describe('Detailed export from one cursor', () => {
  const cases = [
    'sort=start&order=asc',
    'sort=start&order=desc',
    'sort=duration&order=desc',
    'sort=description&order=asc&roundingMode=up&roundingMinutes=15',
  ];
  it.each(cases)('holds the Detailed pages row for row, over many chunks (%s)', async (sorting) => {
    for (const who of [owner, manager, member]) {
      const query = `${RANGE}&${sorting}`;
      const items = await pagesOf(who, query);
      const rows = await csvOf(who, query);
      const header = rows[0] ?? [];
      const at = (name: string) => header.indexOf(name);
      expect(rows).toHaveLength(1 + items.length + 1);
      expect(items.length).toBeGreaterThan(who === owner ? 40 : 7);
      const money = (name: string, amount: number | null | undefined) =>
        at(name) < 0 ? [] : [amount == null ? '' : decimalMoney(amount)];
      const expected = items.map((e) => [
        formatDateTime(localTime(e.start, ZONE), 'YYYY-MM-DD', '24h'),
        e.end === null ? '' : formatDateTime(localTime(e.end, ZONE), 'YYYY-MM-DD', '24h'),
        safeText(e.note),
        e.tagNames.join(', '),
        hms(e.seconds),
        ...money('Billable amount (USD)', e.billableAmount),
        ...money('Cost (USD)', e.costAmount),
      ]);
      const picked = (row: string[]) =>
        ['Start', 'End', 'Description', 'Tags', 'Duration', 'Billable amount (USD)', 'Cost (USD)']
          .filter((name) => at(name) >= 0)
          .map((name) => row[at(name)]);
      expect(rows.slice(1, -1).map(picked)).toEqual(expected);
      const total = rows.at(-1) ?? [];
      expect(total[0]).toBe('Total');
      expect(total[at('Duration')]).toBe(hms(items.reduce((sum, e) => sum + e.seconds, 0)));
      if (at('Cost (USD)') >= 0 && items.every((e) => e.costAmount !== null))
        expect(total[at('Cost (USD)')]).toBe(decimalMoney(items.reduce((sum, e) => sum + (e.costAmount ?? 0), 0)));
    }
  });
});

describe('a download stopped halfway', () => {
  it('lets other requests through while it waits, and gives its database connection back', async () => {
    // Enough rows that the file cannot sit whole in the socket's buffers before the reader stops.
    await insertBulkEntries(ctx.t.db, {
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      from: '2026-11-01T00:00:00Z',
      count: 60_000,
      everySeconds: 10,
      seconds: 5,
      note: 'Bulk',
    });
    await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.t.app.server.address() as AddressInfo;
    let answeredMeanwhile = 0;
    const bytes = await new Promise<number>((resolve, reject) => {
      const request = http.get(
        {
          host: '127.0.0.1',
          port,
          path: `${ws}/reports/export?format=csv&kind=detailed&preset=custom&from=2026-11-01&to=2026-11-30&timeZone=UTC`,
          headers: { cookie: owner.cookie },
        },
        (response) => {
          let received = 0;
          response.once('data', (chunk: Buffer) => {
            received += chunk.length;
            response.pause();
            // Stops reading; while the download waits for it, the app still answers others (on
            // PGlite no cursor holds its one connection between chunks); then hangs up while the
            // server still has rows to send.
            setTimeout(async () => {
              const other = await ctx.call('GET', `${ws}/projects`, manager.cookie);
              answeredMeanwhile = other.statusCode;
              request.destroy();
              resolve(received);
            }, 200);
          });
        },
      );
      request.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
    });
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(60_000 * 50);
    expect(answeredMeanwhile).toBe(200);
    // The connection (PGlite's only one) answers again; on PostgreSQL, every other connection of
    // the app's pool is soon idle again: none is left reading the cursor or in its transaction.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const open = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`.execute(ctx.t.db);
      if (open.rows[0]?.n === 0) break;
      expect(Date.now(), 'a transaction stayed open after the download stopped').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const rows = await csvOf(owner, `${RANGE}&sort=start&order=asc`);
    expect(rows.length).toBeGreaterThan(40);
  });
});
