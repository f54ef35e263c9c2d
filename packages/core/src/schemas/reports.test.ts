import { describe, expect, it } from 'vitest';
import { dayBounds } from '../time/days.js';
import {
  budgetPercent,
  budgetStatus,
  detailedReportQuery,
  estimatesReportQuery,
  estimateTotals,
  matrixReportQuery,
  parseReportParams,
  reportQuery,
  resolvePreset,
  sourceReportQuery,
  toReportParams,
  weekOf,
} from './reports.js';

describe('report date presets', () => {
  it('resolves each preset from the local day, in calendar days', () => {
    const today = '2026-03-31'; // a Tuesday
    expect(resolvePreset('today', today, 'monday')).toEqual({ from: today, to: today });
    expect(resolvePreset('yesterday', today, 'monday')).toEqual({ from: '2026-03-30', to: '2026-03-30' });
    expect(resolvePreset('thisWeek', today, 'monday')).toEqual({ from: '2026-03-30', to: '2026-04-05' });
    expect(resolvePreset('thisWeek', today, 'sunday')).toEqual({ from: '2026-03-29', to: '2026-04-04' });
    expect(resolvePreset('thisWeek', today, 'saturday')).toEqual({ from: '2026-03-28', to: '2026-04-03' });
    expect(resolvePreset('lastWeek', today, 'monday')).toEqual({ from: '2026-03-23', to: '2026-03-29' });
    expect(resolvePreset('thisMonth', today, 'monday')).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(resolvePreset('lastMonth', today, 'monday')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(resolvePreset('thisQuarter', today, 'monday')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(resolvePreset('lastQuarter', today, 'monday')).toEqual({ from: '2025-10-01', to: '2025-12-31' });
    expect(resolvePreset('thisYear', today, 'monday')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(resolvePreset('lastYear', today, 'monday')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
    expect(resolvePreset('custom', today, 'monday', { from: '2026-01-05', to: '2026-01-09' })).toEqual({
      from: '2026-01-05',
      to: '2026-01-09',
    });
  });

  it('crosses a year in January (last month, last quarter) and a leap February', () => {
    expect(resolvePreset('lastMonth', '2026-01-15', 'monday')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(resolvePreset('lastQuarter', '2026-02-15', 'monday')).toEqual({ from: '2025-10-01', to: '2025-12-31' });
    expect(resolvePreset('thisMonth', '2028-02-10', 'monday')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('gives a week holding a DST change its 7 local days; their bounds are 167 hours in Europe/Paris', () => {
    const { from, to } = resolvePreset('thisWeek', '2026-03-29', 'monday');
    expect([from, to]).toEqual(['2026-03-23', '2026-03-29']);
    const hours = (dayBounds(to, 'Europe/Paris').endMs - dayBounds(from, 'Europe/Paris').startMs) / 3_600_000;
    expect(hours).toBe(167);
    expect(weekOf('2026-03-29', 'monday')).toBe('2026-03-23');
  });
});

describe('report definitions in the URL', () => {
  it('reads what it writes', () => {
    const query = {
      preset: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
      projects: ['0190b6a4-0000-7000-8000-000000000001', '0190b6a4-0000-7000-8000-000000000002'],
      tagMode: 'all',
      billable: true,
      groupBy: ['project', 'user', 'day'],
      measures: ['trackedSeconds', 'billableAmount'],
      timeZone: 'Asia/Kathmandu',
    };
    const params = toReportParams(query);
    expect(params.get('projects')).toContain(',');
    const parsed = parseReportParams(params);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject(query);
  });

  it('names what is wrong', () => {
    const bad = (q: string) => parseReportParams(new URLSearchParams(q)).error?.issues[0]?.message;
    expect(bad('groupBy=colour')).toMatch(/Group by one of/);
    expect(bad('groupBy=user,project,day,tag')).toBe('At most 3 group-by dimensions.');
    expect(bad('groupBy=user,user')).toBe('Group by each dimension once.');
    expect(bad('preset=custom&from=2026-01-05')).toBe('A custom range needs from and to dates.');
    expect(bad('preset=custom&from=2026-02-05&to=2026-02-01')).toBe('The range ends before it starts.');
    expect(bad('preset=custom&from=2026-02-30&to=2026-03-01')).toBe('Enter a date as YYYY-MM-DD.');
    expect(bad('timeZone=Mars/Olympus')).toMatch(/Unknown time zone/);
    expect(bad('users=nope')).toBe('Each of the users must be an id.');
    expect(bad('billable=yes')).toBe('Use true or false.');
  });

  it('defaults to this week, any tag, no grouping', () => {
    expect(reportQuery.parse({})).toMatchObject({ preset: 'thisWeek', tagMode: 'any' });
  });

  it('takes a range given as that range, for every report', () => {
    const range = { from: '2026-01-05', to: '2026-01-09' };
    for (const schema of [
      reportQuery,
      detailedReportQuery,
      matrixReportQuery,
      sourceReportQuery,
      estimatesReportQuery,
    ]) {
      // from and to alone were this week, silently: they are a custom range.
      expect(schema.parse(range)).toMatchObject({ preset: 'custom', ...range });
      expect(schema.safeParse({ from: '2026-01-05' }).error?.issues[0]?.message).toBe(
        'A custom range needs from and to dates.',
      );
      // With another preset they are refused, with the way out.
      const both = schema.safeParse({ preset: 'lastMonth', ...range });
      expect(both.error?.issues[0]?.path).toEqual(['preset']);
      expect(both.error?.issues[0]?.message).toMatch(/leave preset out .* or leave them out for lastMonth/);
      expect(schema.parse({ preset: 'lastMonth' })).toMatchObject({ preset: 'lastMonth' });
    }
  });
});

describe('budget status', () => {
  it('is near from 80 % of the budget, over only beyond it', () => {
    expect(budgetStatus(79, 100, 80)).toBe('ok');
    expect(budgetStatus(80, 100, 80)).toBe('near');
    expect(budgetStatus(100, 100, 80)).toBe('near');
    expect(budgetStatus(101, 100, 80)).toBe('over');
    expect(budgetStatus(0, 0, 80)).toBe('ok');
    expect(budgetStatus(1, 0, 80)).toBe('over');
  });
});

describe('estimate totals', () => {
  const line = (type: 'hours' | 'fee', taskId: string | null, taskIds: string[] = []) => ({
    type,
    projectId: 'p',
    taskId,
    taskIds,
  });
  it('count a budget inside another of its kind once: a project with task budgets is its own budget', () => {
    const figures = [
      { line: line('hours', null), budget: 100, used: 40 },
      { line: line('hours', 'a', ['a', 'a1']), budget: 30, used: 20 },
      { line: line('hours', 'a1', ['a1']), budget: 20, used: 10 },
      { line: line('fee', 'b', ['b']), budget: 500, used: 100 },
    ];
    expect(estimateTotals(figures, true)).toEqual({
      hours: { budget: 100, used: 40, remaining: 60 },
      fee: { budget: 500, used: 100, remaining: 400 },
    });
    expect(estimateTotals(figures, false).fee).toEqual({ budget: null, used: null, remaining: null });
    expect(estimateTotals(figures.slice(1, 3), true).hours).toEqual({ budget: 30, used: 20, remaining: 10 });
    expect(estimateTotals([], true)).toEqual({ hours: null, fee: null });
  });
  it('say the use in percent with one decimal, none without a budget', () => {
    expect(budgetPercent(9600, 3600)).toBe(266.7);
    expect(budgetPercent(1, 0)).toBeNull();
  });
});
