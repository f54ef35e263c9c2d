import type { ReportDimension, ReportQuery } from '@sundial/core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { joinWorkspace, type SignedUp, sendCsv, signUp, useTestApp } from '../../../test/harness.js';
import { entitledMembership } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import { newId } from '../../platform/ids.js';
import { createReportsService, type ReportsService } from './reports.service.js';
import { type FactsSource, factsSource } from './reports.time-source.js';

/**
 * The Summary read from report_rollups equals the raw computation (the engine over the entries,
 * REPORT_ROLLUPS off), after random writes of every kind: created, edited, deleted and restored
 * entries, bulk edits and deletes, imports, timers (running, paused: breaks), invoiced marks,
 * rates re-applied, a task's and a project's deletion (the foreign keys' own updates), and changes
 * of the report zone and rounding. The rollup rows also equal a rebuild from scratch, and the
 * coarse rollups (without the person, by month) equal the sums of report_rollups, before and
 * after their appended rows are folded; a Summary read through each of them equals the raw one.
 */
const ctx = useTestApp();
let owner: SignedUp;
let actor: Actor;
let ws: string;
let rolled: ReportsService;
let guarded: ReportsService;
let raw: ReportsService;

const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Kathmandu', 'UTC'];
const DEFINITIONS: ReportDimension[][] = [
  ['project'],
  ['user', 'project', 'task'],
  ['client', 'project'],
  ['day', 'billable'],
  ['week', 'invoiced'],
  ['month', 'task'],
  ['user'],
  ['month', 'user', 'billable'],
  ['year', 'invoiced'],
  ['client', 'user'],
];
/** The sources the Summaries above were read from (each must have served some). */
const served = new Set<FactsSource>();
const MEASURES = [
  'trackedSeconds',
  'billableSeconds',
  'billableAmount',
  'costAmount',
  'invoicedSeconds',
  'invoicedAmount',
] as const;

/** A small seeded generator, so a failure replays. */
function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
    chance: (p: number) => next() < p,
  };
}

beforeAll(async () => {
  owner = await signUp(ctx.t.app);
  ws = `/api/v1/workspaces/${owner.workspaceId}`;
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
  const services = ctx.t.app.services;
  // The rollups read whatever is pending (pendingShare 0), so pending days go through their correction;
  // `guarded` is the app's (the entries instead while many days are pending).
  rolled = createReportsService(ctx.t.db, services.timeEntries, services.projects, { rollups: true, pendingShare: 0 });
  guarded = createReportsService(ctx.t.db, services.timeEntries, services.projects, { rollups: true });
  raw = createReportsService(ctx.t.db, services.timeEntries, services.projects, { rollups: false });
  const settings = await ctx.call('PATCH', `${ws}/time-settings`, owner.cookie, { maxEntryMinutes: 10_080 });
  expect(settings.statusCode, settings.body).toBe(200);
});

async function rollupRows() {
  const { rows } = await sql<
    Record<string, unknown>
  >`select day::text, user_id, project_id, task_id, billable, invoiced,
      seconds::text, billable_cents::text, cost_cents::text
    from report_rollups where workspace_id = ${owner.workspaceId} and seconds <> 0
    order by 1, 2, 3, 4, 5, 6`.execute(ctx.t.db);
  return rows;
}

const MONTH_OF = 'day - extract(day from day)::int + 1';
const COARSE = [
  { table: 'report_rollups_tasks', period: 'day', of: 'day', keys: ['project_id', 'task_id', 'billable', 'invoiced'] },
  {
    table: 'report_rollups_task_months',
    period: 'month',
    of: MONTH_OF,
    keys: ['project_id', 'task_id', 'billable', 'invoiced'],
  },
  { table: 'report_rollups_people_months', period: 'month', of: MONTH_OF, keys: ['user_id', 'billable', 'invoiced'] },
  {
    table: 'report_rollups_work_months',
    period: 'month',
    of: MONTH_OF,
    keys: ['user_id', 'project_id', 'task_id', 'billable', 'invoiced'],
  },
  {
    table: 'report_rollups_work_years',
    period: 'year',
    of: 'day - extract(doy from day)::int + 1',
    keys: ['user_id', 'project_id', 'task_id', 'billable', 'invoiced'],
  },
];
let folds = 0;

