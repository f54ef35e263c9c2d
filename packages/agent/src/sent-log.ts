import fs from 'node:fs';
import path from 'node:path';
import type { AgentSpan } from '@sundial/core/activity';

/** How long the computer keeps its own copy of what it sent, for `sundial-agent uploaded`. */
export const SENT_LOG_DAYS = 7;

/** A day on this computer's calendar, YYYY-MM-DD. */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * What the server received, one file a day (the day each span started, on this computer's clock):
 * `sent/YYYY-MM-DD.jsonl`. Written after the server's 2xx and before the queue's acknowledgement, so
 * a span the server has is always here; a crash in between may write it twice, and reading keeps
 * each id once. Files older than seven days are deleted.
 */
export class SentLog {
  private readonly dir: string;

  constructor(stateDir: string) {
    this.dir = path.join(stateDir, 'sent');
  }

  record(spans: readonly AgentSpan[]): void {
    if (spans.length === 0) return;
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const byDay = new Map<string, AgentSpan[]>();
    for (const span of spans) {
      const day = localDay(new Date(span.startedAt));
      const list = byDay.get(day);
      if (list) list.push(span);
      else byDay.set(day, [span]);
    }
    for (const [day, daySpans] of byDay) {
      const fd = fs.openSync(path.join(this.dir, `${day}.jsonl`), 'a', 0o600);
      try {
        fs.writeSync(fd, daySpans.map((span) => `${JSON.stringify(span)}\n`).join(''));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    }
  }

  /** The spans of one day that reached the server, each once, in time order. */
  read(day: string): AgentSpan[] {
    let text: string;
    try {
      text = fs.readFileSync(path.join(this.dir, `${day}.jsonl`), 'utf8');
    } catch {
      return [];
    }
    const byId = new Map<string, AgentSpan>();
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const span = JSON.parse(line) as AgentSpan;
        byId.set(span.id, span);
      } catch {
        // A line torn by a kill mid-write: its span is sent again and written again.
      }
    }
    return [...byId.values()].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  }

  /** Deletes the days older than {@link SENT_LOG_DAYS}. */
  prune(now: Date): void {
    const oldest = new Date(now);
    oldest.setDate(oldest.getDate() - SENT_LOG_DAYS);
    const keepFrom = localDay(oldest);
    let files: string[];
    try {
      files = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const file of files) {
      const day = /^(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(file)?.[1];
      if (day && day < keepFrom) fs.rmSync(path.join(this.dir, file), { force: true });
    }
  }
}
