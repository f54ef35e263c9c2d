import { SHARE_SECRET_HEADER, type SharedReportView, SUMMARY_FOLD_ABOVE } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';

/**
 * A shared link to a large Summary is shaped as the signed-in page (issue 33): folded above
 * SUMMARY_FOLD_ABOVE groups, each first-level group with its subgroups' count, and a group's
 * subgroups on demand (`within`), so a public page never receives the whole tree.
 */
const ctx = useTestApp();
let owner: SignedUp;
let link: { id: string; secret: string };
const { ok } = workspaceCalls(ctx, () => `/api/v1/workspaces/${owner.workspaceId}`);
const DESCRIPTIONS = 700;

const view = (within?: string) =>
  ctx.t.app.inject({
    method: 'GET',
    url: `/api/v1/shared-reports/${link.id}${within === undefined ? '' : `?within=${encodeURIComponent(within)}`}`,
    headers: { [SHARE_SECRET_HEADER]: link.secret },
  });
type SummaryShare = Extract<SharedReportView['report'], { engine: 'summary' }>;
const summaryOf = async (within?: string): Promise<SummaryShare> => {
  const response = await view(within);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as SharedReportView).report as SummaryShare;
};

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  // 700 descriptions, each on its own day and person: 2,100 groups by description, day and person.
  const hour = 3_600_000;
  const first = Date.parse('2026-10-01T08:00:00Z');
  await ctx.t.db
    .insertInto('time_entries')
    .values(
      Array.from({ length: DESCRIPTIONS }, (_, i) => ({
        id: newId(),
        workspace_id: owner.workspaceId,
        user_id: owner.userId,
        start_at: new Date(first + (i % 60) * 24 * hour),
        end_at: new Date(first + (i % 60) * 24 * hour + (1 + (i % 3)) * 1_800_000),
        duration_seconds: (1 + (i % 3)) * 1_800,
        created_by_user_id: owner.userId,
        note: `Task ${String(i).padStart(3, '0')}`,
      })),
    )
    .execute();
  const saved = await ok(owner, 'POST', '/saved-reports', {
    name: 'Every task',
    kind: 'summary',
    query: 'preset=custom&from=2026-10-01&to=2026-11-30&timeZone=UTC&groupBy=description,day,user',
  });
  link = await ok(owner, 'POST', `/saved-reports/${saved.id}/links`, {});
});

describe('a shared large Summary', () => {
  it('comes folded, its first level alone with each group’s subgroups counted, and its bars', async () => {
    expect(3 * DESCRIPTIONS).toBeGreaterThan(SUMMARY_FOLD_ABOVE);
    const report = await summaryOf();
    expect(report.view.folded).toBe(true);
    expect(report.view.groupCount).toBe(3 * DESCRIPTIONS);
    expect(report.view.groups).toHaveLength(DESCRIPTIONS);
    for (const group of report.view.groups) {
      expect(group.children).toBeUndefined();
      expect(group.childCount).toBe(1);
    }
    const tracked = report.view.groups.reduce((n, g) => n + (g.measures.trackedSeconds ?? 0), 0);
    expect(report.view.totals.trackedSeconds).toBe(tracked);
    expect(report.bars?.points.reduce((n, p) => n + p.seconds, 0)).toBe(tracked);
  });

  it("sends a group's subgroups on demand, with the group's own figures as totals and no bars", async () => {
    const whole = await summaryOf();
    const task = whole.view.groups.find((g) => g.key.key === 'Task 061');
    const opened = await summaryOf('["Task 061"]');
    expect(opened.bars).toBeUndefined();
    expect(opened.view.totals).toEqual(task?.measures);
    expect(opened.view.groups.map((g) => g.key.key)).toEqual(['2026-10-02']);
    // Two groups beneath: they come whole, the day with its person.
    expect(opened.view.groups[0]?.children?.map((g) => g.key.key)).toEqual([owner.userId]);
    expect(opened.view.groups[0]?.measures.trackedSeconds).toBe(2 * 1_800);
  });

  it('answers 422 to a group that is not one, and 404 without the secret', async () => {
    for (const [within, message] of [
      ['Task 000', 'JSON list'],
      ['["Task 000", "2026-10-01", "x"]', 'JSON list'],
      ['[1]', 'JSON list'],
    ]) {
      const response = await view(within);
      expect(response.statusCode, within).toBe(422);
      expect(response.body).toContain(message);
    }
    const anonymous = await ctx.t.app.inject({
      method: 'GET',
      url: `/api/v1/shared-reports/${link.id}?within=${encodeURIComponent('["Task 000"]')}`,
    });
    expect(anonymous.statusCode).toBe(404);
  });
});
