import type { ReportGroup } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { countGroups, summaryRows } from './summaryRows';

const group = (key: string, children?: ReportGroup[]): ReportGroup => ({
  dimension: 'project',
  key: { key, label: key },
  measures: { trackedSeconds: 60 },
  ...(children ? { children } : {}),
});
const tree = [group('a', [group('a1', [group('a1x')]), group('a2')]), group('b'), group('c', [group('c1')])];

describe('summaryRows', () => {
  it('shows every group, depth first, when all are open', () => {
    const rows = summaryRows(tree, 'all');
    expect(rows.map((r) => [r.group.key.key, r.depth, r.below, r.open])).toEqual([
      ['a', 0, 2, true],
      ['a1', 1, 1, true],
      ['a1x', 2, 0, false],
      ['a2', 1, 0, false],
      ['b', 0, 0, false],
      ['c', 0, 1, true],
      ['c1', 1, 0, false],
    ]);
    expect(countGroups(tree)).toBe(7);
  });

  it('shows the first level and the subgroups of the open groups only', () => {
    const folded = summaryRows(tree, new Set());
    expect(folded.map((r) => r.group.key.key)).toEqual(['a', 'b', 'c']);
    const a = folded[0]?.id as string;
    const opened = summaryRows(tree, new Set([a]));
    expect(opened.map((r) => r.group.key.key)).toEqual(['a', 'a1', 'a2', 'b', 'c']);
    const a1 = opened[1]?.id as string;
    expect(summaryRows(tree, new Set([a, a1])).map((r) => r.group.key.key)).toEqual(['a', 'a1', 'a1x', 'a2', 'b', 'c']);
    // A subgroup's id is opened alone: its parent stays folded, so it stays hidden.
    expect(summaryRows(tree, new Set([a1])).map((r) => r.group.key.key)).toEqual(['a', 'b', 'c']);
  });
});
