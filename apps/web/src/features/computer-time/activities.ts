import { type ActivityDayView, type Categorised, UNCATEGORIZED } from '@sundial/core';

/**
 * A row of the Activities table: an application, or a site in it (a browser's time per site where
 * the workspace keeps sites), with its category, seconds per day and in all.
 */
export interface AppRow {
  key: string;
  app: string;
  /** The site (host) of the row, null for the application's time without one. */
  site: string | null;
  /** What the row is called: the site, else the application. */
  name: string;
  category: string;
  days: Map<string, number>;
  total: number;
}

export type AppSort = 'app' | 'category' | 'total';

/** What sorts an application into a category (core's categoriser over the workspace's categories). */
type Categorise = (seen: { app: string | null; title: string | null; url: string | null }) => Categorised;

/**
 * The items' seconds per application and site (all people together), per day and in all, sorted;
 * each in the category `categorise` gives it: a site by the site rules first, then its
 * application's (the rollups keep no titles: title rules sort the Timeline's spans only).
 */
export function appRows(
  items: readonly ActivityDayView[],
  sort: AppSort,
  order: 'asc' | 'desc',
  categorise: Categorise,
): AppRow[] {
  const rows = new Map<string, AppRow>();
  for (const item of items) {
    const key = `${item.app}\u0000${item.site ?? ''}`;
    let row = rows.get(key);
    if (!row) {
      const url = item.site === null ? null : `https://${item.site}/`;
      const path = categorise({ app: item.app, title: null, url }).path;
      const category = path.join(' › ') || UNCATEGORIZED;
      row = { key, app: item.app, site: item.site, name: item.site ?? item.app, category, days: new Map(), total: 0 };
      rows.set(key, row);
    }
    row.days.set(item.day, (row.days.get(item.day) ?? 0) + item.seconds);
    row.total += item.seconds;
  }
  const sign = order === 'asc' ? 1 : -1;
  return [...rows.values()].sort((a, b) => {
    const by =
      sort === 'total'
        ? a.total - b.total
        : (sort === 'app' ? a.name : a.category).localeCompare(sort === 'app' ? b.name : b.category);
    return by * sign || a.name.localeCompare(b.name) || a.app.localeCompare(b.app);
  });
}
