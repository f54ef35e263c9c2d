import { createCategoriser, starterCategories } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { appRows as rowsBy } from './activities';

let ids = 0;
const categorise = createCategoriser(starterCategories(() => `c${++ids}`));
const appRows = (list: typeof items, sort: 'app' | 'category' | 'total', order: 'asc' | 'desc') =>
  rowsBy(list, sort, order, categorise);

const items = [
  { userId: 'a', day: '2026-11-23', app: 'code', seconds: 3600 },
  { userId: 'b', day: '2026-11-23', app: 'code', seconds: 600 },
  { userId: 'a', day: '2026-11-24', app: 'code', seconds: 1200 },
  { userId: 'a', day: '2026-11-23', app: 'slack', seconds: 7200 },
  { userId: 'a', day: '2026-11-24', app: 'mystery-tool', seconds: 60 },
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
});
