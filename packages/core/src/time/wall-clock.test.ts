import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayBounds } from './days.js';
import { calendarView, type ViewEntry } from './views.js';
import { clockChanges, wallInstant, wallMinutes } from './wall-clock.js';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const iso = (ms: number) => new Date(ms).toISOString();

describe('wall-clock minutes of an instant', () => {
  it('reads 09:00 as 540 on ordinary and DST days alike', () => {
    expect(wallMinutes('2026-03-28T08:00:00Z', '2026-03-28', BERLIN)).toBe(540); // CET
    expect(wallMinutes('2026-03-29T07:00:00Z', '2026-03-29', BERLIN)).toBe(540); // CEST, 8 h after midnight
    expect(wallMinutes('2026-10-25T08:00:00Z', '2026-10-25', BERLIN)).toBe(540); // CET, 10 h after midnight
    expect(wallMinutes('2026-03-08T13:00:00Z', '2026-03-08', NEW_YORK)).toBe(540); // EDT
  });

  it('keeps a late entry of a fall-back day inside the day (23:30 is 1410, midnight 1440)', () => {
    expect(wallMinutes('2026-10-25T22:30:00Z', '2026-10-25', BERLIN)).toBe(1410);
    expect(wallMinutes(dayBounds('2026-10-25', BERLIN).endMs, '2026-10-25', BERLIN)).toBe(1440);
    expect(wallMinutes(dayBounds('2026-03-29', BERLIN).endMs, '2026-03-29', BERLIN)).toBe(1440);
  });

  it('runs past the day for other days', () => {
    expect(wallMinutes('2026-03-28T22:00:00Z', '2026-03-29', BERLIN)).toBe(-60);
    expect(wallMinutes('2026-03-30T00:00:00Z', '2026-03-29', BERLIN)).toBe(1440 + 120);
  });
});

describe('the instant of a wall-clock time', () => {
  it('finds 09:00 and 10:00 on DST days', () => {
    expect(iso(wallInstant('2026-03-29', 540, BERLIN))).toBe('2026-03-29T07:00:00.000Z');
    expect(iso(wallInstant('2026-03-29', 600, BERLIN))).toBe('2026-03-29T08:00:00.000Z');
    expect(iso(wallInstant('2026-10-25', 540, BERLIN))).toBe('2026-10-25T08:00:00.000Z');
    expect(iso(wallInstant('2026-11-01', 540, NEW_YORK))).toBe('2026-11-01T14:00:00.000Z');
  });

  it('moves a skipped time to the end of the gap', () => {
    expect(iso(wallInstant('2026-03-29', 150, BERLIN))).toBe('2026-03-29T01:00:00.000Z'); // 02:30 -> 03:00 CEST
    expect(iso(wallInstant('2026-03-29', 120, BERLIN))).toBe('2026-03-29T01:00:00.000Z');
    expect(iso(wallInstant('2026-03-29', 119, BERLIN))).toBe('2026-03-29T00:59:00.000Z');
    expect(iso(wallInstant('2026-03-08', 150, NEW_YORK))).toBe('2026-03-08T07:00:00.000Z'); // 02:30 -> 03:00 EDT
  });

  it('takes the first of a time shown twice', () => {
    expect(iso(wallInstant('2026-10-25', 150, BERLIN))).toBe('2026-10-25T00:30:00.000Z'); // 02:30 CEST
    expect(iso(wallInstant('2026-11-01', 90, NEW_YORK))).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT
  });

  it('turns any instant into its wall time and back (outside the repeated hour)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
        fc.constantFrom(BERLIN, NEW_YORK, 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'),
        (ms, zone) => {
          const at = Math.floor(ms / 60_000) * 60_000;
          const day = new Date(at + 14 * 3_600_000).toISOString().slice(0, 10);
          const minutes = wallMinutes(at, day, zone);
          const back = wallInstant(day, minutes, zone);
          const repeated = clockChanges(day, zone).some(
            (c) => c.kind === 'repeated' && minutes >= c.from && minutes < c.to,
          );
          if (repeated) expect(wallMinutes(back, day, zone)).toBe(minutes);
          else expect(back).toBe(at);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('clock changes of a day', () => {
  it('names the skipped and the repeated hour', () => {
    expect(clockChanges('2026-03-29', BERLIN)).toEqual([
      { atMs: Date.parse('2026-03-29T01:00:00Z'), kind: 'skipped', from: 120, to: 180 },
    ]);
    expect(clockChanges('2026-10-25', BERLIN)).toEqual([
      { atMs: Date.parse('2026-10-25T01:00:00Z'), kind: 'repeated', from: 120, to: 180 },
    ]);
    expect(clockChanges('2026-11-01', NEW_YORK)).toEqual([
      { atMs: Date.parse('2026-11-01T06:00:00Z'), kind: 'repeated', from: 60, to: 120 },
    ]);
    // Lord Howe moves its clocks by half an hour.
    expect(clockChanges('2026-10-04', 'Australia/Lord_Howe')).toMatchObject([{ kind: 'skipped', from: 120, to: 150 }]);
    expect(clockChanges('2026-10-26', BERLIN)).toEqual([]);
  });
});

describe('calendar blocks on DST days', () => {
  const entry = (id: string, start: string, end: string): ViewEntry => ({
    id,
    start,
    end,
    projectId: null,
    taskId: null,
  });
  const blocksOf = (entries: ViewEntry[], day: string) =>
    calendarView(entries, [day], { timeZone: BERLIN }).columns[0]?.blocks.map(({ top, bottom, part }) => ({
      top,
      bottom,
      part,
    }));

  it('sit at the hour labels of their wall-clock times', () => {
    // 09:00-10:00 CEST on the day that springs forward, and CET on the day that falls back.
    expect(blocksOf([entry('a', '2026-03-29T07:00:00Z', '2026-03-29T08:00:00Z')], '2026-03-29')).toEqual([
      { top: 540, bottom: 600, part: 0 },
    ]);
    expect(blocksOf([entry('a', '2026-10-25T08:00:00Z', '2026-10-25T09:00:00Z')], '2026-10-25')).toEqual([
      { top: 540, bottom: 600, part: 0 },
    ]);
    // 23:30 to midnight stays in the column of a 25-hour day.
    expect(blocksOf([entry('a', '2026-10-25T22:30:00Z', '2026-10-25T23:00:00Z')], '2026-10-25')).toEqual([
      { top: 1410, bottom: 1440, part: 0 },
    ]);
  });

  it('span the skipped hour, and split where the clocks go back', () => {
    // 01:30 CET to 03:30 CEST: one hour of work across the skipped band.
    expect(blocksOf([entry('a', '2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z')], '2026-03-29')).toEqual([
      { top: 90, bottom: 210, part: 0 },
    ]);
    // 02:30 CEST to 02:15 CET: 02:30-03:00 of the first pass, 02:00-02:15 of the second.
    expect(blocksOf([entry('a', '2026-10-25T00:30:00Z', '2026-10-25T01:15:00Z')], '2026-10-25')).toEqual([
      { top: 150, bottom: 180, part: 0 },
      { top: 120, bottom: 135, part: 1 },
    ]);
  });
});
