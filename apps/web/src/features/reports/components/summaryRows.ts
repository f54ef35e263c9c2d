import type { ReportGroup } from '@sundial/core';

/** Above this many groups in all, a Summary opens with its subgroups folded: a row per first-level group. */
export const FOLD_ABOVE = 2_000;

export interface SummaryRow {
  group: ReportGroup;
  depth: number;
  /** The group's place in the tree (its parents' and its own keys), unique in the report. */
  id: string;
  /** How many subgroups it has (0 for a leaf). */
  below: number;
  /** Whether its subgroups are shown. */
  open: boolean;
}

/** How many groups a tree holds at every level. */
export function countGroups(groups: readonly ReportGroup[]): number {
  let n = 0;
  for (const g of groups) n += 1 + countGroups(g.children ?? []);
  return n;
}

/**
 * The rows a Summary table shows, in order: every group when `open` is "all", else the first-level
 * groups and the subgroups of those whose id is in `open` (and so on down).
 */
export function summaryRows(groups: readonly ReportGroup[], open: 'all' | ReadonlySet<string>): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const walk = (list: readonly ReportGroup[], depth: number, path: string) => {
    list.forEach((group, i) => {
      const id = `${path}/${group.key.key ?? '∅'}-${i}`;
      const below = group.children?.length ?? 0;
      const isOpen = below > 0 && (open === 'all' || open.has(id));
      rows.push({ group, depth, id, below, open: isOpen });
      if (isOpen) walk(group.children ?? [], depth + 1, id);
    });
  };
  walk(groups, 0, '');
  return rows;
}
