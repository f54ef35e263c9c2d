import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zonedInstant } from '../time/days.js';
import {
  GERMAN_WORKING_TIME as DE,
  type Interval,
  legalBreak,
  mergeIntervals,
  requiredBreakMinutes,
  type WorkingTimeRules,
  workingDays,
} from './working-time.js';

const BERLIN = 'Europe/Berlin';
const at = (day: string, time: string) => zonedInstant(day, time, BERLIN);
/** Work on a Berlin day: "08:00-12:00" pieces (an end before the start is the next morning). */
const work = (day: string, ...pieces: string[]): Interval[] =>
  pieces.map((piece) => {
    const [from = '', to = ''] = piece.split('-');
    const start = at(day, from);
    let end = at(day, to);
    if (end <= start) end += 24 * 3_600_000;
    return [start, end];
  });
const rulesOf = (days: ReturnType<typeof workingDays>) => days.map((d) => d.violations.map((v) => v.rule));

describe('the German preset (ArbZG ss. 3-5), hand-worked', () => {
  it('needs no break for exactly 6 hours, 30 minutes above 6 and 45 above 9', () => {
    expect(requiredBreakMinutes(360, DE)).toBe(0);
    expect(requiredBreakMinutes(361, DE)).toBe(30);
    expect(requiredBreakMinutes(540, DE)).toBe(30);
    expect(requiredBreakMinutes(541, DE)).toBe(45);
  });

  it('accepts an 8-hour day with a 30-minute lunch', () => {
    const [day] = workingDays(work('2026-03-02', '08:00-12:00', '12:30-16:30'), BERLIN, DE);
    expect(day).toMatchObject({ day: '2026-03-02', workMinutes: 480, breakMinutes: 30, violations: [] });
  });

  it('counts only pauses of 15 minutes or more: two of 10 minutes are no break', () => {
    const [day] = workingDays(work('2026-03-02', '08:00-11:00', '11:10-14:00', '14:10-16:00'), BERLIN, DE);
    expect(day?.workMinutes).toBe(460);
    expect(day?.breakMinutes).toBe(0);
    expect(day?.violations).toEqual([
      { rule: 'breaks', requiredMinutes: 30, minutes: 0 },
      { rule: 'stretch', limitMinutes: 360, minutes: 460, startMs: at('2026-03-02', '08:00') },
    ]);
  });

  it('accepts the break in two blocks of 15 minutes, each stretch at most 6 hours', () => {
    const [day] = workingDays(work('2026-03-02', '07:00-10:00', '10:15-13:00', '13:15-16:00'), BERLIN, DE);
    expect(day).toMatchObject({ workMinutes: 510, breakMinutes: 30, violations: [] });
  });

  it('wants 45 minutes above 9 hours, and flags more than 10 hours', () => {
    const [long] = workingDays(work('2026-03-02', '07:00-12:00', '12:30-17:45'), BERLIN, DE);
    expect(long?.workMinutes).toBe(615);
    expect(long?.violations.map((v) => v.rule)).toEqual(['max_daily', 'breaks']);
    expect(long?.violations[1]).toEqual({ rule: 'breaks', requiredMinutes: 45, minutes: 30 });
  });

  it('flags 6 h 30 min in a row even with enough breaks elsewhere', () => {
    const [day] = workingDays(work('2026-03-02', '06:00-07:00', '08:00-14:30'), BERLIN, DE);
    expect(day?.violations).toEqual([
      { rule: 'stretch', limitMinutes: 360, minutes: 390, startMs: at('2026-03-02', '08:00') },
    ]);
  });

  it('wants 11 hours of rest between working days, flagged on the later one', () => {
    const days = workingDays(
      [...work('2026-03-02', '13:00-17:00', '17:30-22:00'), ...work('2026-03-03', '07:00-12:00')],
      BERLIN,
      DE,
    );
    expect(rulesOf(days)).toEqual([[], ['rest']]);
    expect(days[1]?.violations[0]).toEqual({
      rule: 'rest',
      requiredMinutes: 660,
      minutes: 540,
      sinceMs: at('2026-03-02', '22:00'),
    });
    const rested = workingDays(
      [...work('2026-03-02', '13:00-17:00', '17:30-22:00'), ...work('2026-03-03', '09:00-12:00')],
      BERLIN,
      DE,
    );
    expect(rulesOf(rested)).toEqual([[], []]);
  });

  it('keeps a split shift on one day, and a night shift’s second half with its night', () => {
    const split = workingDays(work('2026-03-02', '06:00-10:00', '17:00-21:00'), BERLIN, DE);
    expect(split).toHaveLength(1);
    expect(split[0]).toMatchObject({ workMinutes: 480, breakMinutes: 420, violations: [] });
    const night = workingDays([...work('2026-03-02', '22:00-01:00'), ...work('2026-03-03', '01:30-06:00')], BERLIN, DE);
    expect(night).toHaveLength(1);
    expect(night[0]).toMatchObject({ day: '2026-03-02', workMinutes: 450, breakMinutes: 30, violations: [] });
  });

  it('measures a day across the spring clock change by its real hours', () => {
    // 2026-03-29: 02:00 becomes 03:00 in Berlin; 01:00-08:00 on the clock is 6 hours of work.
    const [day] = workingDays(work('2026-03-29', '01:00-08:00'), BERLIN, DE);
    expect(day?.workMinutes).toBe(360);
    expect(day?.violations).toEqual([]);
  });
});