/** How many of the workspace's days wait for the fold. */
const pendingDays = async () =>
  (
    await sql<{ n: number }>`select count(*)::int as n from report_rollups_pending
      where workspace_id = ${owner.workspaceId}`.execute(ctx.t.db)
  ).rows[0]?.n ?? 0;

/**
 * Each coarse rollup, its rows summed per key, equals report_rollups summed per the same key; after
 * a fold (every other call) still, with one row per key and none left fresh.
 */
async function expectCoarseEqualRollups() {
  const check = async (folded: boolean) => {
    for (const c of COARSE) {
      const keys = sql.raw(c.keys.join(', '));
      const order = sql.raw(Array.from({ length: c.keys.length + 1 }, (_, i) => i + 1).join(', '));
      const sums = sql`sum(seconds)::text as seconds, sum(billable_cents)::text as billable_cents, sum(cost_cents)::text as cost_cents`;
      const kept = await sql<Record<string, unknown>>`select ${sql.raw(c.period)}::text as period, ${keys},
          sum(rollup_rows)::text as n, ${sums}
        from ${sql.raw(c.table)} where workspace_id = ${owner.workspaceId}
        group by ${sql.raw(c.period)}, ${keys} having sum(rollup_rows) <> 0 order by ${order}`.execute(ctx.t.db);
      const expected = await sql<Record<string, unknown>>`select (${sql.raw(c.of)})::text as period, ${keys},
          count(*)::text as n, ${sums}
        from report_rollups where workspace_id = ${owner.workspaceId}
        group by 1, ${keys} order by ${order}`.execute(ctx.t.db);
      expect(kept.rows, c.table).toEqual(expected.rows);
      if (folded) {
        const rows = await sql<{ n: number; fresh: number }>`select count(*)::int as n,
            count(*) filter (where fresh)::int as fresh
          from ${sql.raw(c.table)} where workspace_id = ${owner.workspaceId}`.execute(ctx.t.db);
        expect(rows.rows[0], `${c.table} folded`).toEqual({ n: expected.rows.length, fresh: 0 });
      }
    }
  };
  await check(false);
  if (folds++ % 2 === 0) {
    expect(await rolled.foldRollups()).toBeGreaterThanOrEqual(0);
    await check(true);
  }
}

/**
 * Once the job has rebuilt what a change of zone or rounding left stale, the rollup rows as the
 * triggers left them equal a rebuild from the entries (rolled back).
 */
async function expectRowsEqualRebuild() {
  await rolled.rebuildStaleRollups();
  // The days writes marked pending, recomputed by the job's fold (the Summaries read them from the entries until then).
  await rolled.foldRollups();
  expect(await pendingDays()).toBe(0);
  const kept = await rollupRows();
  let rebuilt: Record<string, unknown>[] = [];
  await ctx.t.db
    .transaction()
    .execute(async (tx) => {
      await sql`select report_rollups_rebuild(${owner.workspaceId}::uuid)`.execute(tx);
      rebuilt = (
        await sql<Record<string, unknown>>`select day::text, user_id, project_id, task_id, billable, invoiced,
          seconds::text, billable_cents::text, cost_cents::text
        from report_rollups where workspace_id = ${owner.workspaceId} and seconds <> 0
        order by 1, 2, 3, 4, 5, 6`.execute(tx)
      ).rows;
      throw new Error('rollback');
    })
    .catch((error: Error) => {
      if (error.message !== 'rollback') throw error;
    });
  expect(kept).toEqual(rebuilt);
  await expectCoarseEqualRollups();
}

/**
 * Every definition's Summary read through the rollups equals the raw one: over a range with ragged
 * ends around a whole month (read from the monthly rollups and the daily ones), over whole months, and
 * over ends mostly inside their month (read as the month less its other days: negated daily rows).
 */
