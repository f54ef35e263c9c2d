/**
 * A break put into an entry after the fact (Computer time's away periods, issue 35): the part of
 * [start, end) inside the entry (a running one up to now, and before its open break) joins the
 * entry's closed breaks, which stay apart from one another (overlapping or touching ones become
 * one). Whole seconds, as entries are.
 */
export interface BreakSpan {
  startMs: number;
  endMs: number;
}

const second = (ms: number) => Math.floor(ms / 1000) * 1000;

/** Spans as one sorted list without overlaps: overlapping or touching ones joined. */
function union(spans: readonly BreakSpan[]): BreakSpan[] {
  const merged: BreakSpan[] = [];
  for (const b of [...spans].sort((x, y) => x.startMs - y.startMs)) {
    const last = merged.at(-1);
    if (last && b.startMs <= last.endMs) last.endMs = Math.max(last.endMs, b.endMs);
    else merged.push({ ...b });
  }
  return merged;
}

const covered = (spans: readonly BreakSpan[]) => spans.reduce((sum, b) => sum + (b.endMs - b.startMs), 0);

/**
 * The entry's closed breaks with [startMs, endMs) added, or null when that changes nothing (no
 * overlap with the entry's time, or already a break). An open break (a paused timer) is left as it
 * is: the new break stops where it starts.
 */
export function withBreak(
  entry: { startMs: number; endMs: number | null; breaks: readonly { startMs: number; endMs: number | null }[] },
  range: BreakSpan,
  nowMs: number,
): BreakSpan[] | null {
  const open = entry.breaks.find((b) => b.endMs === null);
  let hi = second(Math.min(range.endMs, entry.endMs ?? nowMs));
  if (open) hi = Math.min(hi, open.startMs);
  const lo = second(Math.max(range.startMs, entry.startMs));
  if (hi <= lo) return null;
  const closed = entry.breaks.flatMap((b) => (b.endMs === null ? [] : [{ startMs: b.startMs, endMs: b.endMs }]));
  const merged = union([...closed, { startMs: lo, endMs: hi }]);
  return covered(merged) === covered(union(closed)) ? null : merged;
}
