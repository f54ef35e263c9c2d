import { CompiledQuery, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/harness.js';
import { clientsRepository } from '../modules/clients/clients.repository.js';
import { membersRepository } from '../modules/members/members.repository.js';
import { timeEntriesRepository } from '../modules/time-entries/time-entries.repository.js';
import type { Db } from './connection.js';
import { migrateToLatest } from './migrate.js';

/**
 * The list queries run against 100,000 entries of two workspaces (40 people, about three years
 * each), as the repositories build them. Where the planner's own choice at that size is what
 * matters (the entries), the plan is analysed and its buffers counted; for the small tables,
 * sequential scans are priced out so the planner names the index it would take, and a missing
 * one shows as a Seq Scan, on PGlite and PostgreSQL alike.
 */

const ws = '0190c0de-0000-7000-8000-000000000001';
const otherWs = '0190c0de-0000-7000-8000-000000000002';
const person = (i: number) => `0190c0de-0000-7000-8001-${i.toString(16).padStart(12, '0')}`;
const project = (i: number) => `0190c0de-0000-7000-8002-${i.toString(16).padStart(12, '0')}`;
const task = '0190c0de-0000-7000-8003-000000000001';
const HOUR = 3_600_000;
const historyStart = Date.UTC(2024, 0, 1);
/** A week near the end of everyone's history, so an unbounded scan would walk almost all of it. */
const weekFrom = new Date(historyStart + 1000 * 24 * HOUR);
const weekTo = new Date(weekFrom.getTime() + 7 * 24 * HOUR);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

interface Plan {
  nodes: PlanNode[];
  /** Shared buffers the whole statement touched (hit or read). */
  buffers: number;
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}

const seqScans = (plan: Plan) =>
  plan.nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'] ?? '?');
const indexCond = (plan: Plan, index: string) =>
  plan.nodes
    .filter((n) => n['Index Name'] === index)
    .map((n) => n['Index Cond'] ?? '')
    .join(' | ');

describe('query plans at 100,000 entries', () => {
  let db: Db;
  let close: () => Promise<void>;
  const ROLLBACK = new Error('rollback');

  /** Runs `work` in a transaction that is always rolled back; returns what it returned. */
  async function rolledBack<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    let out: T | undefined;
    try {
      await db.transaction().execute(async (tx) => {
        out = await work(tx);
        throw ROLLBACK;
      });
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    }
    return out as T;
  }

  /** The statements a repository call sends, compiled with their parameters (its writes undone). */
  async function statementsOf(call: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
    // Subqueries pass through transformQuery as they are built; only what ran has a result.
    const built = new Map<string, RootOperationNode>();
    const sent: CompiledQuery[] = [];
    await rolledBack(async (tx) => {
      const spy = tx.withPlugin({
        transformQuery: ({ node, queryId }) => {
          built.set(queryId.queryId, node);
          return node;
        },
        transformResult: async ({ result, queryId }) => {
          const node = built.get(queryId.queryId);
          if (node) sent.push(db.getExecutor().compileQuery(node, queryId));
          return result;
        },
      });
      await call(spy);
    });
    return sent;
  }

  /** The plan of a statement, executed (and undone) to count its buffers. */
  async function explain(statement: CompiledQuery, options: { seqscan: boolean }): Promise<Plan> {
    return rolledBack(async (tx) => {
      if (!options.seqscan) await sql`set local enable_seqscan = off`.execute(tx);
      const { rows } = await tx.executeQuery<{ 'QUERY PLAN': unknown }>(
        CompiledQuery.raw(`explain (analyze, buffers, format json) ${statement.sql}`, [...statement.parameters]),
      );
      const raw = rows[0]?.['QUERY PLAN'];
      const [{ Plan: root }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
      return {
        nodes: flatten(root),
        buffers: (root['Shared Hit Blocks'] ?? 0) + (root['Shared Read Blocks'] ?? 0),
      };
    });
  }

  async function planOf(call: (db: Db) => Promise<unknown>, options = { seqscan: true }): Promise<Plan[]> {
    const plans: Plan[] = [];
    for (const statement of await statementsOf(call)) plans.push(await explain(statement, options));
    return plans;
  }

  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    await migrateToLatest(db);
    const people = Array.from({ length: 40 }, (_, i) => person(i));
    await sql`insert into workspaces (id, name) values (${ws}, 'Plans'), (${otherWs}, 'Another tenant')`.execute(db);
    await sql`
      insert into users (id, email, password_hash, name)
      select id, 'plans.' || n || '@example.com', 'x', 'Person ' || n
      from unnest(${people}::uuid[]) with ordinality as p (id, n)`.execute(db);
    await sql`
      insert into memberships (workspace_id, user_id, role)
      select case when n <= 20 then ${ws}::uuid else ${otherWs}::uuid end, id,
        case when n in (1, 21) then 'owner' else 'member' end
      from unnest(${people}::uuid[]) with ordinality as p (id, n)`.execute(db);
    await sql`
      insert into projects (id, workspace_id, name)
      select id, ${ws}::uuid, 'Project ' || n from unnest(${Array.from({ length: 20 }, (_, i) => project(i))}::uuid[])
        with ordinality as p (id, n)`.execute(db);
    await sql`insert into tasks (id, workspace_id, project_id, name) values (${task}, ${ws}, ${project(0)}, 'Task')`.execute(
      db,
    );
    // Entry n is person n % 40's (k = n / 40)th: one every 10 hours, 1 to 4.5 hours long.
    await sql`
      insert into time_entries (id, workspace_id, user_id, project_id, task_id, start_at, end_at, duration_seconds)
      select gen_random_uuid(),
        case when n % 40 < 20 then ${ws}::uuid else ${otherWs}::uuid end,
        (${people}::uuid[])[n % 40 + 1],
        case when n % 40 < 20 then (${Array.from({ length: 20 }, (_, i) => project(i))}::uuid[])[n / 40 % 20 + 1] end,
        case when n % 40 < 20 and n / 40 % 20 = 0 and n / 40 % 7 = 0 then ${task}::uuid end,
        s, s + d, extract(epoch from d)::int
      from generate_series(0, 99999) n,
        lateral (select ${new Date(historyStart)}::timestamptz + (n / 40) * interval '10 hours' + (n % 40) * interval '1 minute' as s,
                        interval '1 hour' + (n / 40 % 8) * interval '30 minutes' as d) t`.execute(db);
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

    const [week] = await planOf(weekOf([person(0)]));
    if (!week) throw new Error('no statement');
    expect(seqScans(week)).not.toContain('time_entries');
    expect(indexCond(week, 'time_entries_user_start_idx')).toMatch(/start_at >= /);
    expect(indexCond(week, 'time_entries_one_running_key')).toMatch(/user_id = /);

    // The statement the week list sent before it had a lower bound on start_at.
    const [unbounded] = await planOf(async (tx) =>
      tx
        .selectFrom('time_entries')
        .selectAll()
        .where('workspace_id', '=', ws)
        .where('user_id', '=', person(0))
        .where('start_at', '<', weekTo)
        .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', weekFrom)]))
        .orderBy('start_at', 'desc')
        .orderBy('id', 'desc')
        .limit(501)
        .execute(),
    );
    if (!unbounded) throw new Error('no statement');
    expect(week.buffers * 10).toBeLessThan(unbounded.buffers);
  });

  it('lists everyone’s week through the workspace’s start index with the same bound', async () => {
    const rows = await weekOf(undefined)(db);
    expect(rows.length).toBeGreaterThan(300);
    const [week] = await planOf(weekOf(undefined));
    if (!week) throw new Error('no statement');
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
    const [plan] = await planOf(next);
    if (!plan) throw new Error('no statement');
    expect(seqScans(plan)).not.toContain('time_entries');
    expect(indexCond(plan, 'time_entries_user_start_idx')).toMatch(/user_id = /);
    expect(plan.buffers).toBeLessThan(200);
  });

  it('finds a task’s and a project’s entries through their indexes, as deleting them does', async () => {
    const [detach] = await planOf((tx) => timeEntriesRepository.detachTasks(tx, ws, [task]));
    const [onProject] = await planOf((tx) => timeEntriesRepository.deleteOnProject(tx, ws, project(3)));
    if (!detach || !onProject) throw new Error('no statement');
    expect(seqScans(detach)).not.toContain('time_entries');
    expect(indexCond(detach, 'time_entries_task_idx')).toMatch(/task_id = /);
    expect(seqScans(onProject)).not.toContain('time_entries');
    expect(indexCond(onProject, 'time_entries_project_idx')).toMatch(/project_id = /);
  });

  it('lists members and clients through the workspace’s indexes', async () => {
    const members = await planOf((tx) => membersRepository.list(tx, ws, { search: 'person' }), { seqscan: false });
    expect(members).toHaveLength(2);
    for (const plan of members) {
      expect(seqScans(plan)).toEqual([]);
      expect(indexCond(plan, 'memberships_pkey')).toMatch(/workspace_id = /);
    }
    const clients = await planOf(
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
      values (${id}, ${otherWs}, ${person(20)}, ${new Date(historyStart - 100 * HOUR)})`.execute(db);
    expect(await longest()).toBe(4.5 * 3600);
    await sql`update time_entries set end_at = start_at + interval '50 hours', duration_seconds = 0 where id = ${id}`.execute(
      db,
    );
    expect(await longest()).toBe(50 * 3600);
    await sql`delete from time_entries where id = ${id}`.execute(db);
    expect(await longest()).toBe(50 * 3600);
  });
});
