import type { ReportGroup } from '@sundial/core';
import { describe, expect, it } from 'vitest';
import { countGroups, type SummaryRow, summaryRows } from './summaryRows';

const group = (key: string, children?: ReportGroup[], more: Partial<ReportGroup> = {}): ReportGroup => ({
  dimension: 'project',
  key: { key, label: key },
  measures: { trackedSeconds: 60 },
  ...(children ? { children } : {}),
  ...more,
});
const tree = [group('a', [group('a1', [group('a1x')]), group('a2')]), group('b'), group('c', [group('c1')])];
/** A row as [key or what it is, depth]. */
const read = (rows: SummaryRow[]) =>
  rows.map((r) => (r.kind === 'group' ? r.group.key.key : r.kind === 'rest' ? `+${r.rest.count}` : r.status));
const groupRow = (rows: SummaryRow[], i: number) => {
  const row = rows[i];
  if (row?.kind !== 'group') throw new Error(`row ${i} is no group`);
  return row;
};

describe('summaryRows', () => {
  it('shows every group, depth first, when all are open', () => {
    const rows = summaryRows(tree, 'all');
    expect(rows.map((r) => (r.kind === 'group' ? [r.group.key.key, r.depth, r.below, r.open] : r.kind))).toEqual([
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
    expect(read(folded)).toEqual(['a', 'b', 'c']);
    const a = groupRow(folded, 0).id;
    const opened = summaryRows(tree, new Set([a]));
    expect(read(opened)).toEqual(['a', 'a1', 'a2', 'b', 'c']);
    const a1 = groupRow(opened, 1).id;
    expect(groupRow(opened, 1).path).toEqual(['a', 'a1']);
    expect(read(summaryRows(tree, new Set([a, a1])))).toEqual(['a', 'a1', 'a1x', 'a2', 'b', 'c']);
    // A subgroup's id is opened alone: its parent stays folded, so it stays hidden.
    expect(read(summaryRows(tree, new Set([a1])))).toEqual(['a', 'b', 'c']);
  });

  it("takes a folded group's subgroups from what was loaded, and says while they come or when they failed", () => {
    const sent = [group('a', undefined, { childCount: 2 }), group('b', undefined, { childCount: 1 })];
    const rows = summaryRows(sent, new Set(), { rest: { count: 40, measures: { trackedSeconds: 9 } } });
    expect(read(rows)).toEqual(['a', 'b', '+40']);
    expect(groupRow(rows, 0).below).toBe(2);
    const [a, b] = [groupRow(rows, 0).id, groupRow(rows, 1).id];
    const loaded = new Map([
      [a, { status: 'success' as const, groups: [group('a1'), group('a2')], rest: { count: 3, measures: {} } }],
      [b, { status: 'error' as const }],
    ]);
    const open = summaryRows(sent, new Set([a, b]), { loaded: (id) => loaded.get(id) });
    expect(read(open)).toEqual(['a', 'a1', 'a2', '+3', 'b', 'error']);
    expect(open.map((r) => r.depth)).toEqual([0, 1, 1, 1, 0, 1]);
    expect(read(summaryRows(sent, new Set([b])))).toEqual(['a', 'b', 'pending']);
    expect(countGroups(sent)).toBe(5);
  });
});
