import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/harness.js';
import {
  type History,
  indexCond,
  lateWeek,
  type Plan,
  plansOf,
  seedHistory,
  seqScans,
  unboundedWeekList,
} from '../../test/query-plans.js';
import { clientsRepository } from '../modules/clients/clients.repository.js';
import { membersRepository } from '../modules/members/members.repository.js';
import { compileDetailedPage } from '../modules/reports/reports.repository.js';
import { compileReport, type EngineFilter } from '../modules/reports/reports.time-source.js';
import { timeEntriesRepository } from '../modules/time-entries/time-entries.repository.js';
import type { Db } from './connection.js';

/**
 * The list queries run against 100,000 entries of two workspaces (40 people, about three years
 * each), as the repositories build them. Where the planner's own choice at that size is what
 * matters (the entries), the plan is analysed and its buffers counted; for the small tables,
 * sequential scans are priced out so the planner names the index it would take, and a missing
 * one shows as a Seq Scan, on PGlite and PostgreSQL alike.
 */
describe('query plans at 100,000 entries', () => {
  let db: Db;
  let close: () => Promise<void>;
  let h: History;
  let ws: string;
  let otherWs: string;
  let weekFrom: Date;
  let weekTo: Date;
  const HOUR = 3_600_000;
  const person = (i: number) => h.people.flat()[i] ?? '';
  const project = (i: number) => h.projectIds[i] ?? '';
  const only = (plans: Plan[]): Plan => {
    const [plan] = plans;
    if (!plan) throw new Error('no statement');
    return plan;
  };

  beforeAll(async () => {
    ({ db, close } = await openTestDb({ migrated: true }));
    h = await seedHistory(db, {
      workspaces: 2,
      peoplePerWorkspace: 20,
      projects: 20,
      entries: 100_000,
      everyHours: 10,
    });
    [ws = '', otherWs = ''] = h.workspaceIds;
    ({ from: weekFrom, to: weekTo } = lateWeek(h));
    // Person 0's timer has run since ten days before the week: longer than any stored entry.
    await sql`
      insert into time_entries (id, workspace_id, user_id, start_at)
      values (gen_random_uuid(), ${ws}, ${person(0)}, ${new Date(weekFrom.getTime() - 240 * HOUR)})`.execute(db);
    await sql`analyze`.execute(db);
  }, 120_000);
  afterAll(async () => close?.());

  const weekOf = (userIds: string[] | undefined) => (tx: Db) =>
    timeEntriesRepository.list(tx, ws, { userIds, from: weekFrom, to: weekTo, limit: 501 });

  it('keeps each workspace’s longest finished entry, from the seeded history', async () => {
    const rows = await db.selectFrom('time_entry_extents').selectAll().orderBy('workspace_id').execute();
    expect(rows).toEqual([
      { workspace_id: ws, longest_seconds: 4.5 * 3600 },
      { workspace_id: otherWs, longest_seconds: 4.5 * 3600 },
    ]);
  });

  it('lists a person’s week from its own days and the running timer, not their whole history', async () => {
    const rows = await weekOf([person(0)])(db);
    expect(rows.length).toBeGreaterThan(15);
    expect(rows.at(-1)?.end_at).toBeNull();
    expect(rows.slice(0, -1).every((r) => r.end_at && r.end_at > weekFrom && r.start_at < weekTo)).toBe(true);

    const week = only(await plansOf(db, weekOf([person(0)])));
    expect(seqScans(week)).not.toContain('time_entries');
    expect(indexCond(week, 'time_entries_user_start_idx')).toMatch(/start_at >= /);
    expect(indexCond(week, 'time_entries_one_running_key')).toMatch(/user_id = /);

    // The statement the week list sent before it had a lower bound on start_at.
    const unbounded = only(
      await plansOf(db, (tx) =>
        unboundedWeekList(tx, { workspaceId: ws, userIds: [person(0)], from: weekFrom, to: weekTo, limit: 501 }),
      ),
    );
    expect(week.buffers * 10).toBeLessThan(unbounded.buffers);

    // The entries' tags and breaks, and the workspace's longest entry, are read by key too, in
    // the same statement.
    const all = await plansOf(db, weekOf([person(0)]), { seqscan: false });
    expect(all).toHaveLength(1);
    for (const plan of all) expect(seqScans(plan)).toEqual([]);
  });

  it('lists everyone’s week through the workspace’s start index with the same bound', async () => {
    const rows = await weekOf(undefined)(db);
    expect(rows.length).toBeGreaterThan(300);
    const week = only(await plansOf(db, weekOf(undefined)));
    expect(seqScans(week)).not.toContain('time_entries');
    expect(indexCond(week, 'time_entries_start_idx')).toMatch(/start_at >= /);
    expect(indexCond(week, 'time_entries_one_running_key')).toMatch(/workspace_id = /);
  });

  it('pages through a person’s history newest first without reading the rest', async () => {
    const page = (tx: Db) => timeEntriesRepository.list(tx, ws, { userIds: [person(1)], limit: 51 });
    const first = await page(db);
    const last = first.at(-1);
    if (!last) throw new Error('no entries');
    const next = (tx: Db) =>
      timeEntriesRepository.list(tx, ws, {
        userIds: [person(1)],
        after: { start: last.start_at, id: last.id },
        limit: 51,
      });
    const plan = only(await plansOf(db, next));
    expect(seqScans(plan)).not.toContain('time_entries');
    expect(indexCond(plan, 'time_entries_user_start_idx')).toMatch(/user_id = /);
    expect(plan.buffers).toBeLessThan(200);
  });

  it('finds a task’s and a project’s entries through their indexes, as deleting them does', async () => {
    const detach = only(await plansOf(db, (tx) => timeEntriesRepository.detachTasks(tx, ws, [h.taskId])));
    const onProject = only(await plansOf(db, (tx) => timeEntriesRepository.deleteOnProject(tx, ws, project(3))));
    expect(seqScans(detach)).not.toContain('time_entries');
    expect(indexCond(detach, 'time_entries_task_idx')).toMatch(/task_id = /);
    expect(seqScans(onProject)).not.toContain('time_entries');
    expect(indexCond(onProject, 'time_entries_project_idx')).toMatch(/project_id = /);
  });

  it('pages the Detailed report from the start index, deep pages as cheap as the first', async () => {
    const filter = (): EngineFilter => ({
      workspaceId: ws,
      fromAt: new Date(weekTo.getTime() - 365 * 24 * HOUR),
      toAt: weekTo,
      fromDay: new Date(weekTo.getTime() - 365 * 24 * HOUR).toISOString().slice(0, 10),
      toDay: new Date(weekTo.getTime() - 24 * HOUR).toISOString().slice(0, 10),
      timeZone: 'UTC',
      weekStart: 'monday',
      rounding: { mode: 'none', minutes: 1 },
      now: weekTo,
      scope: null,
      tagMode: 'any',
    });
    const deep = await sql<{ start_at: Date; id: string }>`select start_at, id from time_entries
      where workspace_id = ${ws} and start_at < ${weekTo} order by start_at desc, id desc offset 20000 limit 1`.execute(
      db,
    );
    const at = deep.rows[0];
    if (!at) throw new Error('no deep entry');
    const page = (after?: { value: string; start: string; id: string }) => (tx: Db) =>
      compileDetailedPage(filter(), { sort: 'start', order: 'desc', after, limit: 101 }).execute(tx);
    const first = only(await plansOf(db, page()));
    const far = only(await plansOf(db, page({ value: '', start: at.start_at.toISOString(), id: at.id })));
    for (const plan of [first, far]) {
      expect(seqScans(plan)).not.toContain('time_entries');
      expect(indexCond(plan, 'time_entries_start_idx')).toMatch(/start_at/);
    }
    expect(far.buffers).toBeLessThan(first.buffers * 3 + 100);
  });

  it('reads a year’s Summary from the rollups, not the entries, with the same figures', async () => {
    const yearAgo = new Date(weekTo.getTime() - 365 * 24 * HOUR);
    const filter = (rollups: boolean): EngineFilter => ({
      workspaceId: ws,
      fromAt: yearAgo,
      toAt: weekTo,
      fromDay: yearAgo.toISOString().slice(0, 10),
      toDay: new Date(weekTo.getTime() - 24 * HOUR).toISOString().slice(0, 10),
      timeZone: 'UTC',
      weekStart: 'monday',
      rounding: { mode: 'none', minutes: 1 },
      now: weekTo,
      scope: null,
      tagMode: 'any',
      rollups,
    });
    const summary = (rollups: boolean) => (tx: Db) =>
      compileReport(filter(rollups), { sets: [[], ['project']], dimensions: ['project'], countEntries: false }).execute(
        tx,
      );
    const rolled = only(await plansOf(db, summary(true)));
    const raw = only(await plansOf(db, summary(false)));
    // Only the running timer comes from the entries, through the index of running entries.
    expect(seqScans(rolled)).not.toContain('time_entries');
    // Not taking in everyone (scope unknown), by the month per person and task, and by the day around the months.
    expect(rolled.nodes.map((n) => n['Relation Name'])).toContain('report_rollups_work_months');
    expect(rolled.nodes.map((n) => n['Relation Name'])).toContain('report_rollups');
    // (No fewer pages than the entries here: 20 people each on most of 20 projects every month, ~a row a
    // month per entry, where members on a handful of projects make some dozens a month: bench/README.md.)
    const order = (rows: { level: number; k1: string | null }[]) =>
      [...rows].sort((a, b) => a.level - b.level || String(a.k1).localeCompare(String(b.k1)));
    expect(order((await summary(true)(db)).rows)).toEqual(order((await summary(false)(db)).rows));
    // Taking in everyone, it reads the rollups without the person: the months, the days around them.
    const everyone = (tx: Db) =>
      compileReport(
        { ...filter(true), allPeople: true },
        { sets: [[], ['project']], dimensions: ['project'], countEntries: false },
      ).execute(tx);
    const coarse = only(await plansOf(db, everyone));
    const relations = coarse.nodes.map((n) => n['Relation Name']);
    expect(relations).toContain('report_rollups_task_months');
    expect(relations).toContain('report_rollups_tasks');
    // report_rollups only for the pending days (none here): no row of it is read.
    const daily = coarse.nodes.filter((n) => n['Relation Name'] === 'report_rollups');
    expect(daily.map((n) => (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 0))).toEqual(daily.map(() => 0));
    expect(coarse.buffers).toBeLessThan(raw.buffers);
    expect(coarse.buffers).toBeLessThan(rolled.buffers);
    expect(order((await everyone(db)).rows)).toEqual(order((await summary(false)(db)).rows));
  });

  it('lists members and clients through the workspace’s indexes', async () => {
    const members = await plansOf(db, (tx) => membersRepository.list(tx, ws, { search: 'person' }), { seqscan: false });
    expect(members).toHaveLength(2);
    for (const plan of members) {
      expect(seqScans(plan)).toEqual([]);
      expect(indexCond(plan, 'memberships_pkey')).toMatch(/workspace_id = /);
    }
    const clients = await plansOf(
      db,
      (tx) => clientsRepository.list(tx, ws, { archived: 'false', sort: 'name', order: 'asc', limit: 50, offset: 0 }),
      { seqscan: false },
    );
    for (const plan of clients) expect(seqScans(plan)).toEqual([]);
    expect(clients.map((plan) => indexCond(plan, 'projects_client_idx')).join()).toMatch(/workspace_id = /);
  });

  it('raises the longest entry when a write makes a longer one, and never lowers it', async () => {
    const longest = async () =>
      (
        await db
          .selectFrom('time_entry_extents')
          .select('longest_seconds')
          .where('workspace_id', '=', otherWs)
          .executeTakeFirstOrThrow()
      ).longest_seconds;
    const id = '0190c0de-0000-7000-8004-000000000001';
    await sql`
      insert into time_entries (id, workspace_id, user_id, start_at)
      values (${id}, ${otherWs}, ${person(20)}, ${new Date(h.start.getTime() - 100 * HOUR)})`.execute(db);
    expect(await longest()).toBe(4.5 * 3600);
    await sql`update time_entries set end_at = start_at + interval '50 hours', duration_seconds = 0 where id = ${id}`.execute(
      db,
    );
    expect(await longest()).toBe(50 * 3600);
    await sql`delete from time_entries where id = ${id}`.execute(db);
    expect(await longest()).toBe(50 * 3600);
  });
});