async function expectSummariesEqual(now: Date, extra: Partial<ReportQuery> = {}) {
  for (const [from, to] of [
    ['2026-10-18', '2026-12-05'],
    ['2026-10-01', '2026-11-30'],
    // Ends read as their month less its other days (Oct 26-31, Nov 1), where the entries are.
    ['2026-09-01', '2026-10-25'],
    ['2026-11-02', '2026-12-31'],
    // By person and project: 2026 less Oct 26-31, November and December; a whole year.
    ['2026-01-01', '2026-10-25'],
    ['2025-12-15', '2026-12-31'],
    // No whole month, but most of October: October less Oct 1-4, and Nov 1-3.
    ['2026-10-05', '2026-11-03'],
  ])
    for (const groupBy of DEFINITIONS) {
      const q = {
        preset: 'custom',
        from,
        to,
        tagMode: 'any',
        groupBy,
        measures: [...MEASURES],
        ...extra,
      } as ReportQuery;
      const f = await rolled.resolve(actor, q, now);
      expect(f.rollups, 'the rollups serve this report').toBe(true);
      const source = factsSource(f, groupBy, false);
      served.add(source);
      const fromRollups = await rolled.summary(actor, q, now);
      const fromEntries = await raw.summary(actor, q, now);
      expect(fromRollups, `${JSON.stringify(groupBy)} from ${source}`).toEqual(fromEntries);
      if (from === '2026-10-18')
        expect(await guarded.summary(actor, q, now), 'as the app reads it').toEqual(fromEntries);
    }
}

/** A finished entry of `userId` written straight to the table (a writer of its own, outside the API). */
const insertEntry = (
  tx: typeof ctx.t.db,
  o: { userId: string; day: string; start: string; minutes: number; billable?: boolean },
) =>
  tx
    .insertInto('time_entries')
    .values({
      id: newId(),
      workspace_id: owner.workspaceId,
      user_id: o.userId,
      project_id: null,
      start_at: new Date(`${o.day}T${o.start}:00Z`),
      end_at: new Date(Date.parse(`${o.day}T${o.start}:00Z`) + o.minutes * 60_000),
      duration_seconds: o.minutes * 60,
      created_by_user_id: o.userId,
      billable: o.billable ?? false,
    })
    .execute();

/** A promise and the function that resolves it, to order two transactions' steps. */
const signal = () => {
  let done: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    done = resolve;
  });
  return { promise, done };
};

