import { describe, expect, it } from 'vitest';
import { appColor, axisOf, bandsOf } from './lanes';

const T0 = Date.parse('2026-11-27T00:00:00Z');
const HOUR = 3_600_000;
const span = (fromS: number, toS: number, app: string | null) => ({
  startedAt: new Date(T0 + fromS * 1000).toISOString(),
  endedAt: new Date(T0 + toS * 1000).toISOString(),
  app,
});
const day = { startMs: T0, endMs: T0 + 24 * HOUR };

describe('bandsOf', () => {
  it('keeps wide spans apart and joins the same application across a gap under a pixel', () => {
    // 1440 px for a day: a pixel is a minute.
    const bands = bandsOf(
      [span(0, 600, 'code'), span(630, 1200, 'code'), span(1200, 1800, 'firefox'), span(3600, 4200, 'firefox')],
      { ...day, widthPx: 1440 },
    );
    expect(bands.map((b) => [b.app, b.spans.length, (b.endMs - b.startMs) / 1000])).toEqual([
      ['code', 2, 1200],
      ['firefox', 1, 600],
      ['firefox', 1, 600],
    ]);
  });

  it('merges sub-pixel spans into a band named after the application with the most time', () => {
    const spans = Array.from({ length: 5000 }, (_, i) => span(i * 10, i * 10 + 10, i % 3 === 0 ? 'slack' : 'code'));
    const bands = bandsOf(spans, { ...day, widthPx: 1000 });
    expect(bands.length).toBeLessThan(500);
    expect(bands.length).toBeGreaterThan(200);
    expect(bands.reduce((n, b) => n + b.spans.length, 0)).toBe(5000);
    expect(new Set(bands.map((b) => b.app))).toEqual(new Set(['code']));
  });

  it('cuts spans at the axis and leaves out those outside it', () => {
    const axis = { startMs: T0 + HOUR, endMs: T0 + 2 * HOUR, widthPx: 600 };
    const bands = bandsOf([span(0, 600, 'a'), span(3000, 3900, 'b'), span(7000, 7300, 'c')], axis);
    expect(bands.map((b) => [b.app, b.startMs - T0, b.endMs - T0])).toEqual([
      ['b', HOUR, 3900_000],
      ['c', 7000_000, 2 * HOUR],
    ]);
  });
});

describe('axisOf', () => {
  it('is the whole day when nothing happened', () => {
    expect(axisOf(day, [])).toEqual(day);
  });

  it('spans the hours holding activity, at least four', () => {
    const axis = axisOf(day, [{ startMs: T0 + 9.5 * HOUR, endMs: T0 + 10.2 * HOUR }]);
    expect([(axis.startMs - T0) / HOUR, (axis.endMs - T0) / HOUR]).toEqual([8, 12]);
    const long = axisOf(day, [{ startMs: T0 + 7.2 * HOUR, endMs: T0 + 17.1 * HOUR }]);
    expect([(long.startMs - T0) / HOUR, (long.endMs - T0) / HOUR]).toEqual([7, 18]);
    const late = axisOf(day, [{ startMs: T0 + 23.5 * HOUR, endMs: T0 + 26 * HOUR }]);
    expect([(late.startMs - T0) / HOUR, (late.endMs - T0) / HOUR]).toEqual([20, 24]);
  });
});

describe('appColor', () => {
  it('gives a name the same colour every time and excluded activity grey', () => {
    expect(appColor('code')).toBe(appColor('code'));
    expect(appColor('excluded')).toBe('#adb5bd');
  });
});
