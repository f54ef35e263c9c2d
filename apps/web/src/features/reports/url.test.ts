import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  barInterval,
  patchParams,
  readAxes,
  readChart,
  readFilters,
  readGroupBy,
  readMeasures,
  readSort,
} from './url';

const P = '0190a0a0-0000-7000-8000-000000000001';
const T = '0190a0a0-0000-7000-8000-000000000002';
const q = (s: string) => new URLSearchParams(s);

describe('report URL state', () => {
  it('reads the default range when the URL says nothing', () => {
    expect(readFilters(q(''))).toEqual({ filters: { preset: 'thisWeek', tagMode: 'any' }, dropped: [] });
  });

  it('reads every filter the bar writes, and writes them back the same', () => {
    const written = patchParams(q(''), {
      preset: 'custom',
      from: '2026-11-01',
      to: '2026-11-30',
      projects: [P],
      tags: [T],
      tagMode: 'none',
      billable: true,
      invoiced: false,
      description: 'design',
      withoutProject: true,
    });
    const { filters, dropped } = readFilters(written);
    expect(dropped).toEqual([]);
    expect(filters).toMatchObject({
      preset: 'custom',
      from: '2026-11-01',
      to: '2026-11-30',
      projects: [P],
      tags: [T],
      tagMode: 'none',
      billable: true,
      invoiced: false,
      description: 'design',
      withoutProject: true,
    });
    expect(patchParams(written, {}).toString()).toBe(written.toString());
  });

  it('leaves defaults, empty lists and empty text out of the link', () => {
    const params = patchParams(q(`projects=${P}`), {
      preset: 'thisWeek',
      tagMode: 'any',
      projects: [],
      description: '',
    });
    expect(params.toString()).toBe('');
  });

  it('drops the custom days when another range is chosen, and the page cursor on any change', () => {
    const params = patchParams(q('preset=custom&from=2026-01-01&to=2026-01-31&cursor=abc&groupBy=user'), {
      preset: 'lastMonth',
    });
    expect(params.toString()).toBe('preset=lastMonth&groupBy=user');
  });

  it('keeps the good filters of a hand-edited link and names the bad ones', () => {
    const { filters, dropped } = readFilters(q(`projects=${P}&tags=not-an-id&billable=maybe`));
    expect(filters.projects).toEqual([P]);
    expect(filters.tags).toBeUndefined();
    expect(filters.billable).toBeUndefined();
    expect(dropped.sort()).toEqual(['billable', 'tags']);
  });

  it('falls back to this week when a custom range does not hold', () => {
    const { filters, dropped } = readFilters(q('preset=custom&from=2026-02-10&to=2026-02-01'));
    expect(filters.preset).toBe('thisWeek');
    expect(filters.from).toBeUndefined();
    expect(dropped).toContain('preset');
  });

  it('counts the filters set beside the range', () => {
    expect(activeFilterCount(readFilters(q(`projects=${P}&billable=true&description=x`)).filters)).toBe(3);
    expect(activeFilterCount(readFilters(q('preset=lastYear')).filters)).toBe(0);
  });

  it('reads group-by, measures, matrix axes, sort and chart leniently', () => {
    expect(readGroupBy(q('groupBy=client,project,client,bogus,user,tag'), ['project'])).toEqual([
      'client',
      'project',
      'user',
    ]);
    expect(readGroupBy(q('groupBy=bogus'), ['project'])).toEqual(['project']);
    expect(readMeasures(q('measures=billableAmount,nope'), ['trackedSeconds'])).toEqual(['billableAmount']);
    expect(readAxes(q('rows=project&columns=week'), { rows: 'user', columns: 'day' })).toEqual({
      rows: 'project',
      columns: 'week',
    });
    expect(readAxes(q('rows=day&columns=day'), { rows: 'user', columns: 'day' })).toEqual({
      rows: 'user',
      columns: 'day',
    });
    expect(readSort(q('sort=duration&order=asc'))).toEqual({ sort: 'duration', order: 'asc' });
    expect(readSort(q('sort=price'))).toEqual({ sort: 'start', order: 'desc' });
    expect(readChart(q('chart=donut'))).toBe('donut');
    expect(readChart(q('chart=pie'))).toBe('bar');
  });

  it('chooses bars per day, week or month from the length of the range', () => {
    expect(barInterval('2026-11-23', '2026-11-29')).toBe('day');
    expect(barInterval('2026-10-01', '2026-12-31')).toBe('week');
    expect(barInterval('2026-01-01', '2026-12-31')).toBe('month');
  });
});
