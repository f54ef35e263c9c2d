import { agentSpan } from '@sundial/core/activity';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Observation, SpanMerger } from './spans.js';

const T0 = Date.parse('2026-11-30T09:00:00.000Z');
const at = (seconds: number) => T0 + seconds * 1000;
const iso = (seconds: number) => new Date(at(seconds)).toISOString();

function seen(app: string | null, idleSeconds = 0, locked: boolean | null = null): Observation {
  return { window: app === null ? null : { app, title: `${app} title`, url: null }, idleSeconds, locked };
}

/** Feeds `[second, observation]` pairs, then closes; answers the spans as [kind/app/reason, start, end]. */
function run(ticks: [number, Observation][], idleSeconds = 3) {
  const merger = new SpanMerger({ idleSeconds });
  const spans = ticks.flatMap(([second, observation]) => merger.tick(at(second), observation));
  spans.push(...merger.close());
  for (const span of spans) agentSpan.parse(span);
  return spans.map((span) => [
    span.kind === 'away' ? `away:${span.awayReason}` : span.app,
    span.startedAt,
    span.endedAt,
  ]);
}

const each = (from: number, to: number, observation: (second: number) => Observation) =>
  Array.from({ length: to - from + 1 }, (_, i): [number, Observation] => [from + i, observation(from + i)]);

describe('SpanMerger', () => {
  it('merges equal consecutive observations into one span', () => {
    expect(run(each(0, 9, () => seen('Editor')))).toEqual([['Editor', iso(0), iso(9)]]);
  });

  it('closes a span when the focus changes and opens the next at that poll', () => {
    expect(run([...each(0, 4, () => seen('Editor')), ...each(5, 9, () => seen('Browser'))])).toEqual([
      ['Editor', iso(0), iso(5)],
      ['Browser', iso(5), iso(9)],
    ]);
  });

  it('back-dates away time to the last input and cuts the active span there', () => {
    const ticks = [
      ...each(0, 2, () => seen('Editor')),
      ...each(3, 7, (s) => seen('Editor', s - 2)), // no input after second 2
      ...each(8, 10, () => seen('Editor')), // input again at second 8
    ];
    expect(run(ticks)).toEqual([
      ['Editor', iso(0), iso(2)],
      ['away:idle', iso(2), iso(8)],
      ['Editor', iso(8), iso(10)],
    ]);
  });

  it('counts a pause shorter than the threshold as active', () => {
    const ticks = [
      ...each(0, 2, () => seen('Editor')),
      ...each(3, 4, (s) => seen('Editor', s - 2)),
      [5, seen('Editor')],
    ];
    expect(run(ticks as [number, Observation][])).toEqual([['Editor', iso(0), iso(5)]]);
  });

  it('drops what changed on screen after the last input once the person turns out to be away', () => {
    const ticks = [
      ...each(0, 2, () => seen('Editor')),
      [3, seen('Chat', 1)], // a window took the focus by itself
      [4, seen('Chat', 2)],
      [5, seen('Chat', 3)],
      [6, seen('Chat', 4)],
    ] as [number, Observation][];
    expect(run(ticks)).toEqual([
      ['Editor', iso(0), iso(2)],
      ['away:idle', iso(2), iso(6)],
    ]);
  });

  it('keeps what changed on screen during a short pause once input confirms it', () => {
    const ticks = [...each(0, 2, () => seen('Editor')), [3, seen('Chat', 1)], [4, seen('Chat', 0)]] as [
      number,
      Observation,
    ][];
    expect(run(ticks)).toEqual([
      ['Editor', iso(0), iso(3)],
      ['Chat', iso(3), iso(4)],
    ]);
  });

  it('does not count a quick lock as away time', () => {
    const ticks = [
      ...each(0, 2, () => seen('Editor')),
      ...each(3, 4, () => seen('Editor', 0, true)),
      [5, seen('Editor')],
    ];
    expect(run(ticks as [number, Observation][])).toEqual([['Editor', iso(0), iso(5)]]);
  });

  it('records a lock that lasts the threshold as locked away time from the last input before it', () => {
    const ticks = [
      ...each(0, 2, () => seen('Editor')),
      // Locked from second 3 (last input at 2); then someone wiggles the mouse on the lock screen.
      [3, seen('Lock screen', 1, true)],
      ...each(4, 8, () => seen('Lock screen', 0, true)),
      ...each(9, 10, () => seen('Editor', 0, false)),
    ];
    expect(run(ticks as [number, Observation][])).toEqual([
      ['Editor', iso(0), iso(2)],
      ['away:locked', iso(2), iso(9)],
      ['Editor', iso(9), iso(10)],
    ]);
  });

  it('closes at the last poll before a suspend and records the gap as suspended', () => {
    const ticks = [...each(0, 5, () => seen('Editor')), ...each(65, 67, () => seen('Editor'))];
    expect(run(ticks)).toEqual([
      ['Editor', iso(0), iso(5)],
      ['away:suspended', iso(5), iso(65)],
      ['Editor', iso(65), iso(67)],
    ]);
  });

  it('records nothing while no window has the focus', () => {
    const ticks = [
      ...each(0, 3, () => seen('Editor')),
      ...each(4, 5, () => seen(null)),
      ...each(6, 8, () => seen('Browser')),
    ];
    expect(run(ticks)).toEqual([
      ['Editor', iso(0), iso(4)],
      ['Browser', iso(6), iso(8)],
    ]);
  });

  it('never overlaps an earlier span when the clock is set back', () => {
    const ticks = [...each(0, 5, () => seen('Editor')), ...each(2, 9, () => seen('Browser'))];
    expect(run(ticks)).toEqual([
      ['Editor', iso(0), iso(5)],
      ['Browser', iso(5), iso(9)],
    ]);
  });

  it('records no away time from before it started or resumed', () => {
    const merger = new SpanMerger({ idleSeconds: 3 });
    const spans = [...merger.tick(at(0), seen('Editor', 600)), ...merger.tick(at(1), seen('Editor', 601))];
    spans.push(...merger.close()); // a pause from second 1 to 60, with no input
    spans.push(...merger.tick(at(60), seen('Editor', 660)), ...merger.tick(at(61), seen('Editor', 0)));
    spans.push(...merger.close());
    expect(spans.map((s) => [s.kind, s.startedAt, s.endedAt])).toEqual([
      ['away', iso(0), iso(1)],
      ['away', iso(60), iso(61)],
    ]);
  });

  it('answers valid spans in order, never overlapping, each id once, for any sequence of polls', () => {
    const poll = fc.record({
      step: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: -5, max: 90 })),
      app: fc.constantFrom('Editor', 'Browser', 'Chat', null),
      idle: fc.integer({ min: 0, max: 10 }),
      locked: fc.constantFrom(true, false, null),
    });
    fc.assert(
      fc.property(fc.array(poll, { maxLength: 80 }), (polls) => {
        const merger = new SpanMerger({ idleSeconds: 4 });
        let second = 0;
        const spans = polls.flatMap((p) => {
          second += p.step;
          return merger.tick(at(second), seen(p.app, p.idle, p.locked));
        });
        spans.push(...merger.close());
        for (const span of spans) agentSpan.parse(span);
        for (let i = 1; i < spans.length; i++) {
          expect(Date.parse(spans[i]?.startedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(spans[i - 1]?.endedAt ?? ''));
        }
        expect(new Set(spans.map((s) => s.id)).size).toBe(spans.length);
      }),
    );
  });
});
