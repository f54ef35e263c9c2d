import { CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../../test/harness.js';
import type { Db } from '../../db/connection.js';
import type { ProjectViewer } from '../../platform/access.repository.js';
import { projectsRepository as repo } from './projects.repository.js';

/**
 * The Projects list and the pickers at 100,000 entries: the statements the repository really sends
 * (captured as it sends them) never read time entries (totals come from project_time_totals), take
 * an index for projects, tasks and totals when sequential scans are priced out (a task search
 * walks this workspace's tasks only), and touch pages by the projects shown, not by the entries.
 */
const ENTRIES = 100_000;
const PROJECTS = 300;

describe('query plans of the projects list and the pickers', () => {
  let db: Db;
  let close: () => Promise<void>;
  const ws = '0190c0de-0000-7000-8000-00000000000a';
  const user = '0190c0de-0000-7000-8000-00000000000b';
  const owner: ProjectViewer = { workspaceId: ws, userId: user, seesAll: true, seesPublic: true };
  const member: ProjectViewer = { workspaceId: ws, userId: user, seesAll: false, seesPublic: true };

  beforeAll(async () => {
    ({ db, close } = await openTestDb({ migrated: true }));
    await sql`insert into workspaces (id, name, plan) values (${ws}, 'Big', 'free')`.execute(db);
    await sql`insert into users (id, email, password_hash) values (${user}, 'plans@example.org', 'x')`.execute(db);
    await sql`insert into memberships (workspace_id, user_id, role) values (${ws}, ${user}, 'owner')`.execute(db);
    await sql`
      insert into projects (id, workspace_id, owner_user_id, name, is_public, created_at, updated_at)
      select gen_random_uuid(), ${ws}, ${user}, 'Project ' || lpad(i::text, 3, '0'), i % 2 = 0, now(), now()
      from generate_series(1, ${PROJECTS}) i`.execute(db);
    await sql`
      insert into tasks (id, workspace_id, project_id, name, created_at, updated_at)
      select gen_random_uuid(), workspace_id, id, 'Task ' || k, now(), now()
      from projects cross join generate_series(1, 3) k`.execute(db);
    await sql`
      insert into time_entries (id, workspace_id, user_id, project_id, start_at, end_at, duration_seconds)
      select gen_random_uuid(), ${ws}, ${user}, p.id,
        timestamptz '2024-01-01' + s.n * interval '1 hour', timestamptz '2024-01-01' + s.n * interval '1 hour' + interval '30 minutes', 1800
      from generate_series(1, ${ENTRIES}) s(n)
      join (select id, row_number() over (order by id) - 1 as rn from projects) p on p.rn = s.n % ${PROJECTS}`.execute(
      db,
    );
    await sql`analyze`.execute(db);
  }, 180_000);
  afterAll(async () => close?.());

  /** The statements `run` sends, compiled as the repository sends them. */
  async function statementsOf(run: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
    const sent: CompiledQuery[] = [];
    const capture: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        sent.push(db.getExecutor().compileQuery(node, queryId));
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await run(db.withPlugin(capture));
    return sent;
  }

  async function explain(query: CompiledQuery, options: string, seqscan = true): Promise<string> {
    return db.transaction().execute(async (tx) => {
      if (!seqscan) await sql`set local enable_seqscan = off`.execute(tx);
      const { rows } = await tx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain (${options}) ${query.sql}`, [...query.parameters]),
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  /** Pages a plan touched, from `explain (analyze, buffers)`. */
  const pagesOf = (text: string) =>
    [...text.matchAll(/Buffers: shared( hit=(\d+))?( read=(\d+))?/g)]
      .slice(0, 1)
      .reduce((sum, m) => sum + Number(m[2] ?? 0) + Number(m[4] ?? 0), 0);

  const cases: [string, (d: Db) => Promise<unknown>][] = [
    [
      'the Projects list (first page, by name, with totals)',
      (d) => repo.list(d, owner, { archived: 'false', sort: 'name', order: 'asc', limit: 100, offset: 0 }),
    ],
    [
      'the Projects list searched, as a member',
      (d) =>
        repo.list(d, member, {
          search: 'task',
          archived: 'false',
          sort: 'created',
          order: 'desc',
          limit: 100,
          offset: 0,
        }),
    ],
    ['the picker’s first answer', (d) => repo.pickerList(d, owner, { limit: 301 })],
    ['the picker’s search', (d) => repo.pickerList(d, member, { search: '29', limit: 301 })],
    [
      'the picker’s tasks',
      async (d) => {
        const rows = await repo.pickerList(db, owner, { limit: 301 });
        await repo.activeTasksOf(
          d,
          ws,
          rows.map((r) => r.id),
        );
      },
    ],
  ];

  for (const [name, run] of cases) {
    it(`${name}: reads no time entries, takes indexes, touches few pages`, async () => {
      const statements = await statementsOf(run);
      expect(statements.length).toBeGreaterThan(0);
      for (const statement of statements) {
        const plan = await explain(statement, 'costs off', false);
        expect(plan, plan).not.toMatch(/time_entries/);
        expect(plan, plan).not.toMatch(/Seq Scan on (projects|tasks|project_time_totals)/);
        const analyzed = await explain(statement, 'analyze, buffers, costs off, timing off');
        // ~800 for a page of 100 projects (a few index pages each); summing entries read ~330 a project.
        expect(pagesOf(analyzed), analyzed).toBeLessThan(1200);
      }
    });
  }

  it('the totals it reads are the entries’ real sums', async () => {
    const { rows } = await repo.list(db, owner, { archived: 'false', sort: 'name', order: 'asc', limit: 3, offset: 0 });
    const real = await db
      .selectFrom('time_entries')
      .select(['project_id', sql<number>`sum(duration_seconds)::int`.as('s')])
      .where(
        'project_id',
        'in',
        rows.map((r) => r.id),
      )
      .groupBy('project_id')
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.tracked_seconds]))).toEqual(
      Object.fromEntries(real.map((r) => [r.project_id, r.s])),
    );
  });
});
