import type { AgentSpan } from '@sundial/core/activity';
import { uuidv7 } from '../uuid.js';

/** `count` active spans of 9 s, 10 s apart, with non-ASCII titles (multi-byte UTF-8 in the queue). */
export function makeSpans(count: number, from = Date.parse('2026-11-30T08:00:00Z'), app = 'Editor'): AgentSpan[] {
  return Array.from({ length: count }, (_, i) => ({
    id: uuidv7(from + i * 10_000),
    kind: 'active' as const,
    startedAt: new Date(from + i * 10_000).toISOString(),
    endedAt: new Date(from + i * 10_000 + 9_000).toISOString(),
    app,
    title: `Fichier ${i} — ünïcödé`,
    url: null,
    awayReason: null,
  }));
}
