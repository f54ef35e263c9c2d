import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countQueued, SpanQueue } from './queue.js';
import { makeSpans } from './test/fixtures.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sundial-queue-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('SpanQueue', () => {
  it('answers stored spans in order, in batches, and forgets them only when acknowledged', () => {
    const queue = SpanQueue.open(dir);
    const spans = makeSpans(25);
    queue.append(spans.slice(0, 10));
    queue.append(spans.slice(10));
    const first = queue.peek(10);
    expect(first.map((item) => item.span)).toEqual(spans.slice(0, 10));
    expect(queue.peek(10)).toEqual(first); // nothing is gone before the acknowledgement
    queue.ack((first.at(-1) as { end: number }).end, 10);
    expect(queue.pending()).toBe(15);
    expect(
      SpanQueue.open(dir)
        .peek(100)
        .map((item) => item.span),
    ).toEqual(spans.slice(10));
    expect(countQueued(dir)).toBe(15);
  });

  it('empties its file once everything is acknowledged', () => {
    const queue = SpanQueue.open(dir);
    queue.append(makeSpans(3));
    const items = queue.peek(10);
    queue.ack((items.at(-1) as { end: number }).end, 3);
    expect(fs.statSync(path.join(dir, 'queue.jsonl')).size).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'queue.ack'), 'utf8')).toBe('0');
    queue.append(makeSpans(1, Date.parse('2026-11-30T10:00:00Z')));
    expect(SpanQueue.open(dir).pending()).toBe(1);
  });

  it('skips a line torn by a kill mid-write and appends cleanly after it', () => {
    const spans = makeSpans(3);
    SpanQueue.open(dir).append(spans.slice(0, 2));
    const torn = JSON.stringify(spans[2]).slice(0, 40);
    fs.appendFileSync(path.join(dir, 'queue.jsonl'), torn);
    const reopened = SpanQueue.open(dir);
    expect(reopened.pending()).toBe(2);
    reopened.append(spans.slice(2));
    expect(reopened.peek(10).map((item) => item.span)).toEqual(spans);
  });

  it('starts from the beginning when emptying was interrupted between the file and the offset', () => {
    const queue = SpanQueue.open(dir);
    queue.append(makeSpans(2));
    fs.writeFileSync(path.join(dir, 'queue.ack'), '999999');
    fs.truncateSync(path.join(dir, 'queue.jsonl'), 0);
    const reopened = SpanQueue.open(dir);
    expect(reopened.pending()).toBe(0);
    reopened.append(makeSpans(1));
    expect(reopened.peek(10)).toHaveLength(1);
  });

  it('hands over a line that is not a span instead of failing on it', () => {
    const queue = SpanQueue.open(dir);
    queue.append(makeSpans(1));
    fs.appendFileSync(path.join(dir, 'queue.jsonl'), '{"not":"a span"}\n');
    queue.append(makeSpans(1, Date.parse('2026-11-30T11:00:00Z')));
    const items = SpanQueue.open(dir).peek(10);
    expect(items.map((item) => item.span === null)).toEqual([false, true, false]);
    expect(items[1]?.raw).toBe('{"not":"a span"}');
  });

  it('reads a long queue across its read chunks without cutting a character in two', () => {
    const queue = SpanQueue.open(dir);
    const spans = makeSpans(6000); // ~1.6 MB: more than one 1 MiB chunk
    queue.append(spans);
    let seen = 0;
    for (let items = queue.peek(1000); items.length > 0; items = queue.peek(1000)) {
      expect(items.map((item) => item.span)).toEqual(spans.slice(seen, seen + items.length));
      seen += items.length;
      queue.ack((items.at(-1) as { end: number }).end, items.length);
    }
    expect(seen).toBe(6000);
  });
});
