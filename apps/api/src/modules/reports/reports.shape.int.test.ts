import type { ReportGroup, SummaryReportView } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';

/**
 * A large Summary sends what the page shows (issue 33): folded to its first level with each
 * group's subgroup count, a group's subgroups on demand (`within`), and the largest groups with
 * the others summed (`limit`). Every figure is checked against the same Summary sent whole.
 */
const ctx = useTestApp();
let owner: SignedUp;
let ws: string;
const { ok, call } = workspaceCalls(ctx, () => ws);
const ids: Record<string, string> = {};

const RANGE = 'preset=custom&from=2026-11-02&to=2026-11-06&timeZone=UTC';
const summary = async (q: string) =>
  (await ok(
    owner,
    'GET',
    `/reports/summary?${RANGE}&measures=trackedSeconds,billableSeconds,entryCount&${q}`,
  )) as SummaryReportView;
const within = (...keys: (string | null)[]) => `within=${encodeURIComponent(JSON.stringify(keys))}`;
const count = (groups: readonly ReportGroup[]): number => groups.reduce((n, g) => n + 1 + count(g.children ?? []), 0);
const strip = (groups: readonly ReportGroup[]) =>
  groups.map(({ key, measures }) => ({ key: key.key, label: key.label, measures }));
const find = (groups: readonly ReportGroup[], key: string | null) => {
  const group = groups.find((g) => g.key.key === key);
  if (!group) throw new Error(`no group ${key}`);
  return group;
};

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
  for (const name of ['Alpha', 'Beta', 'Gamma', 'Delta'])
    ids[name] = (await ok(owner, 'POST', '/projects', { name, isPublic: true })).id;
  const list = await ok(owner, 'POST', '/tag-lists', { name: 'Kinds' });
  ids.t1 = (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'T1' })).id;
  ids.t2 = (await ok(owner, 'POST', `/tag-lists/${list.id}/tags`, { name: 'T2' })).id;
  // Alpha: 4 days, Beta: 2, Gamma: 1, Delta: 1 small, and some without a project; hours differ so ranks are clear.
  const plan: [string | null, number, number, string][] = [
    ['Alpha', 2, 3, 'Design'],
    ['Alpha', 3, 2, 'Design'],
    ['Alpha', 4, 1, 'Build'],
    ['Alpha', 5, 1, 'Build'],
    ['Beta', 2, 4, 'Calls'],
    ['Beta', 3, 2, 'Calls'],
    ['Gamma', 4, 5, 'Ops'],
    ['Delta', 6, 1, 'Ops'],
    [null, 2, 1, 'Admin'],
    [null, 6, 2, 'Admin'],
  ];
  for (const [project, day, hours, note] of plan)
    await ok(owner, 'POST', '/time-entries', {
      start: `2026-11-0${day}T08:00:00Z`,
      end: `2026-11-0${day}T${String(8 + hours).padStart(2, '0')}:00:00Z`,
      ...(project ? { projectId: ids[project] } : {}),
      tagIds: project === 'Alpha' ? [ids.t1, ids.t2] : project === 'Beta' ? [ids.t1] : [],
      billable: project !== null,
      note,
    });
});

describe('a folded Summary', () => {
  it('sends the first level alone, each group with its subgroups counted, when more groups lie beneath', async () => {
    const whole = await summary('groupBy=project,day');
    const folded = await summary('groupBy=project,day&fold=5');
    expect(folded.folded).toBe(true);
    expect(folded.groupCount).toBe(count(whole.groups));
    expect(folded.totals).toEqual(whole.totals);
    expect(strip(folded.groups)).toEqual(strip(whole.groups));
    for (const g of folded.groups) {
      expect(g.children).toBeUndefined();
      expect(g.childCount).toBe(find(whole.groups, g.key.key).children?.length);
    }
    // Under the threshold the tree comes whole, as without fold.
    const open = await summary(`groupBy=project,day&fold=${count(whole.groups)}`);
    expect(open.folded).toBe(false);
    expect(open.groups).toEqual(whole.groups);
  });

  it("sends a group's subgroups on demand, with the group's own figures as totals", async () => {
    const whole = await summary('groupBy=project,day,description');
    const alpha = find(whole.groups, ids.Alpha as string);
    const children = await summary(`groupBy=project,day,description&${within(ids.Alpha as string)}`);
    expect(children.totals).toEqual(alpha.measures);
    expect(children.groups).toEqual(alpha.children);
    expect(children.groupCount).toBe(count(alpha.children ?? []));
    // Two keys down, and "Without project" (null) as a key.
    const none = find(whole.groups, null);
    const day = none.children?.[0] as ReportGroup;
    const leaves = await summary(`groupBy=project,day,description&${within(null, day.key.key)}`);
    expect(leaves.totals).toEqual(day.measures);
    expect(leaves.groups).toEqual(day.children);
    // Folded beneath the group: its days, each with its descriptions counted.
    const foldedChildren = await summary(`groupBy=project,day,description&${within(ids.Alpha as string)}&fold=1`);
    expect(foldedChildren.folded).toBe(true);
    expect(foldedChildren.groups.map((g) => [g.key.key, g.childCount])).toEqual(
      (alpha.children ?? []).map((g) => [g.key.key, g.children?.length]),
    );
  });

  it('groups by a tag (a multi-valued dimension) the same way', async () => {
    const whole = await summary('groupBy=tag,project');
    const t1 = find(whole.groups, ids.t1 as string);
    const children = await summary(`groupBy=tag,project&${within(ids.t1 as string)}`);
    expect(children.groups).toEqual(t1.children);
    expect(children.totals).toEqual(t1.measures);
  });
});

