import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApi } from './api-client.js';
import { pairDevice } from './pair.js';
import { SpanQueue } from './queue.js';
import { localDay, SentLog } from './sent-log.js';
import { makeSpans } from './test/fixtures.js';
import { type Receiver, startReceiver } from './test/receiver.js';
import { backoffMs, uploadQueue } from './uploader.js';

let dir: string;
let receiver: Receiver;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-upload-'));
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const upload = (token = receiver.token) =>
  uploadQueue({
    queue: SpanQueue.open(dir),
    sentLog: new SentLog(dir),
    api: createApi({ server: receiver.url, token, userAgent: 'test' }),
    stateDir: dir,
  });

describe('uploading the queue', () => {
  it('sends it in batches of up to 1,000, keeps what was sent for the person, and empties the queue', async () => {
    const spans = makeSpans(2500);
    SpanQueue.open(dir).append(spans);
    expect(await upload()).toEqual({ kind: 'done', accepted: 2500, duplicates: 0, rejected: 0 });
    expect(receiver.uploads.map((u) => u.ids.length)).toEqual([1000, 1000, 500]);
    expect([...receiver.stored.keys()]).toEqual(spans.map((span) => span.id));
    expect(SpanQueue.open(dir).pending()).toBe(0);
    expect(new SentLog(dir).read(localDay(new Date(spans[0]?.startedAt ?? '')))).toHaveLength(2500);
  });

  it('keeps the queue while the server fails, and sends it once when it is back', async () => {
    const spans = makeSpans(1200);
    SpanQueue.open(dir).append(spans);
    receiver.failNext = 2;
    expect(await upload()).toMatchObject({ kind: 'offline', accepted: 0, message: 'Restarting.' });
    expect(await upload()).toMatchObject({ kind: 'offline', accepted: 0 });
    expect(SpanQueue.open(dir).pending()).toBe(1200);
    expect(await upload()).toEqual({ kind: 'done', accepted: 1200, duplicates: 0, rejected: 0 });
    expect(receiver.stored.size).toBe(1200);
    const answered = receiver.uploads.filter((u) => u.answered).flatMap((u) => u.ids);
    expect(new Set(answered).size).toBe(answered.length);
  });

  it('sends the same ids again after a crash between the answer and the acknowledgement, and the server keeps them once', async () => {
    const spans = makeSpans(30);
    SpanQueue.open(dir).append(spans);
    await upload();
    // As if the agent had died before writing its offset: the same spans are in the queue again.
    SpanQueue.open(dir).append(spans);
    expect(await upload()).toEqual({ kind: 'done', accepted: 0, duplicates: 30, rejected: 0 });
    expect(receiver.stored.size).toBe(30);
  });

  it('sets a refused span aside in rejected.jsonl and sends the rest of its batch', async () => {
    const spans = [
      ...makeSpans(6),
      ...makeSpans(1, Date.parse('2026-11-30T12:00:00Z'), 'poison'),
      ...makeSpans(5, Date.parse('2026-11-30T13:00:00Z')),
    ];
    receiver.poisonApp = 'poison';
    SpanQueue.open(dir).append(spans);
    expect(await upload()).toEqual({ kind: 'done', accepted: 11, duplicates: 0, rejected: 1 });
    const rejected = fs
      .readFileSync(path.join(dir, 'rejected.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rejected).toMatchObject([{ status: 422, code: 'span_in_future', span: { app: 'poison' } }]);
    expect(SpanQueue.open(dir).pending()).toBe(0);
  });

  it('keeps the queue when the device token is refused', async () => {
    SpanQueue.open(dir).append(makeSpans(3));
    expect(await upload('sdd_revoked')).toMatchObject({ kind: 'unauthorized' });
    expect(SpanQueue.open(dir).pending()).toBe(3);
  });

  it('waits 5 s after a failure, doubling up to 10 minutes', () => {
    expect([1, 2, 3, 10, 50].map((n) => backoffMs(n, () => 0.5))).toEqual([5000, 10000, 20000, 600000, 600000]);
  });
});

describe('pairing', () => {
  it('polls at the server interval, slows down when told, and answers the device token', async () => {
    const waits: number[] = [];
    const lines: string[] = [];
    const pairing = await pairDevice({
      server: receiver.url,
      api: createApi({ server: receiver.url, userAgent: 'test' }),
      agentVersion: '0.1.0',
      name: 'laptop',
      print: (line) => lines.push(line),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(pairing).toMatchObject({ server: receiver.url, token: receiver.token, deviceId: 'd1', workspaceId: 'w1' });
    expect(waits).toEqual([1000, 6000, 6000]);
    expect(lines.join('\n')).toContain('BCDF-GHJK');
    expect(lines.join('\n')).toContain(`${receiver.url}/devices?code=BCDF-GHJK`);
  });
});
