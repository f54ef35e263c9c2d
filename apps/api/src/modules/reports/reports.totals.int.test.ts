import {
  amountCents,
  dayPieces,
  gridView,
  listView,
  ROUNDING_MINUTES,
  ROUNDING_MODES,
  type Rounding,
  roundDuration,
  type ViewEntry,
  weekDays,
  workSeconds,
  zonedInstant,
} from '@sundial/core';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SignedUp, signUp, useTestApp } from '../../../test/harness.js';
import { entitledMembership } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { newId } from '../../platform/ids.js';

/**
 * The report engine's totals equal the timesheet's, for random entries: around DST changes, in
 * zones with :30 and :45 offsets, with every rounding, crossing midnight, with breaks, running.
 * The timesheet side is `listView` (day list) and `gridView` (week grid) of @sundial/core.
 */
const ctx = useTestApp();
let owner: SignedUp;
let actor: Actor;
const projects: (string | null)[] = [null];

const ZONES: [string, string][] = [
  ['Europe/Paris', '2026-03-29'],
  ['Europe/Paris', '2026-10-25'],
  ['America/New_York', '2026-03-08'],
  ['America/New_York', '2026-11-01'],
  ['Asia/Kathmandu', '2026-06-10'],
  ['Asia/Kolkata', '2026-06-10'],
  ['Australia/Lord_Howe', '2026-04-05'],
  ['Australia/Lord_Howe', '2026-10-04'],
];

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  for (const name of ['Alpha', 'Beta']) {
    const response = await ctx.call('POST', `/api/v1/workspaces/${owner.workspaceId}/projects`, owner.cookie, { name });
    projects.push(response.json().id);
  }
  const user = await ctx.t.db.selectFrom('users').selectAll().where('id', '=', owner.userId).executeTakeFirstOrThrow();
  const workspace = await ctx.t.db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', owner.workspaceId)
    .executeTakeFirstOrThrow();
  actor = {
    user,
    userId: user.id,
    membership: entitledMembership({ workspace, role: 'owner', status: 'active' }, { billing: true }),
    via: 'session',
  };
});

interface Generated {
  offsetSeconds: number;
  lengthSeconds: number;
  project: number;
  running: boolean;
  breaks: [number, number | null][];
  billable: boolean;
  billableRate: number | null;
  costRate: number | null;
}

type Stored = ViewEntry & { end: number | null; start: number; billable: boolean; rates: (number | null)[] };

async function store(entries: Stored[]) {
  const db = ctx.t.db;
  await db.deleteFrom('time_entries').where('workspace_id', '=', owner.workspaceId).execute();
  for (const e of entries) {
    await db
      .insertInto('time_entries')
      .values({
        id: e.id,
        workspace_id: owner.workspaceId,
        user_id: owner.userId,
        project_id: e.projectId,
        start_at: new Date(e.start),
        end_at: e.end === null ? null : new Date(e.end),
        duration_seconds: e.end === null ? null : workSeconds(e),
        created_by_user_id: owner.userId,
        billable: e.billable,
        billable_rate_cents: e.rates[0] ?? null,
        cost_rate_cents: e.rates[1] ?? null,
      })
      .execute();
    for (const b of e.breaks ?? [])
      await db
        .insertInto('time_entry_breaks')
        .values({
          id: newId(),
          workspace_id: owner.workspaceId,
          entry_id: e.id,
          start_at: new Date(b.start),
          end_at: b.end === null ? null : new Date(b.end as number),
        })
        .execute();
  }
}