describe('legalBreak', () => {
  const dayOf = (...pieces: string[]) =>
    workingDays(work('2026-03-02', ...pieces), BERLIN, DE)[0] as NonNullable<ReturnType<typeof workingDays>[0]>;

  it('adds nothing to a day that keeps the rules', () => {
    expect(legalBreak(dayOf('08:00-12:00', '12:30-16:30'), DE)).toBeNull();
  });

  it('ends 6 h 10 min in one stretch 10 minutes earlier, not with a 30-minute break', () => {
    expect(legalBreak(dayOf('08:00-14:10'), DE)).toEqual([at('2026-03-02', '14:00'), at('2026-03-02', '14:10')]);
  });

  it('puts 30 minutes where 7 hours in a row reach 6', () => {
    expect(legalBreak(dayOf('08:00-15:00'), DE)).toEqual([at('2026-03-02', '14:00'), at('2026-03-02', '14:30')]);
  });

  it('adds the missing quarter to a 9 h 30 min day that has 30 minutes, in its longest stretch', () => {
    const added = legalBreak(dayOf('07:00-12:00', '12:30-17:00'), DE);
    expect(added).toEqual([at('2026-03-02', '09:30'), at('2026-03-02', '09:45')]);
  });
});

describe('properties, across the clock changes and midnight', () => {
  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'UTC'];
  const start = Date.UTC(2026, 2, 20);
  const span = 20 * 24 * 3_600_000; // over the March clock changes in both hemispheres' zones
  const arbitraryWork = fc
    .array(fc.tuple(fc.integer({ min: 0, max: span }), fc.integer({ min: 1, max: 14 * 60 })), { maxLength: 30 })
    .map((pieces) => pieces.map(([offset, minutes]): Interval => [start + offset, start + offset + minutes * 60_000]));

  it('loses no work and counts none twice: the days hold the merged work, in order', () => {
    fc.assert(
      fc.property(arbitraryWork, fc.constantFrom(...zones), (pieces, zone) => {
        const days = workingDays(pieces, zone, DE);
        const merged = mergeIntervals(pieces);
        expect(days.flatMap((d) => d.intervals)).toEqual(merged);
        const total = merged.reduce((sum, [a, b]) => sum + (b - a), 0);
        const counted = days.reduce((sum, d) => sum + d.intervals.reduce((s, [a, b]) => s + (b - a), 0), 0);
        expect(counted).toBe(total);
        for (const d of days) expect(d.workMinutes).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('flags a rule off in the preset never; a day within every limit is never flagged', () => {
    const none: WorkingTimeRules = {
      maxDailyMinutes: null,
      breakTiers: [],
      minBreakBlockMinutes: 15,
      maxStretchMinutes: null,
      minRestMinutes: null,
    };
    fc.assert(
      fc.property(arbitraryWork, fc.constantFrom(...zones), (pieces, zone) => {
        expect(workingDays(pieces, zone, none).every((d) => d.violations.length === 0)).toBe(true);
      }),
    );
  });

  it('after its legal break, a day keeps the break rules (or no single break could mend it)', () => {
    fc.assert(
      fc.property(arbitraryWork, fc.constantFrom(...zones), (pieces, zone) => {
        for (const day of workingDays(pieces, zone, DE)) {
          const added = legalBreak(day, DE);
          if (!added) continue;
          const [from, to] = added;
          expect(to).toBeGreaterThan(from);
          const left = day.intervals.flatMap(([a, b]): Interval[] => {
            const pieces: Interval[] = [
              [a, Math.min(b, from)],
              [Math.max(a, to), b],
            ];
            return pieces.filter(([x, y]) => y > x);
          });
          const again = workingDays(left, zone, DE).filter((d) => d.day === day.day);
          for (const d of again) {
            expect(d.violations.filter((v) => v.rule === 'breaks' || v.rule === 'stretch')).toEqual([]);
          }
        }
      }),
    );
  });
});
