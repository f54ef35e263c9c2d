import type { AgentSpan } from '@sundial/core/activity';
import type { WindowObservation } from './privacy.js';
import { uuidv7 } from './uuid.js';

/** One poll of the computer: what had the focus (after the privacy rules), input and lock. */
export interface Observation {
  /** Null when no window had the focus (an empty desktop): nothing is recorded, never "unknown". */
  window: WindowObservation | null;
  /** Seconds since the last keyboard or pointer input. */
  idleSeconds: number;
  /** The screen is locked or the session switched away; null when the platform cannot tell. */
  locked: boolean | null;
}

export interface MergerOptions {
  /** No input for this long (or locked for this long since the last input) is away time. */
  idleSeconds: number;
  /** A poll later than this after the previous one means the computer slept (or the clock jumped). */
  suspendGapMs?: number;
  newId?: () => string;
}

type AwayReason = NonNullable<AgentSpan['awayReason']>;

interface Draft {
  kind: AgentSpan['kind'];
  app: string | null;
  title: string | null;
  url: string | null;
  awayReason: AwayReason | null;
  startedAt: number;
  endedAt: number;
}

export const DEFAULT_SUSPEND_GAP_MS = 30_000;

/**
 * Turns polls into spans: equal consecutive observations extend one span; a change closes it and
 * opens the next. Away time (no input for `idleSeconds`, or a lock that lasted that long since the
 * last input) is back-dated to the last input, and the active time after that input is cut off; a
 * shorter pause counts as active. A poll that comes more than `suspendGapMs` after the previous one
 * closes everything at the previous poll and records the gap as `suspended`.
 *
 * A span that ended after the last input is held back (it may still be cut when the person turns
 * out to be away) until input after its end confirms it; spans come out in order and never overlap.
 * Each span gets its id once, when it comes out. Pure: time is the caller's `at`.
 */
export class SpanMerger {
  private open: Draft | null = null;
  private held: Draft[] = [];
  private lastTickAt: number | null = null;
  private lastInputAt = Number.NEGATIVE_INFINITY;
  /** The last input before a lock was first seen (input on the lock screen does not end it). */
  private lockedSince: number | null = null;
  /** Where the last span that came out ended: nothing starts before it. */
  private floor = Number.NEGATIVE_INFINITY;
  private readonly thresholdMs: number;
  private readonly suspendGapMs: number;
  private readonly newId: () => string;

  constructor(options: MergerOptions) {
    this.thresholdMs = options.idleSeconds * 1000;
    this.suspendGapMs = options.suspendGapMs ?? DEFAULT_SUSPEND_GAP_MS;
    this.newId = options.newId ?? uuidv7;
  }

  /** The span being recorded now, for the status line. */
  current(): Readonly<Draft> | null {
    return this.open;
  }

  tick(at: number, observation: Observation): AgentSpan[] {
    const out: AgentSpan[] = [];
    if (this.lastTickAt !== null && at < this.lastTickAt) {
      // The clock was set back: end what we have at the last poll and start again from here.
      out.push(...this.close());
    } else if (this.lastTickAt !== null && at - this.lastTickAt > this.suspendGapMs) {
      const slept = this.lastTickAt;
      out.push(...this.close());
      this.emit(
        { kind: 'away', app: null, title: null, url: null, awayReason: 'suspended', startedAt: slept, endedAt: at },
        out,
      );
    }
    // Nothing is recorded from before the agent looked: not before it started, nor into a pause.
    if (this.lastTickAt === null) this.floor = Math.max(this.floor, at);
    this.lastInputAt = at - observation.idleSeconds * 1000;
    if (observation.locked === true) this.lockedSince ??= this.lastInputAt;
    else this.lockedSince = null;

    const idleAway = observation.idleSeconds * 1000 >= this.thresholdMs;
    const lockAway = this.lockedSince !== null && at - this.lockedSince >= this.thresholdMs;
    if (idleAway || lockAway) this.away(at, observation, lockAway, out);
    else this.active(at, observation.window, out);
    this.lastTickAt = at;
    return out;
  }

  /**
   * Ends everything at the last poll (shutdown, pause, a clock jump): held spans come out as they
   * are, the open one ends where it was last seen. The next tick starts afresh.
   */
  close(): AgentSpan[] {
    const out: AgentSpan[] = [];
    for (const span of this.held) this.emit(span, out);
    if (this.open) this.emit(this.open, out);
    this.held = [];
    this.open = null;
    this.lastTickAt = null;
    this.lockedSince = null;
    return out;
  }

  private away(at: number, observation: Observation, lockAway: boolean, out: AgentSpan[]): void {
    if (this.open?.kind === 'away') {
      this.open.endedAt = at;
      return;
    }
    const lastInput =
      lockAway && this.lockedSince !== null ? Math.min(this.lockedSince, this.lastInputAt) : this.lastInputAt;
    const since = Math.max(lastInput, this.floor);
    // Cut the active time at the last input: spans that began after it were not worked.
    for (const span of [...this.held, ...(this.open ? [this.open] : [])]) {
      if (span.startedAt >= since) continue;
      this.emit({ ...span, endedAt: Math.min(span.endedAt, since) }, out);
    }
    this.held = [];
    const startedAt = Math.max(since, this.floor);
    this.open = {
      kind: 'away',
      app: null,
      title: null,
      url: null,
      awayReason: observation.locked === true ? 'locked' : 'idle',
      startedAt,
      endedAt: Math.max(at, startedAt),
    };
  }

  private active(at: number, window: WindowObservation | null, out: AgentSpan[]): void {
    let startedAt = at;
    if (this.open?.kind === 'away') {
      // Input came back at lastInputAt: the away span ends there and the next one starts there.
      const end = Math.min(Math.max(this.lastInputAt, this.open.startedAt), at);
      this.emit({ ...this.open, endedAt: end }, out);
      this.open = null;
      startedAt = Math.max(end, this.floor);
    }
    // Input after a held span's end confirms it was worked (input on a lock screen does not).
    while (this.held[0] && this.held[0].endedAt <= this.workInputAt()) this.emit(this.held.shift() as Draft, out);

    if (this.open && window && sameWindow(this.open, window)) {
      this.open.endedAt = at;
      return;
    }
    if (this.open) {
      this.open.endedAt = at;
      this.hold(this.open, out);
      this.open = null;
    }
    if (window) {
      startedAt = Math.max(startedAt, this.floor);
      this.open = { kind: 'active', ...window, awayReason: null, startedAt, endedAt: startedAt };
    }
  }

  private hold(span: Draft, out: AgentSpan[]): void {
    if (this.held.length === 0 && span.endedAt <= this.workInputAt()) this.emit(span, out);
    else this.held.push(span);
  }

  private workInputAt(): number {
    return this.lockedSince ?? this.lastInputAt;
  }

  private emit(span: Draft, out: AgentSpan[]): void {
    const startedAt = Math.max(span.startedAt, this.floor);
    if (span.endedAt <= startedAt) return;
    out.push({
      id: this.newId(),
      kind: span.kind,
      startedAt: new Date(startedAt).toISOString(),
      endedAt: new Date(span.endedAt).toISOString(),
      app: span.app,
      title: span.title,
      url: span.url,
      awayReason: span.awayReason,
    });
    this.floor = span.endedAt;
  }
}

function sameWindow(span: Draft, window: WindowObservation): boolean {
  return span.app === window.app && span.title === window.title && span.url === window.url;
}
