import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBulkEntries, joinWorkspace, type SignedUp, signUp, useTestApp } from '../../../test/harness.js';

/**
 * Limits on downloads (issue 29), on a real server: at most EXPORTS_PER_USER (2) downloads under
 * way per user and EXPORTS_PER_WORKSPACE (3) per workspace, then 429 too_many_exports with
 * Retry-After, a place freed once its download is read or cut off; a reader that takes nothing for
 * EXPORT_WRITE_TIMEOUT_SECONDS (5) is cut off. And /readyz answers 503 when the database does not
 * answer within READY_TIMEOUT_MS.
 */
const ctx = useTestApp({
  EXPORT_JOB_MIN_ROWS: '1000000',
  EXPORTS_PER_USER: '2',
  EXPORTS_PER_WORKSPACE: '3',
  EXPORT_WRITE_TIMEOUT_SECONDS: '5',
  READY_TIMEOUT_MS: '300',
});
let owner: SignedUp;
let admin: SignedUp;
let port: number;
const sockets: net.Socket[] = [];
const RANGE = 'preset=custom&from=2026-11-01&to=2026-11-30&timeZone=UTC';

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  admin = await joinWorkspace(ctx.t, owner.workspaceId, 'admin');
  // ~13 MB of CSV: far more than the sockets' buffers hold.
  await insertBulkEntries(ctx.t.db, {
    workspaceId: owner.workspaceId,
    userId: owner.userId,
    from: '2026-11-02T00:00:00Z',
    count: 8_000,
    everySeconds: 60,
    seconds: 30,
    note: 'x'.repeat(1_500),
  });
  await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.t.app.server.address() as AddressInfo).port;
}, 60_000);
afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

const exportPath = () => `/api/v1/workspaces/${owner.workspaceId}/reports/export?format=csv&kind=detailed&${RANGE}`;

/**
 * A download whose reader never reads (so the kernel does not grow its receive window): `rest()`
 * later reads what is there to the end and answers the status, the announced size and the bytes
 * that came (headers included).
 */
function stalledDownload(cookie: string) {
  const socket = net.connect({ host: '127.0.0.1', port });
  sockets.push(socket);
  socket.pause();
  socket.on('error', () => undefined);
  socket.once('connect', () =>
    // Connection: close, so the server hangs up once the answer is sent (not after the keep-alive's 72 s).
    socket.write(
      `GET ${exportPath()} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
    ),
  );
  return {
    rest: () =>
      new Promise<{ status: number; size: number; received: number }>((done) => {
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.once('close', () => {
          const all = Buffer.concat(chunks);
          const head = all.subarray(0, 2048).toString('latin1');
          done({
            status: Number(head.split(' ')[1]),
            size: Number(/content-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN),
            received: all.length,
          });
        });
        socket.resume();
      }),
  };
}

const download = (who: SignedUp) =>
  fetch(`http://127.0.0.1:${port}${exportPath()}`, { headers: { cookie: who.cookie } });

describe('downloads under way', () => {
  it('are capped per user and per workspace with 429 and Retry-After, and free their place when done', async () => {
    // Two of the owner's and one of another admin's, all under way (being made, then sent).
    const stalling = [stalledDownload(owner.cookie), stalledDownload(owner.cookie), stalledDownload(admin.cookie)];
    await new Promise((resolve) => setTimeout(resolve, 500));

    const third = await download(owner);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    const refusal = (await third.json()) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe('too_many_exports');
    expect(refusal.error.message).toMatch(/You already have 2 downloads under way/);
    // The other admin has one: a second would fit their own cap, not the workspace's (3).
    const fourth = await download(admin);
    expect(fourth.status).toBe(429);
    expect(((await fourth.json()) as { error: { message: string } }).error.message).toMatch(
      /This workspace already has 3 downloads under way/,
    );

    // Read at last (whole, or cut off by the write timeout): then their places are free.
    for (const stalled of stalling) {
      const { status, size } = await stalled.rest();
      expect(status).toBe(200);
      expect(size).toBeGreaterThan(8_000 * 1_500);
    }
    // A download read to its end.
    const again = await download(owner);
    expect(again.status).toBe(200);
    const bytes = (await again.arrayBuffer()).byteLength;
    expect(bytes).toBe(Number(again.headers.get('content-length') ?? bytes));
    expect(bytes).toBeGreaterThan(8_000 * 1_500);
  }, 90_000);
});

describe('a reader that takes nothing', () => {
  it('is cut off after EXPORT_WRITE_TIMEOUT_SECONDS, its place freed', async () => {
    // The server's end of the connection, to see its writes stop and the timeout close it.
    const accepted: net.Socket[] = [];
    const onConnection = (socket: net.Socket) => accepted.push(socket);
    ctx.t.app.server.on('connection', onConnection);
    // Paused before its first byte, the client's receive window never grows: the server's socket
    // fills after a few MB of the ~13 MB file and then makes no progress.
    const stalled = stalledDownload(owner.cookie);
    const until = async (what: string, ms: number, done: () => boolean) => {
      const by = Date.now() + ms;
      while (!done()) {
        if (Date.now() > by) throw new Error(`${what} did not happen within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // The file is made (spooled) first, then sent: wait for the sending, however long making it takes.
    await until('the sending', 60_000, () => accepted.some((socket) => socket.bytesWritten > 1_000_000));
    const sending = accepted.find((socket) => socket.bytesWritten > 1_000_000) as net.Socket;
    const began = Date.now();
    await until('the cut', 30_000, () => sending.destroyed);
    ctx.t.app.server.off('connection', onConnection);
    // No progress for 5 s (the setting), then cut: not before, and not long after.
    expect(Date.now() - began).toBeGreaterThanOrEqual(4_000);
    const { status, size, received } = await stalled.rest();
    expect(status).toBe(200);
    expect(size).toBeGreaterThan(8_000 * 1_500);
    expect(received).toBeLessThan(size);
    // Its place is free again: two more downloads of the owner's are taken.
    const [a, b] = await Promise.all([download(owner), download(owner)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
  }, 120_000);
});

describe('/readyz', () => {
  it('answers 503 at once while the database does not answer, and 200 again after', async () => {
    // Every connection held: PGlite's one, or each of the PostgreSQL pool's ten.
    const holders = process.env.DATABASE_URL ? 10 : 1;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = Array.from({ length: holders }, () => ctx.t.db.connection().execute(() => released));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const began = Date.now();
    const stuck = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(10_000) });
    expect(stuck.status).toBe(503);
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(((await stuck.json()) as { error: { code: string } }).error.code).toBe('not_ready');
    release();
    await Promise.all(held);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
  });
});
