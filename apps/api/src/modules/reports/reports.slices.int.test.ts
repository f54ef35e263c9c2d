import { type SummaryReportView, summaryReportView } from '@sundial/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp, workspaceCalls } from '../../../test/harness.js';
import { newId } from '../../platform/ids.js';
import { SLICED_ABOVE } from '../../platform/json-slices.js';

/**
 * A Summary of more than SLICED_ABOVE groups, asked whole, is written in time slices (issue 33):
 * the same JSON, figures and order as the smaller answers written in one piece.
 */
const ctx = useTestApp();
let owner: SignedUp;
const { call } = workspaceCalls(ctx, () => `/api/v1/workspaces/${owner.workspaceId}`);
const ENTRIES = 2_000;
const QUERY =
  '/reports/summary?preset=custom&from=2026-09-01&to=2026-11-30&timeZone=UTC&groupBy=description,day,user&measures=trackedSeconds,entryCount';

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  // 2,000 descriptions (some twice over, on two days), each on a day of its own: over 5,000 groups in three levels.
  const day = 86_400_000;
  await ctx.t.db
    .insertInto('time_entries')
    .values(
      Array.from({ length: ENTRIES }, (_, i) => {
        const start = Date.parse('2026-09-01T08:00:00Z') + (i % 90) * day;
        return {
          id: newId(),
          workspace_id: owner.workspaceId,
          user_id: owner.userId,
          start_at: new Date(start),
          end_at: new Date(start + (1 + (i % 4)) * 900_000),
          duration_seconds: (1 + (i % 4)) * 900,
          created_by_user_id: owner.userId,
          note: `Task ${i % 1_900}`,
        };
      }),
    )
    .execute();
});

describe('a whole Summary of many groups', () => {
  it('is written in slices with the same groups, order and totals as in one piece', async () => {
    const sliced = await call(owner, 'GET', QUERY);
    expect(sliced.statusCode, sliced.body).toBe(200);
    expect(sliced.headers['content-type']).toMatch(/^application\/json/);
    // Sent as it is written: no length known up front (an answer in one piece has one).
    expect(sliced.headers['content-length']).toBeUndefined();
    const whole = sliced.json() as SummaryReportView;
    // Nothing the schema does not declare.
    expect(summaryReportView.parse(whole)).toEqual(whole);
    const count = (groups: SummaryReportView['groups']): number =>
      groups.reduce((n, g) => n + 1 + count(g.children ?? []), 0);
    expect(count(whole.groups)).toBeGreaterThan(SLICED_ABOVE);
    // Its first level as the one-piece answer of depth 1 (1,900 groups), each group's subgroups as
    // the one-piece answer `within` it (both checked against the schema in tests).
    const first = await call(owner, 'GET', `${QUERY}&depth=1`);
    expect(first.headers['content-length']).toBeDefined();
    const level = first.json() as SummaryReportView;
    expect(whole.groups.map(({ children: _, ...g }) => g)).toEqual(level.groups);
    expect(whole.totals).toEqual(level.totals);
    expect(whole.totals.entryCount).toBe(ENTRIES);
    expect({ ...whole, groups: [] }).toEqual({ ...level, groups: [] });
    for (const group of [whole.groups[0], whole.groups[777], whole.groups.at(-1)]) {
      const within = encodeURIComponent(JSON.stringify([group?.key.key]));
      const beneath = (await call(owner, 'GET', `${QUERY}&within=${within}`)).json() as SummaryReportView;
      expect(group?.children).toEqual(beneath.groups);
    }
    // In name order as on screen: "Task 10" before "Task 2".
    expect(whole.groups.slice(0, 3).map((g) => g.key.label)).toEqual(['Task 0', 'Task 1', 'Task 10']);
  });
});
