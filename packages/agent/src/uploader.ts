import fs from 'node:fs';
import path from 'node:path';
import { AGENT_SPAN_BATCH_MAX, type AgentSpan } from '@sundial/core/activity';
import { type AgentApi, ApiError } from './api-client.js';
import type { QueuedItem, SpanQueue } from './queue.js';
import type { SentLog } from './sent-log.js';

export type UploadOutcome =
  | { kind: 'done'; accepted: number; duplicates: number; rejected: number }
  /** Nothing more went through this time: try again later (`retryAfterMs` when the server said when). */
  | { kind: 'offline'; accepted: number; message: string; retryAfterMs: number | null }
  /** The device token was refused (revoked): pair again; the queue is kept. */
  | { kind: 'unauthorized'; accepted: number; message: string };

export interface UploaderOptions {
  queue: SpanQueue;
  sentLog: SentLog;
  api: AgentApi;
  stateDir: string;
  batchSize?: number;
  now?: () => Date;
}

/** A batch the server refused for what is in it: some span is bad, the others may be fine. */
const BAD_BATCH = new Set([400, 409, 413, 422]);
const UNAUTHORIZED = new Set([401, 403]);

/**
 * Sends the queue in batches of up to 1,000 spans, oldest first, until it is empty or the server
 * cannot be reached. A span leaves the queue only once the server answered 2xx for it (then it goes
 * to the sent log). A batch refused for its content is split in halves until the bad span is alone;
 * that span is set aside in `rejected.jsonl` with the server's answer, so one bad span never blocks
 * the queue. Lines that no longer read as a span (a damaged disk) are set aside the same way.
 */
export async function uploadQueue(options: UploaderOptions): Promise<UploadOutcome> {
  const batchSize = Math.min(options.batchSize ?? AGENT_SPAN_BATCH_MAX, AGENT_SPAN_BATCH_MAX);
  const now = options.now ?? (() => new Date());
  const totals = { accepted: 0, duplicates: 0, rejected: 0 };

  const setAside = (item: QueuedItem, reason: { status: number | null; code: string | null; message: string }) => {
    const line = {
      at: now().toISOString(),
      ...reason,
      span: item.span ?? undefined,
      raw: item.span ? undefined : item.raw,
    };
    const fd = fs.openSync(path.join(options.stateDir, 'rejected.jsonl'), 'a', 0o600);
    try {
      fs.writeSync(fd, `${JSON.stringify(line)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    options.queue.ack(item.end, 1);
    totals.rejected++;
  };

  const deliver = async (items: QueuedItem[]): Promise<void> => {
    const spans = items.map((item) => item.span as AgentSpan);
    try {
      const result = await options.api.uploadSpans(spans);
      totals.accepted += result.accepted;
      totals.duplicates += result.duplicates;
    } catch (error) {
      if (!(error instanceof ApiError) || !BAD_BATCH.has(error.status)) throw error;
      if (items.length === 1) {
        setAside(items[0] as QueuedItem, { status: error.status, code: error.code, message: error.message });
        return;
      }
      const half = Math.ceil(items.length / 2);
      await deliver(items.slice(0, half));
      await deliver(items.slice(half));
      return;
    }
    options.sentLog.record(spans);
    const last = items[items.length - 1] as QueuedItem;
    options.queue.ack(last.end, items.length);
  };

  try {
    for (let items = options.queue.peek(batchSize); items.length > 0; items = options.queue.peek(batchSize)) {
      // Keep the order of the file: readable runs go up, an unreadable line is set aside in its place.
      let run: QueuedItem[] = [];
      for (const item of items) {
        if (item.span) {
          run.push(item);
          continue;
        }
        if (run.length > 0) await deliver(run);
        run = [];
        setAside(item, { status: null, code: 'unreadable', message: 'This line of the queue is not a span.' });
      }
      if (run.length > 0) await deliver(run);
    }
  } catch (error) {
    if (error instanceof ApiError && UNAUTHORIZED.has(error.status)) {
      return { kind: 'unauthorized', accepted: totals.accepted, message: error.message };
    }
    return {
      kind: 'offline',
      accepted: totals.accepted,
      message: (error as Error).message,
      retryAfterMs: error instanceof ApiError ? error.retryAfterMs : null,
    };
  }
  options.sentLog.prune(now());
  return { kind: 'done', ...totals };
}

/** The wait before the next try after `failures` failed ones in a row: 5 s doubling to 10 minutes, ±20 %. */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(5_000 * 2 ** Math.max(0, failures - 1), 600_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}