describe('a limited Summary', () => {
  it('keeps the largest groups by tracked time, in name order, and sums the others in one row', async () => {
    const whole = await summary('groupBy=project');
    const limited = await summary('groupBy=project&limit=2');
    const bySize = [...whole.groups].sort(
      (a, b) => (b.measures.trackedSeconds ?? 0) - (a.measures.trackedSeconds ?? 0),
    );
    const kept = bySize.slice(0, 2);
    const left = bySize.slice(2);
    expect(limited.groups.map((g) => g.key.label)).toEqual(kept.map((g) => g.key.label).sort());
    expect(limited.rest?.count).toBe(left.length);
    for (const m of ['trackedSeconds', 'billableSeconds', 'entryCount'] as const)
      expect(limited.rest?.measures[m]).toBe(left.reduce((s, g) => s + (g.measures[m] ?? 0), 0));
    expect(limited.totals).toEqual(whole.totals);
    expect(limited.groupCount).toBe(whole.groups.length);
  });

  it("limits each parent's subgroups too, with each parent's rest", async () => {
    const whole = await summary('groupBy=project,day');
    const limited = await summary('groupBy=project,day&limit=1');
    expect(limited.groups).toHaveLength(1);
    const top = limited.groups[0] as ReportGroup;
    const full = find(whole.groups, top.key.key);
    expect(top.children).toHaveLength(1);
    expect(top.rest?.count).toBe((full.children?.length ?? 0) - 1);
    expect((top.children?.[0]?.measures.trackedSeconds ?? 0) + (top.rest?.measures.trackedSeconds ?? 0)).toBe(
      full.measures.trackedSeconds,
    );
  });

  it("limits a group's subgroups asked on demand, folded or not, as the page asks them", async () => {
    // The page's own request (fold and limit with within) once failed on the embedded database:
    // the rest row named its parent by an ungrouped column.
    const whole = await summary('groupBy=project,day,description');
    const alpha = find(whole.groups, ids.Alpha as string);
    const days = alpha.children ?? [];
    for (const fold of ['&fold=1', '']) {
      const limited = await summary(`groupBy=project,day,description&${within(ids.Alpha as string)}&limit=1${fold}`);
      expect(limited.groups).toHaveLength(1);
      expect(limited.rest?.count).toBe(days.length - 1);
      const kept = limited.groups[0] as ReportGroup;
      expect((kept.measures.trackedSeconds ?? 0) + (limited.rest?.measures.trackedSeconds ?? 0)).toBe(
        alpha.measures.trackedSeconds,
      );
      expect(limited.totals).toEqual(alpha.measures);
    }
  });
});

describe('bad shapes', () => {
  it.each([
    ['not JSON', 'groupBy=project,day&within=abc', 'JSON list'],
    ['as many keys as levels', `groupBy=project&${within('x')}`, 'fewer keys'],
    ['three keys', `groupBy=project,day,description&${within('a', 'b', 'c')}`, 'JSON list'],
    ['a fold of 0', 'groupBy=project&fold=0', 'at least one'],
    ['a limit too large', 'groupBy=project&limit=10001', 'at most 10,000'],
  ])('refuses %s with a clear message', async (_, q, message) => {
    const response = await call(owner, 'GET', `/reports/summary?${RANGE}&${q}`);
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain(message);
  });
});
