/**
 * The Timeline's drawing, kept pure: spans become bands on a day's axis, and spans narrower than a
 * pixel merge with their neighbours, so a day of thousands of spans draws as at most a few hundred
 * boxes whatever its length.
 */

export interface SpanLike {
  startedAt: string;
  endedAt: string;
  app: string | null;
}

/** One box on a lane: from..to (ms), what it shows, and the spans it stands for. */
export interface Band<T> {
  startMs: number;
  endMs: number;
  /** The application with the most time in the band. */
  app: string;
  spans: T[];
}

const NO_APP = '';

/**
 * The bands of `spans` (sorted by start) on an axis `startMs..endMs` drawn `widthPx` wide: a span
 * joins the band before it when the gap is under a pixel and it is the same application or that band
 * is still narrower than `minPx` (so short spans make bands of about `minPx`, never one long band). Spans outside the axis are left out and those across an end
 * are cut at it.
 */
export function bandsOf<T extends SpanLike>(
  spans: readonly T[],
  axis: { startMs: number; endMs: number; widthPx: number },
  minPx = 2,
): Band<T>[] {
  const msPerPx = (axis.endMs - axis.startMs) / Math.max(1, axis.widthPx);
  const bands: Band<T>[] = [];
  let current: (Band<T> & { seconds: Map<string, number> }) | undefined;
  const close = () => {
    if (!current) return;
    let best = NO_APP;
    let most = -1;
    for (const [app, seconds] of current.seconds) {
      if (seconds > most) [best, most] = [app, seconds];
    }
    bands.push({ startMs: current.startMs, endMs: current.endMs, app: best, spans: current.spans });
    current = undefined;
  };
  for (const span of spans) {
    const start = Math.max(Date.parse(span.startedAt), axis.startMs);
    const end = Math.min(Date.parse(span.endedAt), axis.endMs);
    if (end <= start) continue;
    const app = span.app ?? NO_APP;
    if (current) {
      const gap = start - current.endMs;
      const narrow = (current.endMs - current.startMs) / msPerPx < minPx;
      const joins = gap < msPerPx && (narrow || current.app === app);
      if (!joins) close();
    }
    if (!current) current = { startMs: start, endMs: end, app, spans: [], seconds: new Map() };
    current.endMs = Math.max(current.endMs, end);
    current.spans.push(span);
    current.seconds.set(app, (current.seconds.get(app) ?? 0) + (end - start));
  }
  close();
  return bands;
}

/** The axis of a day: the hours that hold anything (at least `minHours`), else the whole day. */
export function axisOf(
  day: { startMs: number; endMs: number },
  intervals: readonly { startMs: number; endMs: number }[],
  minHours = 4,
): { startMs: number; endMs: number } {
  const HOUR = 3_600_000;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { startMs, endMs } of intervals) {
    first = Math.min(first, Math.max(startMs, day.startMs));
    last = Math.max(last, Math.min(endMs, day.endMs));
  }
  if (!(last > first)) return day;
  let startMs = day.startMs + Math.floor((first - day.startMs) / HOUR) * HOUR;
  let endMs = day.startMs + Math.ceil((last - day.startMs) / HOUR) * HOUR;
  while (endMs - startMs < minHours * HOUR) {
    if (endMs < day.endMs) endMs += HOUR;
    if (endMs - startMs < minHours * HOUR && startMs > day.startMs) startMs -= HOUR;
    if (startMs <= day.startMs && endMs >= day.endMs) break;
  }
  return { startMs: Math.max(startMs, day.startMs), endMs: Math.min(endMs, day.endMs) };
}

const PALETTE = [
  '#228be6',
  '#40c057',
  '#fab005',
  '#7950f2',
  '#fd7e14',
  '#15aabf',
  '#e64980',
  '#82c91e',
  '#be4bdb',
  '#12b886',
  '#4c6ef5',
  '#fa5252',
];

/** An application's colour: the same name always gets the same one. */
export function appColor(app: string): string {
  if (app === 'excluded' || app === NO_APP) return '#adb5bd';
  let hash = 0;
  for (let i = 0; i < app.length; i++) hash = (hash * 31 + app.charCodeAt(i)) | 0;
  return PALETTE[Math.abs(hash) % PALETTE.length] as string;
}
