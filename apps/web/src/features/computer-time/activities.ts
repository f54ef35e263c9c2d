import { type ActivityDayView, createCategoriser, starterCategories, UNCATEGORIZED } from '@sundial/core';

/** An application's row of the Activities table: its category, seconds per day and in all. */
export interface AppRow {
  app: string;
  category: string;
  days: Map<string, number>;
  total: number;
}

export type AppSort = 'app' | 'category' | 'total';

let ids = 0;
/**
 * The starter categories, matched on the application name in the browser: there is no categories
 * table yet, so the Activities page groups by them until the Categories page lets a workspace edit them.
 */
const categorise = createCategoriser(starterCategories(() => `starter-${++ids}`));

/** The items' seconds per application (all people together), per day and in all, sorted. */
export function appRows(items: readonly ActivityDayView[], sort: AppSort, order: 'asc' | 'desc'): AppRow[] {
  const rows = new Map<string, AppRow>();
  for (const item of items) {
    let row = rows.get(item.app);
    if (!row) {
      const path = categorise({ app: item.app, title: null, url: null }).path;
      row = { app: item.app, category: path.join(' › ') || UNCATEGORIZED, days: new Map(), total: 0 };
      rows.set(item.app, row);
    }
    row.days.set(item.day, (row.days.get(item.day) ?? 0) + item.seconds);
    row.total += item.seconds;
  }
  const sign = order === 'asc' ? 1 : -1;
  return [...rows.values()].sort((a, b) => {
    const by =
      sort === 'total'
        ? a.total - b.total
        : (sort === 'app' ? a.app : a.category).localeCompare(sort === 'app' ? b.app : b.category);
    return by * sign || a.app.localeCompare(b.app);
  });
}
