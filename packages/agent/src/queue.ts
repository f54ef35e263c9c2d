import fs from 'node:fs';
import path from 'node:path';
import { type AgentSpan, agentSpan } from '@sundial/core/activity';

/** One line of the queue: a span (or a line that no longer reads as one) and where its line ends. */
export interface QueuedItem {
  span: AgentSpan | null;
  raw: string;
  end: number;
}

const READ_CHUNK = 1 << 20;

/**
 * The durable queue of closed spans waiting for upload: `queue.jsonl`, one span a line, appended and
 * fsynced, and `queue.ack`, the byte offset up to which the server has answered 2xx (written to a
 * new file, fsynced and renamed over the old one, so it is always one whole number).
 *
 * Killed mid-write, the file ends in a torn line: `open` cuts it off (that span was never stored).
 * Killed between an upload and its acknowledgement, the same spans go again with the same ids, and
 * the server keeps each id once. Once everything is acknowledged the file is emptied (the file
 * first, then the offset: an offset past the end of the file can only be that step interrupted).
 * One process (`sundial-agent run`, which holds the state folder's lock) writes it.
 */
export class SpanQueue {
  private readonly file: string;
  private readonly ackFile: string;
  private acked: number;
  private size: number;
  private count: number;

  private constructor(dir: string) {
    this.file = path.join(dir, 'queue.jsonl');
    this.ackFile = path.join(dir, 'queue.ack');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.size = repairTornTail(this.file);
    this.acked = readAck(this.ackFile);
    if (this.acked > this.size) this.writeAck(0);
    this.count = countLines(this.file, this.acked, this.size);
  }

  static open(dir: string): SpanQueue {
    return new SpanQueue(dir);
  }

  /** Spans stored and not yet acknowledged by the server. */
  pending(): number {
    return this.count;
  }

  /** Stores spans durably (fsync) before answering. */
  append(spans: readonly AgentSpan[]): void {
    if (spans.length === 0) return;
    const text = spans.map((span) => `${JSON.stringify(span)}\n`).join('');
    const fd = fs.openSync(this.file, 'a', 0o600);
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this.size += Buffer.byteLength(text);
    this.count += spans.length;
  }

  /** Up to `max` lines after the acknowledged offset, oldest first. */
  peek(max: number): QueuedItem[] {
    const items: QueuedItem[] = [];
    if (this.acked >= this.size) return items;
    const fd = fs.openSync(this.file, 'r');
    try {
      // Lines are cut on bytes (a newline byte never occurs inside a UTF-8 character), then decoded.
      let offset = this.acked;
      let carry = Buffer.alloc(0);
      let carryStart = offset;
      while (items.length < max && offset < this.size) {
        const chunk = Buffer.alloc(Math.min(READ_CHUNK, this.size - offset));
        const read = fs.readSync(fd, chunk, 0, chunk.length, offset);
        if (read === 0) break;
        offset += read;
        const bytes = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
        let lineStart = 0;
        for (
          let newline = bytes.indexOf(0x0a);
          newline >= 0 && items.length < max;
          newline = bytes.indexOf(0x0a, lineStart)
        ) {
          const raw = bytes.toString('utf8', lineStart, newline);
          lineStart = newline + 1;
          items.push({ span: parseSpan(raw), raw, end: carryStart + lineStart });
        }
        carry = bytes.subarray(lineStart);
        carryStart += lineStart;
      }
    } finally {
      fs.closeSync(fd);
    }
    return items;
  }

  /** Marks everything up to `end` (an item's `end`) as received by the server. */
  ack(end: number, items: number): void {
    if (end <= this.acked) return;
    this.count = Math.max(0, this.count - items);
    if (end >= this.size) {
      fs.truncateSync(this.file, 0);
      fsyncPath(this.file);
      this.size = 0;
      this.count = 0;
      this.writeAck(0);
      return;
    }
    this.writeAck(end);
  }

  private writeAck(offset: number): void {
    const temporary = `${this.ackFile}.tmp`;
    const fd = fs.openSync(temporary, 'w', 0o600);
    try {
      fs.writeSync(fd, String(offset));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, this.ackFile);
    this.acked = offset;
  }
}

/** How many spans wait in a state folder, for `sundial-agent status` (reads only). */
export function countQueued(dir: string): number {
  const file = path.join(dir, 'queue.jsonl');
  if (!fs.existsSync(file)) return 0;
  const size = fs.statSync(file).size;
  return countLines(file, Math.min(readAck(path.join(dir, 'queue.ack')), size), size);
}

function parseSpan(raw: string): AgentSpan | null {
  try {
    const parsed = agentSpan.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Cuts a last line left without its newline by a kill mid-write; answers the file's size. */
function repairTornTail(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const size = fs.statSync(file).size;
  if (size === 0) return 0;
  const fd = fs.openSync(file, 'r+');
  try {
    const tail = Buffer.alloc(Math.min(size, READ_CHUNK));
    let end = size;
    // Walk back to the last newline (a torn line is at most one span long, far below a chunk).
    while (end > 0) {
      const from = Math.max(0, end - tail.length);
      const read = fs.readSync(fd, tail, 0, end - from, from);
      const newline = tail.subarray(0, read).lastIndexOf(0x0a);
      if (newline >= 0) {
        end = from + newline + 1;
        break;
      }
      end = from;
    }
    if (end < size) {
      fs.ftruncateSync(fd, end);
      fs.fsyncSync(fd);
    }
    return end;
  } finally {
    fs.closeSync(fd);
  }
}

function readAck(file: string): number {
  try {
    const value = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

function countLines(file: string, from: number, to: number): number {
  if (to <= from) return 0;
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(READ_CHUNK);
    let lines = 0;
    for (let offset = from; offset < to; ) {
      const read = fs.readSync(fd, buffer, 0, Math.min(READ_CHUNK, to - offset), offset);
      if (read === 0) break;
      for (let i = 0; i < read; i++) if (buffer[i] === 0x0a) lines++;
      offset += read;
    }
    return lines;
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncPath(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
