import type { ReportGroup, ReportRest } from '@sundial/core';

/** A group's subgroups asked for on demand (a Summary the server sent folded), as far as they came. */
export type LoadedChildren =
  | { status: 'pending' }
  | { status: 'error' }
  | { status: 'success'; groups: ReportGroup[]; rest?: ReportRest | undefined };

export type SummaryRow =
  | {
      kind: 'group';
      group: ReportGroup;
      depth: number;
      /** The group's place in the tree (its parents' and its own keys), unique in the report. */
      id: string;
      /** Its keys and its parents', outermost first: what `within` asks its subgroups with. */
      path: (string | null)[];
      /** How many subgroups it has (0 for a leaf), sent or to ask for. */
      below: number;
      /** Whether its subgroups are shown. */
      open: boolean;
    }
  /** The groups under one parent left out (the smaller ones), summed. */
  | { kind: 'rest'; id: string; depth: number; rest: ReportRest }
  /** An opened group's subgroups on their way, or failed to come. */
  | {
      kind: 'status';
      id: string;
      depth: number;
      status: 'pending' | 'error';
      parentId: string;
      path: (string | null)[];
    };

/** How many groups a tree holds at every level (those left out by a limit too). */
export function countGroups(groups: readonly ReportGroup[]): number {
  let n = 0;
  for (const g of groups) n += 1 + (g.childCount ?? 0) + (g.rest?.count ?? 0) + countGroups(g.children ?? []);
  return n;
}

/**
 * The rows a Summary table shows, in order: every group when `open` is "all", else the first-level
 * groups and the subgroups of those whose id is in `open` (and so on down). A group the server
 * sent without its subgroups (`childCount`) takes them from `loaded` once asked for.
 */
export function summaryRows(
  groups: readonly ReportGroup[],
  open: 'all' | ReadonlySet<string>,
  o: { rest?: ReportRest | undefined; loaded?: (id: string) => LoadedChildren | undefined } = {},
): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const walk = (
    list: readonly ReportGroup[],
    rest: ReportRest | undefined,
    depth: number,
    id: string,
    path: (string | null)[],
  ) => {
    list.forEach((group, i) => {
      const own = `${id}/${group.key.key ?? '∅'}-${i}`;
      const ownPath = [...path, group.key.key];
      const below = group.children?.length ?? group.childCount ?? 0;
      const isOpen = below > 0 && (open === 'all' || open.has(own));
      rows.push({ kind: 'group', group, depth, id: own, path: ownPath, below, open: isOpen });
      if (!isOpen) return;
      if (group.children) walk(group.children, group.rest, depth + 1, own, ownPath);
      else {
        const loaded = o.loaded?.(own) ?? { status: 'pending' };
        if (loaded.status === 'success') walk(loaded.groups, loaded.rest, depth + 1, own, ownPath);
        else
          rows.push({
            kind: 'status',
            id: `${own}/…`,
            depth: depth + 1,
            status: loaded.status,
            parentId: own,
            path: ownPath,
          });
      }
    });
    if (rest && rest.count > 0) rows.push({ kind: 'rest', id: `${id}/+`, depth, rest });
  };
  walk(groups, o.rest, 0, '', []);
  return rows;
}
