import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBulkEntries, joinWorkspace, type SignedUp, signUp, useTestApp } from '../../../test/harness.js';

/**
 * Downloads whose readers stop reading (issue 29): ten Detailed CSVs of ~13 MB each, opened on a
 * real server by clients that read the first bytes and then never again, so the server's socket
 * buffers fill and its writes wait. No database connection may wait with them: meanwhile another
 * user's request, /readyz and a job created afterwards all answer promptly, on PGlite (one
 * connection) and on PostgreSQL (ten stalled downloads were the whole pool).
 */
const ctx = useTestApp({
  EXPORT_JOB_MIN_ROWS: '1000000',
  EXPORTS_PER_WORKSPACE: '20',
  EXPORTS_PER_PROCESS: '20',
  JOBS_POLL_MS: '100',
});
const STALLED = 10;
const ENTRIES = 8_000;
const RANGE = 'preset=custom&from=2026-11-01&to=2026-11-30&timeZone=UTC';
let owner: SignedUp;
let admins: SignedUp[];
let other: SignedUp;
let port: number;
const sockets: net.Socket[] = [];

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  admins = [owner];
  for (let i = 0; i < STALLED / 2 - 1; i++) admins.push(await joinWorkspace(ctx.t, owner.workspaceId, 'admin'));
  other = await signUp(ctx.t.app);
  await insertBulkEntries(ctx.t.db, {
    workspaceId: owner.workspaceId,
    userId: owner.userId,
    from: '2026-11-02T00:00:00Z',
    count: ENTRIES,
    everySeconds: 60,
    seconds: 30,
    note: 'x'.repeat(1_500),
  });
  await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.t.app.server.address() as AddressInfo).port;
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
});

/**
 * A raw HTTP client that reads the answer's first bytes, then stops reading for good: resolves
 * once those bytes came, or after `patienceMs` without any (a download queued behind others).
 */
function stalledDownload(path: string, cookie: string, patienceMs: number): Promise<{ received: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    sockets.push(socket);
    const seen = { received: 0 };
    const timer = setTimeout(() => resolve(seen), patienceMs);
    socket.on('error', reject);
    socket.once('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\n\r\n`),
    );
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      seen.received = chunk.length;
      clearTimeout(timer);
      resolve(seen);
    });
  });
}

/** `work`'s answer within `ms`, or a failure naming what did not answer. */
async function within<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const get = (path: string, cookie?: string) =>
  fetch(`http://127.0.0.1:${port}${path}`, { headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(30_000) });

describe('downloads nobody reads', () => {
  it('hold no database connection: other users, /readyz and new jobs go on', async () => {
    const path = `/api/v1/workspaces/${owner.workspaceId}/reports/export?format=csv&kind=detailed&${RANGE}`;
    const started = await Promise.all(
      Array.from({ length: STALLED }, (_, i) =>
        stalledDownload(path, (admins[i % admins.length] as SignedUp).cookie, 15_000),
      ),
    );
    // Each download began: its file is far larger than what the sockets' buffers hold.
    expect(started.filter((s) => s.received > 0).length).toBeGreaterThan(0);

    const began = Date.now();
    const ready = await within(3_000, '/readyz', () => get('/readyz'));
    expect(ready.status).toBe(200);
    const me = await within(3_000, "another user's request", () => get('/api/v1/me', other.cookie));
    expect(me.status).toBe(200);
    const projects = await within(3_000, "another user's projects", () =>
      get(`/api/v1/workspaces/${other.workspaceId}/projects`, other.cookie),
    );
    expect(projects.status).toBe(200);

    // A job created now runs: the budget check every time entry's write queues.
    const entry = await within(3_000, "another user's new time entry", async () => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/workspaces/${other.workspaceId}/time-entries`, {
        method: 'POST',
        headers: { cookie: other.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ start: '2026-11-20T09:00:00Z', end: '2026-11-20T10:00:00Z' }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      return (await response.json()) as { id: string };
    });
    await within(10_000, 'the job queued after the downloads', async () => {
      for (;;) {
        const jobs = await ctx.t.db
          .selectFrom('jobs')
          .select(['state', 'payload'])
          .where('name', '=', 'budgets.evaluate')
          .execute();
        const job = jobs.find((j) => JSON.stringify(j.payload).includes(entry.id));
        if (job?.state === 'done') return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    // eslint-disable-next-line no-console
    console.log(`answered in ${Date.now() - began} ms while ${STALLED} downloads waited on their readers`);
  }, 90_000);
});
