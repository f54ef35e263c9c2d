import { describe, expect, it } from 'vitest';
import { type CoverPiece, coverOf, partialMonth, wholeMonths } from './reports.cover.js';

describe('wholeMonths', () => {
  it('finds the whole months of a range and the days around them', () => {
    expect(wholeMonths('2025-11-27', '2026-11-26')).toEqual({
      first: '2025-12-01',
      last: '2026-10-01',
      ragged: [
        ['2025-11-27', '2025-11-30'],
        ['2026-11-01', '2026-11-26'],
      ],
    });
  });

  it('takes a range of whole months as it is, February and leap years included', () => {
    expect(wholeMonths('2024-02-01', '2024-02-29')).toEqual({ first: '2024-02-01', last: '2024-02-01', ragged: [] });
    expect(wholeMonths('2025-12-01', '2026-01-31')).toEqual({ first: '2025-12-01', last: '2026-01-01', ragged: [] });
  });

  it('finds none in a range without a whole month', () => {
    expect(wholeMonths('2026-10-02', '2026-11-30')).toEqual({
      first: '2026-11-01',
      last: '2026-11-01',
      ragged: [['2026-10-02', '2026-10-31']],
    });
    expect(wholeMonths('2026-10-02', '2026-10-31')).toBeUndefined();
    expect(wholeMonths('2026-10-28', '2026-11-27')).toBeUndefined();
  });
});

describe('partialMonth', () => {
  it('reads most of a month as the month less its other days', () => {
    expect(partialMonth('2026-11-01', '2026-11-26')).toEqual({
      month: '2026-11-01',
      outside: [['2026-11-27', '2026-11-30']],
    });
    expect(partialMonth('2026-11-03', '2026-11-29')).toEqual({
      month: '2026-11-01',
      outside: [
        ['2026-11-01', '2026-11-02'],
        ['2026-11-30', '2026-11-30'],
      ],
    });
    expect(partialMonth('2024-02-02', '2024-02-29')).toEqual({
      month: '2024-02-01',
      outside: [['2024-02-01', '2024-02-01']],
    });
  });

  it('reads the days themselves when they are no more than the rest of the month', () => {
    expect(partialMonth('2025-11-27', '2025-11-30')).toBeUndefined();
    expect(partialMonth('2026-10-01', '2026-10-15')).toBeUndefined();
    expect(partialMonth('2026-10-01', '2026-10-16')).toEqual({
      month: '2026-10-01',
      outside: [['2026-10-17', '2026-10-31']],
    });
  });
});

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const next = (d: string, n = 1) => day(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000);
/** How many times each day counts in a cover: every day of each piece's periods, by its sign. */
function counts(pieces: CoverPiece[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const p of pieces) {
    const last =
      p.period === 'day'
        ? p.range[1]
        : p.period === 'month'
          ? next(`${next(p.range[1], 32).slice(0, 7)}-01`, -1)
          : `${p.range[1].slice(0, 4)}-12-31`;
    for (let d = p.range[0]; d <= last; d = next(d)) n.set(d, (n.get(d) ?? 0) + p.sign);
  }
  return n;
}

describe('coverOf', () => {
  it('reads the last 365 days as this year less its last days, last December and the days before it', () => {
    expect(coverOf('2025-11-27', '2026-11-26', true)).toEqual([
      { period: 'month', range: ['2025-12-01', '2025-12-01'], sign: 1 },
      { period: 'day', range: ['2025-11-27', '2025-11-30'], sign: 1 },
      { period: 'year', range: ['2026-01-01', '2026-01-01'], sign: 1 },
      { period: 'month', range: ['2026-12-01', '2026-12-01'], sign: -1 },
      { period: 'day', range: ['2026-11-27', '2026-11-30'], sign: -1 },
    ]);
    expect(coverOf('2024-01-01', '2026-12-31', true)).toEqual([
      { period: 'year', range: ['2024-01-01', '2026-01-01'], sign: 1 },
    ]);
  });

  it('counts every day of the range once and no other day, for random ranges', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    // Bounded by its 300 ranges, not by time; the differences are collected and compared once
    // (an expect per day made it ~250,000 expects, past Vitest's 5 s on a loaded machine: issue 31).
    const wrong: string[] = [];
    for (let i = 0; i < 300; i++) {
      const from = next('2022-01-01', random(1500));
      const to = next(from, random(i % 3 === 0 ? 1100 : 120));
      for (const years of [true, false]) {
        const n = counts(coverOf(from, to, years));
        for (const [d, count] of n)
          if (count !== (d >= from && d <= to ? 1 : 0)) wrong.push(`${from}..${to} ${years} ${d}: ${count}`);
        for (let d = from; d <= to; d = next(d))
          if (n.get(d) !== 1) wrong.push(`${from}..${to} ${years} ${d}: ${n.get(d)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
