import {
  type ClockFormat,
  type DurationFormat,
  formatDayLabel,
  formatDayRange,
  formatDuration,
  formatMoney,
  formatMonthLabel,
  measureKind,
  type ReportDimension,
  type ReportKey,
  type ReportMeasure,
  shiftDay,
} from '@sundial/core';
import { useMemo } from 'react';
import { useCurrency } from '../api/rates';
import { useDurationFormat, useWorkspace } from '../api/session';

const locale = () => (typeof navigator === 'undefined' ? 'en-US' : navigator.language || 'en-US');

/** How the reader writes dates (their profile's format): it orders day and month in labels. */
export type DateOrder = Pick<ClockFormat, 'dateFormat'>;

/**
 * A calendar-key dimension's label ("Mon, 23 Nov", "Week of 23 Nov", "Nov 2026") in the reader's date
 * order, through core's one formatter (the browser's language no longer decides: issue 30).
 */
export function periodLabel(dimension: ReportDimension, key: string, f: DateOrder, short = false): string {
  if (dimension === 'day') return formatDayLabel(key, f, { month: !short });
  if (dimension === 'week') return `${short ? '' : 'Week of '}${formatDayLabel(key, f, { weekday: false })}`;
  if (dimension === 'month') return formatMonthLabel(key);
  return key.slice(0, 4);
}

/** What a row or column of a report is called: a name, a period, "Parent / Task". */
export function keyLabel(dimension: ReportDimension, key: ReportKey, f: DateOrder): string {
  if (
    key.key !== null &&
    (dimension === 'day' || dimension === 'week' || dimension === 'month' || dimension === 'year')
  )
    return periodLabel(dimension, key.key, f);
  if (dimension === 'task' && key.parent) return `${key.parent} / ${key.label}`;
  return key.label;
}

/** A date range's words ("1 – 30 Nov 2026"). */
export const rangeLabel = (from: string, to: string, f: DateOrder): string => formatDayRange(from, to, f);

export type MeasureFormatter = (measure: ReportMeasure, value: number | null | undefined) => string;

/**
 * How report figures read: durations in a duration format (the user's, as the timesheet shows
 * them), money in the workspace currency and counts in the reader's locale.
 */
export function reportFormat(currency: string, durationFormat: DurationFormat) {
  const loc = locale();
  const money = (cents: number) => {
    try {
      return formatMoney(cents, currency, loc);
    } catch {
      return formatMoney(cents, currency, 'en-US');
    }
  };
  const count = new Intl.NumberFormat(loc);
  const measure: MeasureFormatter = (m, value) => {
    if (value === null || value === undefined) return '—';
    const kind = measureKind(m);
    if (kind === 'money') return money(value);
    if (kind === 'count') return count.format(value);
    return formatDuration(value, durationFormat);
  };
  return { duration: (s: number) => formatDuration(s, durationFormat), money, measure, currency };
}

/** The signed-in reader's report format: their duration format, the workspace currency. */
export function useReportFormat() {
  const { workspaceId } = useWorkspace();
  const durationFormat = useDurationFormat();
  const currency = useCurrency(workspaceId);
  return useMemo(() => reportFormat(currency, durationFormat), [currency, durationFormat]);
}

/** Every day from..to (inclusive), for matrices whose columns are days: days without time show too. */
export function daysOf(from: string, to: string, max = 62): string[] | null {
  const days: string[] = [];
  for (let day = from; day <= to; day = shiftDay(day, 1)) {
    days.push(day);
    if (days.length > max) return null;
  }
  return days;
}