describe('report rollups', () => {
  it('give the raw computation after random writes of every kind', async () => {
    const r = prng(14);
    const call = ctx.call;
    const cookie = owner.cookie;
    const projects: string[] = [];
    const tasks: Record<string, string[]> = {};
    const client = (await call('POST', `${ws}/clients`, cookie, { name: 'Acme' })).json().id as string;
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const project = await call('POST', `${ws}/projects`, cookie, {
        name,
        ...(name === 'Alpha' ? { clientId: client } : {}),
      });
      expect(project.statusCode, project.body).toBe(201);
      const id = project.json().id as string;
      projects.push(id);
      tasks[id] = [];
      for (const task of ['Design', 'Build']) {
        const created = await call('POST', `${ws}/projects/${id}/tasks`, cookie, { name: task });
        expect(created.statusCode, created.body).toBe(201);
        tasks[id]?.push(created.json().id);
      }
    }
    const entries: string[] = [];
    const deleted: string[] = [];
    const done: Record<string, number> = {};
    const base = Date.parse('2026-10-20T00:00:00Z');
    const randomEntry = () => {
      const project = r.chance(0.15) ? null : r.pick(projects);
      const start = base + r.int(0, 14 * 24 * 4) * 15 * 60_000 + r.int(0, 59) * 1000;
      const length = r.pick([r.int(60, 3 * 3600), r.int(3600, 30 * 3600), 0]);
      return {
        start: new Date(start).toISOString(),
        end: new Date(start + length * 1000).toISOString(),
        projectId: project,
        taskId: project && r.chance(0.6) ? r.pick(tasks[project] ?? []) : null,
        billable: r.chance(0.6),
        note: `n${r.int(0, 9)}`,
      };
    };
    const ops: Record<string, () => Promise<boolean>> = {
      async create() {
        const created = await call('POST', `${ws}/time-entries`, cookie, randomEntry());
        if (created.statusCode !== 201) return false;
        entries.push(created.json().id);
        return true;
      },
      async edit() {
        if (!entries.length) return false;
        const { start, end, projectId, taskId, billable } = randomEntry();
        const body = r.pick([{ start, end }, { projectId, taskId }, { billable }, { end }]);
        return (await call('PATCH', `${ws}/time-entries/${r.pick(entries)}`, cookie, body)).statusCode === 200;
      },
      async remove() {
        if (!entries.length) return false;
        const id = entries.splice(r.int(0, entries.length - 1), 1)[0] as string;
        deleted.push(id);
        return (await call('DELETE', `${ws}/time-entries/${id}`, cookie)).statusCode < 300;
      },
      async restore() {
        if (!deleted.length) return false;
        const ids = deleted.splice(0, r.int(1, deleted.length));
        const restored = await call('POST', `${ws}/time-entries/restore`, cookie, { ids });
        if (restored.statusCode !== 200) return false;
        entries.push(...ids);
        return true;
      },
      async bulkUpdate() {
        if (entries.length < 2) return false;
        const ids = [...new Set([r.pick(entries), r.pick(entries), r.pick(entries)])];
        const project = r.pick(projects);
        const set = r.pick([{ billable: r.chance(0.5) }, { projectId: project, taskId: null }]);
        return (await call('POST', `${ws}/time-entries/bulk-update`, cookie, { ids, set })).statusCode === 200;
      },
      async bulkDelete() {
        if (entries.length < 3) return false;
        const ids = [entries.pop() as string, entries.pop() as string];
        deleted.push(...ids);
        return (await call('POST', `${ws}/time-entries/bulk-delete`, cookie, { ids })).statusCode < 300;
      },
      async importFile() {
        const date = r.int(20, 30);
        const day = `2026-10-${date}`;
        const hour = String(r.int(10, 23)).padStart(2, '0');
        const csv = [
          'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount ()',
          `Ann,${owner.email},Acme,Alpha,Design,Imported,Yes,${day},${hour}:00:00,${day},${hour}:45:00,00:45:00,,`,
          `Ann,${owner.email},,Imported,,Late,No,${day},23:30:00,2026-10-${date + 1},01:15:00,01:45:00,,`,
        ].join('\n');
        const read = await sendCsv(ctx.t.app, `${ws}/imports?source=toggl`, cookie, csv);
        expect(read.statusCode, read.body).toBe(201);
        expect(read.json().status, read.body).toBe('ready');
        const run = await call('POST', `${ws}/imports/${read.json().id}/run`, cookie);
        if (run.statusCode !== 202) return false;
        await ctx.t.app.services.jobs.drain();
        return true;
      },
      async timer() {
        const step = r.pick(['start', 'pause', 'resume', 'stop']);
        const body = step === 'start' ? { projectId: r.pick(projects), billable: true } : {};
        return (await call('POST', `${ws}/timer/${step}`, cookie, body)).statusCode < 300;
      },
      async breakInPast() {
        // A break added to a finished entry by SQL: only the break triggers see it.
        if (!entries.length) return false;
        const id = r.pick(entries);
        const entry = await ctx.t.db
          .selectFrom('time_entries')
          .select(['start_at', 'end_at'])
          .where('id', '=', id)
          .executeTakeFirst();
        if (!entry?.end_at) return false;
        const start = new Date(entry.start_at).getTime();
        const length = new Date(entry.end_at).getTime() - start;
        if (length < 120_000) return false;
        await ctx.t.db
          .insertInto('time_entry_breaks')
          .values({
            id: newId(),
            workspace_id: owner.workspaceId,
            entry_id: id,
            start_at: new Date(start + Math.floor(length / 3)),
            end_at: new Date(start + Math.floor(length / 2)),
          })
          .execute();
        return true;
      },
      async invoiced() {
        if (!entries.length) return false;
        const ids = [...new Set([r.pick(entries), r.pick(entries)])];
        const marked = await call('POST', `${ws}/reports/invoiced`, cookie, { ids, invoiced: r.chance(0.7) });
        return marked.statusCode === 200;
      },
      async rates() {
        // Rates re-applied to past entries: one update statement over many rows.
        await ctx.t.db
          .updateTable('time_entries')
          .set({ billable_rate_cents: r.int(0, 20_000), cost_rate_cents: r.chance(0.3) ? null : r.int(0, 9_000) })
          .where('workspace_id', '=', owner.workspaceId)
          .where('project_id', '=', r.pick(projects))
          .execute();
        return true;
      },
      async settings() {
        const body = r.chance(0.5)
          ? { reportTimeZone: r.pick(ZONES) }
          : { roundingMode: r.pick(['none', 'up', 'down', 'nearest']), roundingMinutes: r.pick([1, 5, 15, 60]) };
        const changed = (await call('PATCH', `${ws}/time-settings`, cookie, body)).statusCode === 200;
        // Rebuilt by the job at once, or only later: writes go on meanwhile and reports read the entries.
        if (r.chance(0.5)) await rolled.rebuildStaleRollups();
        return changed;
      },
      async deleteTask() {
        const project = r.pick(projects);
        const list = tasks[project] ?? [];
        if (!list.length) return false;
        const id = list.pop() as string;
        return (await call('DELETE', `${ws}/tasks/${id}`, cookie)).statusCode < 300;
      },
    };
    const weights: [string, number][] = [
      ['create', 10],
      ['edit', 5],
      ['remove', 2],
      ['restore', 2],
      ['bulkUpdate', 2],
      ['bulkDelete', 1],
      ['importFile', 1],
      ['timer', 3],
      ['breakInPast', 2],
      ['invoiced', 2],
      ['rates', 1],
      ['settings', 2],
      ['deleteTask', 1],
    ];
    const bag = weights.flatMap(([name, weight]) => Array.from({ length: weight }, () => name));
    const run = async (name: string) => {
      const ran = await (ops[name] as () => Promise<boolean>)();
      if (ran) done[name] = (done[name] ?? 0) + 1;
      return ran;
    };
    // Entries first, then every kind of write until it has run once (a timer step may not fit yet).
    for (let i = 0; i < 12; i++) await run('create');
    for (const [name] of weights) for (let tries = 0; tries < 12 && !(await run(name)); tries++);
    // Summaries read the days writes left pending from the entries, before the fold and after it.
    let readPending = 0;
    if ((await pendingDays()) > 0) readPending++;
    await expectSummariesEqual(new Date());
    await expectRowsEqualRebuild();
    await expectSummariesEqual(new Date());
    // Then writes at random by weight: 60 where the whole suite runs, fewer in PGlite's parity sample
    // (the same triggers on the same engine; vitest.config.ts, issue 31).
    const randomWrites = Number(process.env.ROLLUP_RANDOM_WRITES ?? 60);
    for (let i = 0; i < randomWrites; i++) {
      await run(r.pick(bag));
      if (i % 5 === 4) {
        if ((await pendingDays()) > 0) readPending++;
        await expectSummariesEqual(new Date());
        await expectRowsEqualRebuild();
      }
    }
    // A project deleted: its entries lose it (and its tasks) through the foreign keys.
    const gone = projects.pop() as string;
    expect((await call('DELETE', `${ws}/projects/${gone}`, cookie)).statusCode).toBeLessThan(300);
    if ((await pendingDays()) > 0) readPending++;
    await expectSummariesEqual(new Date());
    await expectRowsEqualRebuild();
    await expectSummariesEqual(new Date(), { billable: true, projects: [projects[0] as string] });
    await expectSummariesEqual(new Date(), { clients: [client], invoiced: false });
    await expectSummariesEqual(new Date(), { withoutProject: true });
    // Someone named: no reading without the person, but by month per person.
    await expectSummariesEqual(new Date(), { users: [owner.userId] });
    expect([...served].sort()).toEqual(['people', 'rollups', 'tasks', 'work']);
    expect(readPending, 'Summaries read pending days').toBeGreaterThan(2);
    // Every kind of write ran at least once.
    for (const [name] of weights) expect(done[name] ?? 0, name).toBeGreaterThan(0);
  }, 240_000);

  it('are rebuilt by a job after a change of zone, read from the entries until then', async () => {
    const q: ReportQuery = {
      preset: 'custom',
      from: '2026-10-18',
      to: '2026-12-05',
      tagMode: 'any',
      groupBy: ['user'],
    };
    await rolled.rebuildStaleRollups();
    const before = (await ctx.call('GET', `${ws}/time-settings`, owner.cookie)).json();
    const zone = before.reportTimeZone === 'Asia/Kathmandu' ? 'America/St_Johns' : 'Asia/Kathmandu';
    expect((await ctx.call('PATCH', `${ws}/time-settings`, owner.cookie, { reportTimeZone: zone })).statusCode).toBe(
      200,
    );
    // Stale: no report reads the rollups, and the figures are the entries' own in the new zone.
    expect((await rolled.resolve(actor, q)).rollups).toBe(false);
    const now = new Date();
    expect(await rolled.summary(actor, q, now)).toEqual(await raw.summary(actor, q, now));
    const version = (
      await ctx.t.db
        .selectFrom('time_settings')
        .select('rollups_version')
        .where('workspace_id', '=', owner.workspaceId)
        .executeTakeFirstOrThrow()
    ).rollups_version;
    // A second change while a rebuild runs: the rebuild of the first one may not mark them ready.
    const back = before.reportTimeZone as string;
    expect((await ctx.call('PATCH', `${ws}/time-settings`, owner.cookie, { reportTimeZone: back })).statusCode).toBe(
      200,
    );
    expect(await ctx.t.app.services.timeEntries.markRollupsReady(owner.workspaceId, version)).toBe(false);
    expect((await rolled.resolve(actor, { ...q, timeZone: back })).rollups).toBe(false);
    // The job rebuilds everyone in the current zone, then they are read again, equal to the entries.
    expect(await rolled.rebuildStaleRollups()).toBe(1);
    expect((await rolled.resolve(actor, q)).rollups).toBe(true);
    await expectRowsEqualRebuild();
    await expectSummariesEqual(new Date());
    expect(await rolled.rebuildStaleRollups()).toBe(0);
  });

  it('read the entries while many of the range’s person-days wait for the fold', async () => {
    await rolled.foldRollups();
    const members = Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from memberships where workspace_id = ${owner.workspaceId}`.execute(ctx.t.db)
      ).rows[0]?.n,
    );
    // A range of 8 x members person-days: one pending day is one in eight (still the rollups), two are more.
    const from = '2027-03-01';
    const to = new Date(Date.parse(`${from}T00:00:00Z`) + (8 * members - 1) * 86_400_000).toISOString().slice(0, 10);
    const q: ReportQuery = { preset: 'custom', from, to, tagMode: 'any', groupBy: ['project'] };
    expect((await guarded.resolve(actor, q)).rollups).toBe(true);
    await insertEntry(ctx.t.db, { userId: owner.userId, day: '2027-03-02', start: '09:00', minutes: 30 });
    expect((await guarded.resolve(actor, q)).rollups).toBe(true);
    await insertEntry(ctx.t.db, { userId: owner.userId, day: '2027-03-03', start: '09:00', minutes: 30 });
    expect((await guarded.resolve(actor, q)).rollups).toBe(false);
    expect(await guarded.summary(actor, q)).toEqual(await raw.summary(actor, q));
    // The rollups' own tests read them whatever is pending.
    expect((await rolled.resolve(actor, q)).rollups).toBe(true);
    expect(await rolled.foldRollups()).toBe(2);
    expect((await guarded.resolve(actor, q)).rollups).toBe(true);
  });

  it('fall back to the entries for another zone, another rounding, tags, descriptions and entry counts', async () => {
    const q: ReportQuery = {
      preset: 'custom',
      from: '2026-10-18',
      to: '2026-12-05',
      tagMode: 'any',
      groupBy: ['project'],
    };
    const settings = (await ctx.call('GET', `${ws}/time-settings`, owner.cookie)).json();
    const other = settings.reportTimeZone === 'UTC' ? 'Asia/Tokyo' : 'UTC';
    expect((await rolled.resolve(actor, q)).rollups).toBe(true);
    expect((await rolled.resolve(actor, { ...q, timeZone: other })).rollups).toBe(false);
    expect((await rolled.resolve(actor, { ...q, description: 'n1' })).rollups).toBe(false);
    expect((await rolled.resolve(actor, { ...q, roundingMode: 'up', roundingMinutes: 30 })).rollups).toBe(
      settings.roundingMode === 'up' && settings.roundingMinutes === 30,
    );
    expect((await raw.resolve(actor, q)).rollups).toBe(false);
    // The viewer's other zone gives the raw figures of that zone, which the report zone's rollups cannot.
    const now = new Date();
    const inOther: ReportQuery = { ...q, timeZone: other, measures: ['trackedSeconds', 'entryCount'] };
    expect(await rolled.summary(actor, inOther, now)).toEqual(await raw.summary(actor, inOther, now));
  });

  it('stay right when two transactions write the same person and day at once', async () => {
    const db = ctx.t.db;
    const day = '2026-11-10';
    const insert = (tx: typeof db, start: string, minutes: number) =>
      insertEntry(tx, { userId: owner.userId, day, start, minutes });
    // The first entry is the longest, so neither writer below touches time_entry_extents (a row lock that would serialize them).
    await insert(db, '04:00', 60);
    let firstWrote: () => void = () => {};
    const wrote = new Promise<void>((resolve) => {
      firstWrote = resolve;
    });
    const first = db.transaction().execute(async (tx) => {
      await insert(tx, '07:00', 20);
      firstWrote();
      // Hold the transaction open while the second one writes the same person and day.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await wrote;
    const second = db.transaction().execute(async (tx) => {
      await insert(tx, '08:00', 30);
    });
    await Promise.all([first, second]);
    // Without a lock per person the second recompute would miss the first's entry, or both rows would stay.
    await expectRowsEqualRebuild();
    await expectSummariesEqual(new Date());
  });
  // PGlite has one connection: its transactions take turns, so only PostgreSQL can interleave them.
  it.skipIf(!process.env.DATABASE_URL)(
    'let two people write the same days at once, in opposite orders, both committed',
    async () => {
      const db = ctx.t.db;
      const other = await joinWorkspace(ctx.t, owner.workspaceId, 'member');
      // No project (insertEntry): project_time_totals (a row per project, updated in place) would make writers of one project take turns.
      const insert = (tx: typeof db, userId: string, day: string, start: string, minutes: number) =>
        insertEntry(tx, { userId, day, start, minutes, billable: true });
      // Both days hold the project's rows already (folded), and a long entry keeps time_entry_extents out of the way.
      await insert(db, owner.userId, '2026-11-12', '01:00', 120);
      await insert(db, other.userId, '2026-11-13', '01:00', 120);
      await rolled.foldRollups();
      // A writer that locked the coarse rows it updates would hold day 12 while wanting day 13, the other the reverse.
      const firstWrote = signal();
      const secondWrote = signal();
      const first = db.transaction().execute(async (tx) => {
        await insert(tx, owner.userId, '2026-11-12', '06:00', 20);
        firstWrote.done();
        await secondWrote.promise;
        await insert(tx, owner.userId, '2026-11-13', '06:00', 25);
      });
      const second = db.transaction().execute(async (tx) => {
        await firstWrote.promise;
        await insert(tx, other.userId, '2026-11-13', '07:00', 30);
        secondWrote.done();
        await insert(tx, other.userId, '2026-11-12', '07:00', 35);
      });
      await Promise.all([first, second]);
      // Both committed (the workspace's rounding may change the seconds: the sums are checked against report_rollups next).
      const kept = await sql<{
        day: string;
        n: number;
      }>`select (start_at at time zone 'UTC')::date::text as day, count(*)::int as n
        from time_entries where workspace_id = ${owner.workspaceId} and project_id is null
          and start_at >= '2026-11-12' and start_at < '2026-11-14'
        group by 1 order by 1`.execute(db);
      expect(kept.rows).toEqual([
        { day: '2026-11-12', n: 3 },
        { day: '2026-11-13', n: 3 },
      ]);
      await expectRowsEqualRebuild();
      await expectSummariesEqual(new Date());
    },
  );
});

describe('the fold of pending days', () => {
  // PGlite has one connection: a fold and a write take turns there, so only PostgreSQL can interleave them.
  it.skipIf(!process.env.DATABASE_URL)(
    'leaves a day a writer holds to the next fold, and a writer marks again a day the fold holds',
    async () => {
      const db = ctx.t.db;
      const insert = (tx: typeof db, day: string, start: string, minutes: number) =>
        insertEntry(tx, { userId: owner.userId, day, start, minutes });
      const pendingOn = async (day: string) =>
        (
          await sql<{ n: number }>`select count(*)::int as n from report_rollups_pending
            where workspace_id = ${owner.workspaceId} and day = ${day}::date`.execute(db)
        ).rows[0]?.n;
      // Longest first: time_entry_extents (a row lock) stays out of the way.
      await insert(db, '2026-11-16', '00:30', 300);
      await rolled.foldRollups();

      // A writer holds Nov 17's pending row until it commits: the fold skips it without waiting.
      await insert(db, '2026-11-17', '06:00', 20);
      const wrote = signal();
      const folded = signal();
      const writer = db.transaction().execute(async (tx) => {
        await insert(tx, '2026-11-17', '08:00', 30);
        wrote.done();
        await folded.promise;
      });
      await wrote.promise;
      await rolled.foldRollups();
      folded.done();
      await writer;
      expect(await pendingOn('2026-11-17')).toBe(1);
      await expectSummariesEqual(new Date());

      // The fold holds Nov 18's row (deleted, not committed): a writer of that day waits for it, then marks it again.
      await insert(db, '2026-11-18', '06:00', 20);
      const picked = signal();
      const fold = db.transaction().execute(async (tx) => {
        await sql`select report_rollups_fold_pending(${owner.workspaceId}::uuid, 1000)`.execute(tx);
        picked.done();
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      await picked.promise;
      await insert(db, '2026-11-18', '09:00', 40);
      await fold;
      expect(await pendingOn('2026-11-18')).toBe(1);
      await expectSummariesEqual(new Date());
      await expectRowsEqualRebuild();
    },
  );
});

describe('coarse report rollups', () => {
  it('go with their workspace when it is deleted, and its pending days too', async () => {
    const other = await signUp(ctx.t.app);
    const track = async (day: string) => {
      const created = await ctx.call('POST', `/api/v1/workspaces/${other.workspaceId}/time-entries`, other.cookie, {
        start: `${day}T09:00:00.000Z`,
        end: `${day}T10:00:00.000Z`,
      });
      expect(created.statusCode, created.body).toBe(201);
    };
    await track('2026-11-02');
    await rolled.foldRollups();
    // A day written after the fold waits in report_rollups_pending.
    await track('2026-11-03');
    const count = async () =>
      (
        await sql<{
          n: number;
        }>`select (select count(*) from report_rollups_pending where workspace_id = ${other.workspaceId})
          + (select count(*) from report_rollups_tasks where workspace_id = ${other.workspaceId})
          + (select count(*) from report_rollups_people_months where workspace_id = ${other.workspaceId})
          + (select count(*) from report_rollups_work_months where workspace_id = ${other.workspaceId})
          + (select count(*) from report_rollups_work_years where workspace_id = ${other.workspaceId})::int as n`.execute(
          ctx.t.db,
        )
      ).rows[0]?.n;
    expect(Number(await count())).toBe(5);
    await ctx.t.db.deleteFrom('workspaces').where('id', '=', other.workspaceId).execute();
    expect(Number(await count())).toBe(0);
  });
});
