/**
 * The calendar math of reading a range of days from the rollups: whole years, whole months and days
 * to add and subtract, so every day of the range counts once (pure, no SQL; reports.time-source.ts
 * turns the pieces into reads of the daily, monthly and yearly rollups).
 */

import { shiftDay as addDays } from '@sundial/core';

/**
 * The whole months in [from, to] (days "YYYY-MM-DD"): the first day of the first and of the
 * last, and the days before and after them in the range ([from, to] pairs, maybe none).
 */
export function wholeMonths(
  from: string,
  to: string,
): { first: string; last: string; ragged: [string, string][] } | undefined {
  const first = from.endsWith('-01') ? from : `${addDays(`${from.slice(0, 7)}-01`, 32).slice(0, 7)}-01`;
  const afterTo = addDays(to, 1);
  const last = afterTo.endsWith('-01')
    ? `${to.slice(0, 7)}-01`
    : `${addDays(`${to.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
  if (first > last) return undefined;
  const end = addDays(`${addDays(last, 32).slice(0, 7)}-01`, -1);
  const ragged: [string, string][] = [];
  if (from < first) ragged.push([from, addDays(first, -1)]);
  if (to > end) ragged.push([addDays(end, 1), to]);
  return { first, last, ragged };
}

const daysIn = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;

/**
 * How to read the days [from, to] of one month from a monthly rollup: the whole month less its days
 * outside the range, when those are fewer than the days inside (the last 365 days end with most of
 * this month: a month's rows and today's instead of 26 days' rows); undefined when reading the days
 * themselves is cheaper.
 */
export function partialMonth(from: string, to: string): { month: string; outside: [string, string][] } | undefined {
  const month = `${from.slice(0, 7)}-01`;
  const end = addDays(`${addDays(month, 32).slice(0, 7)}-01`, -1);
  const outside: [string, string][] = [];
  if (from > month) outside.push([month, addDays(from, -1)]);
  if (to < end) outside.push([addDays(to, 1), end]);
  const out = outside.reduce((n, [a, b]) => n + daysIn(a, b), 0);
  return out < daysIn(from, to) ? { month, outside } : undefined;
}

/** A period of rollup rows to read, with the sign its rows count with: [first, last] are days, or first days of months (years). */
export interface CoverPiece {
  period: 'day' | 'month' | 'year';
  range: [string, string];
  sign: 1 | -1;
}

const yearEnd = (day: string) => `${day.slice(0, 4)}-12-31`;
const negate = (pieces: CoverPiece[]) => pieces.map((p): CoverPiece => ({ ...p, sign: p.sign === 1 ? -1 : 1 }));

/** The days [from, to] as whole months and, around them, days or a month less its other days (`partialMonth`). */
function monthCover(from: string, to: string): CoverPiece[] {
  const one = (a: string, b: string): CoverPiece[] => {
    const partial = partialMonth(a, b);
    if (!partial) return [{ period: 'day', range: [a, b], sign: 1 }];
    return [
      { period: 'month', range: [partial.month, partial.month], sign: 1 },
      ...partial.outside.map((r): CoverPiece => ({ period: 'day', range: r, sign: -1 })),
    ];
  };
  const whole = wholeMonths(from, to);
  if (!whole) {
    // Within two months: each month's days.
    const cut = `${addDays(`${from.slice(0, 7)}-01`, 32).slice(0, 7)}-01`;
    return cut <= to ? [...one(from, addDays(cut, -1)), ...one(cut, to)] : one(from, to);
  }
  return [
    { period: 'month', range: [whole.first, whole.last], sign: 1 },
    ...whole.ragged.flatMap(([a, b]) => one(a, b)),
  ];
}

/** Whether the monthly rollups serve some of the days [from, to]: a whole month, or most of one. */
export const monthsServe = (from: string, to: string) => monthCover(from, to).some((p) => p.period === 'month');

/**
 * The days [from, to] as rollup periods to add and subtract: whole years (`years`), whole months,
 * days. A partial year mostly inside the range is read as the year less the months and days
 * outside it (the last 365 days: this year less its last days, plus last December and the days
 * before it); a partial month likewise (`partialMonth`). Every day of the range counts once and
 * every other day not at all.
 */
export function coverOf(from: string, to: string, years: boolean): CoverPiece[] {
  if (!years) return monthCover(from, to);
  const pieces: CoverPiece[] = [];
  let day = from;
  while (day <= to) {
    const start = `${day.slice(0, 4)}-01-01`;
    const end = yearEnd(day);
    const last = to < end ? to : end;
    if (day === start && last === end) {
      const previous = pieces.at(-1);
      if (previous?.period === 'year' && previous.sign === 1) previous.range[1] = start;
      else pieces.push({ period: 'year', range: [start, start], sign: 1 });
    } else {
      const outside: [string, string][] = [];
      if (day > start) outside.push([start, addDays(day, -1)]);
      if (last < end) outside.push([addDays(last, 1), end]);
      const out = outside.reduce((n, [a, b]) => n + daysIn(a, b), 0);
      if (out < daysIn(day, last))
        pieces.push(
          { period: 'year', range: [start, start], sign: 1 },
          ...outside.flatMap(([a, b]) => negate(monthCover(a, b))),
        );
      else pieces.push(...monthCover(day, last));
    }
    day = addDays(end, 1);
  }
  return pieces;
}