describe('report totals', () => {
  it('equal the day list and the week grid, per day and per project; and the day pieces, priced, per project alone', async () => {
    const reports = ctx.t.app.services.reports;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...ROUNDING_MODES),
        fc.constantFrom(...ROUNDING_MINUTES),
        fc.array(
          fc.record({
            offsetSeconds: fc.integer({ min: 0, max: 8 * 24 * 3600 }),
            lengthSeconds: fc.oneof(fc.integer({ min: 0, max: 30 * 3600 }), fc.integer({ min: 0, max: 600 })),
            project: fc.integer({ min: 0, max: 2 }),
            running: fc.boolean(),
            breaks: fc.array(fc.tuple(fc.nat(30 * 3600), fc.option(fc.nat(4 * 3600))), { maxLength: 2 }),
            billable: fc.boolean(),
            billableRate: fc.option(fc.integer({ min: 0, max: 40_000 })),
            costRate: fc.option(fc.integer({ min: 0, max: 40_000 })),
          }),
          { maxLength: 6 },
        ),
        async ([timeZone, anchor], mode, minutes, generated: Generated[]) => {
          const days = weekDays(anchor, 'monday');
          const base = zonedInstant(days[0] as string, '00:00', timeZone) - 12 * 3600_000;
          const rounding: Rounding = { mode, minutes };
          let runningTaken = false;
          const entries = generated.map((g): Stored => {
            const start = base + g.offsetSeconds * 1000;
            const running = g.running && !runningTaken && g.lengthSeconds > 3600;
            runningTaken ||= running;
            const end = start + g.lengthSeconds * 1000;
            return {
              id: newId(),
              start,
              end: running ? null : end,
              projectId: projects[g.project] ?? null,
              taskId: null,
              billable: g.billable,
              rates: [g.billableRate, g.costRate],
              // One open break at most (a paused timer), as the database allows.
              breaks: g.breaks.map(([at, length], i) => ({
                start: start + at * 1000,
                end: length === null ? (running && i === 0 ? null : start + at * 1000) : start + (at + length) * 1000,
              })),
            };
          });
          // now: the end a running entry would have had, so it is inside the week
          const now = new Date(Math.max(base, ...entries.map((e) => e.start)) + 3 * 3600_000);
          await store(entries);
          const options = { timeZone, rounding, now };
          const list = listView(entries, options);
          const grid = gridView(entries, days, options);
          const report = await reports.summary(
            actor,
            {
              preset: 'custom',
              from: days[0],
              to: days[6],
              tagMode: 'any',
              groupBy: ['day', 'project'],
              measures: ['trackedSeconds', 'entryCount'],
              timeZone,
              weekStart: 'monday',
              roundingMode: mode,
              roundingMinutes: minutes,
            },
            now,
          );
          const byDay = Object.fromEntries(report.groups.map((g) => [g.key.key, g.measures.trackedSeconds]));
          const expectedDays = Object.fromEntries(
            list.days.filter((d) => days.includes(d.day) && d.items.length).map((d) => [d.day, d.total]),
          );
          expect(byDay).toEqual(expectedDays);
          expect(report.totals.trackedSeconds).toBe(grid.total);
          const cells: Record<string, number> = {};
          for (const g of report.groups)
            for (const c of g.children ?? []) cells[`${g.key.key}|${c.key.key ?? ''}`] = c.measures.trackedSeconds ?? 0;
          const expectedCells: Record<string, number> = {};
          for (const row of grid.rows)
            for (const day of days)
              if (row.entries[day]?.length) expectedCells[`${day}|${row.projectId ?? ''}`] = row.cells[day] ?? 0;
          expect(cells).toEqual(expectedCells);
          const pieces = entries.flatMap((e) => dayPieces(e, options).filter((p) => days.includes(p.day)));
          expect(report.totals.entryCount).toBe(new Set(pieces.map((p) => p.entryId)).size);

          // Without a date dimension the engine sums each entry's days in one row (no split rows):
          // the same figures, money included, each day's part rounded and priced on its own.
          const byProject = await reports.summary(
            actor,
            {
              preset: 'custom',
              from: days[0],
              to: days[6],
              tagMode: 'any',
              groupBy: ['project'],
              measures: ['trackedSeconds', 'billableSeconds', 'billableAmount', 'costAmount', 'entryCount'],
              timeZone,
              weekStart: 'monday',
              roundingMode: mode,
              roundingMinutes: minutes,
            },
            now,
          );
          const measured = (keep: (projectId: string | null) => boolean) => {
            const mine = pieces.flatMap((p) => {
              const e = entries.find((x) => x.id === p.entryId) as Stored;
              return keep(e.projectId) ? [{ e, seconds: roundDuration(p.seconds, rounding) }] : [];
            });
            const sum = (of: (x: (typeof mine)[number]) => number) => mine.reduce((total, x) => total + of(x), 0);
            return {
              trackedSeconds: sum((x) => x.seconds),
              billableSeconds: sum((x) => (x.e.billable ? x.seconds : 0)),
              billableAmount: sum((x) =>
                x.e.billable && x.e.rates[0] != null ? amountCents(x.e.rates[0], x.seconds) : 0,
              ),
              costAmount: sum((x) => (x.e.rates[1] != null ? amountCents(x.e.rates[1], x.seconds) : 0)),
              entryCount: new Set(mine.map((x) => x.e.id)).size,
            };
          };
          expect(byProject.totals).toEqual(measured(() => true));
          const reported = [...new Set(pieces.map((p) => entries.find((x) => x.id === p.entryId)?.projectId ?? ''))];
          expect(Object.fromEntries(byProject.groups.map((g) => [g.key.key ?? '', g.measures]))).toEqual(
            Object.fromEntries(reported.map((id) => [id, measured((projectId) => (projectId ?? '') === id)])),
          );
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
