import { type ActivityDayView, type Categorised, UNCATEGORIZED } from '@sundial/core';

/** An application's row of the Activities table: its category, seconds per day and in all. */
export interface AppRow {
  app: string;
  category: string;
  days: Map<string, number>;
  total: number;
}

export type AppSort = 'app' | 'category' | 'total';

/** What sorts an application into a category (core's categoriser over the workspace's categories). */
type Categorise = (seen: { app: string | null; title: string | null; url: string | null }) => Categorised;

/**
 * The items' seconds per application (all people together), per day and in all, sorted; each
 * application in the category `categorise` gives its name (the rollups keep no titles or sites).
 */
export function appRows(
  items: readonly ActivityDayView[],
  sort: AppSort,
  order: 'asc' | 'desc',
  categorise: Categorise,
): AppRow[] {
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
