import { type ActivityDayView, createCategoriser, starterCategories } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { appRows as rowsBy } from './activities';

let ids = 0;
const categorise = createCategoriser(starterCategories(() => `c${++ids}`));
const appRows = (list: readonly ActivityDayView[], sort: 'app' | 'category' | 'total', order: 'asc' | 'desc') =>
  rowsBy(list, sort, order, categorise);

const items = [
  { userId: 'a', day: '2026-11-23', app: 'code', site: null, seconds: 3600 },
  { userId: 'b', day: '2026-11-23', app: 'code', site: null, seconds: 600 },
  { userId: 'a', day: '2026-11-24', app: 'code', site: null, seconds: 1200 },
  { userId: 'a', day: '2026-11-23', app: 'slack', site: null, seconds: 7200 },
  { userId: 'a', day: '2026-11-24', app: 'mystery-tool', site: null, seconds: 60 },
];

describe('appRows', () => {
  it('adds people and days up per application, with its starter category', () => {
    const rows = appRows(items, 'total', 'desc');
    expect(rows.map((r) => [r.app, r.category, r.total])).toEqual([
      ['slack', 'Communication', 7200],
      ['code', 'Development', 5400],
      ['mystery-tool', 'Uncategorized', 60],
    ]);
    expect(Object.fromEntries(rows[1]?.days ?? [])).toEqual({ '2026-11-23': 4200, '2026-11-24': 1200 });
  });

  it('sorts by name or category either way', () => {
    expect(appRows(items, 'app', 'asc').map((r) => r.app)).toEqual(['code', 'mystery-tool', 'slack']);
    expect(appRows(items, 'category', 'desc').map((r) => r.app)).toEqual(['mystery-tool', 'code', 'slack']);
  });

  it('sorts a browser’s sites by the site rules, and its other time by the application’s', () => {
    const browsing = [
      { userId: 'a', day: '2026-11-23', app: 'firefox', site: 'github.com', seconds: 1800 },
      { userId: 'b', day: '2026-11-23', app: 'firefox', site: 'github.com', seconds: 600 },
      { userId: 'a', day: '2026-11-23', app: 'firefox', site: 'youtube.com', seconds: 900 },
      { userId: 'a', day: '2026-11-23', app: 'firefox', site: null, seconds: 300 },
      { userId: 'a', day: '2026-11-23', app: 'chromium', site: 'github.com', seconds: 60 },
    ];
    expect(appRows(browsing, 'total', 'desc').map((r) => [r.name, r.app, r.category, r.total])).toEqual([
      ['github.com', 'firefox', 'Development', 2400],
      ['youtube.com', 'firefox', 'Entertainment', 900],
      ['firefox', 'firefox', 'Browsing', 300],
      ['github.com', 'chromium', 'Development', 60],
    ]);
  });
});
