import { CompiledQuery, type RootOperationNode, sql } from 'kysely';
import type { Db } from '../src/db/connection.js';

/**
 * Plans of the statements the repositories send, for the EXPLAIN checks
 * (src/db/query-plans.int.test.ts) and their figures (bench/plans.mjs).
 */

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

export interface Plan {
  nodes: PlanNode[];
  /** Shared buffers the whole statement touched (hit or read). */
  buffers: number;
  /** Execution time, as EXPLAIN ANALYZE measured it. */
  ms: number;
}

const ROLLBACK = new Error('rollback');

/** Runs `work` in a transaction that is always rolled back; returns what it returned. */
export async function rolledBack<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
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
export async function statementsOf(db: Db, call: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
  // Subqueries pass through transformQuery as they are built; only what ran has a result.
  const built = new Map<string, RootOperationNode>();
  const sent: CompiledQuery[] = [];
  await rolledBack(db, async (tx) => {
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

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}

/**
 * The plan of a statement, executed (and undone) to count its buffers. `seqscan: false` prices
 * sequential scans out, so on a small table the planner names the index it would take.
 */
export async function explain(db: Db, statement: CompiledQuery, options = { seqscan: true }): Promise<Plan> {
  return rolledBack(db, async (tx) => {
    if (!options.seqscan) await sql`set local enable_seqscan = off`.execute(tx);
    const { rows } = await tx.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(`explain (analyze, buffers, format json) ${statement.sql}`, [...statement.parameters]),
    );
    const raw = rows[0]?.['QUERY PLAN'];
    const [{ Plan: root, 'Execution Time': ms }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [
      { Plan: PlanNode; 'Execution Time': number },
    ];
    return {
      nodes: flatten(root),
      buffers: (root['Shared Hit Blocks'] ?? 0) + (root['Shared Read Blocks'] ?? 0),
      ms,
    };
  });
}

/** The plans of every statement a repository call sends, in order. */
export async function plansOf(db: Db, call: (db: Db) => Promise<unknown>, options = { seqscan: true }) {
  const plans: Plan[] = [];
  for (const statement of await statementsOf(db, call)) plans.push(await explain(db, statement, options));
  return plans;
}

/** The tables a plan reads from start to end. */
export const seqScans = (plan: Plan) =>
  plan.nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'] ?? '?');

/** The index conditions of the plan's scans of `index`. */
export const indexCond = (plan: Plan, index: string) =>
  plan.nodes
    .filter((n) => n['Index Name'] === index)
    .map((n) => n['Index Cond'] ?? '')
    .join(' | ');

const uuid = (group: number, i: number) =>
  `0190c0de-0000-7000-${(0x8000 + group).toString(16)}-${i.toString(16).padStart(12, '0')}`;
const HOUR = 3_600_000;

export interface History {
  workspaceIds: string[];
  /** Everyone, workspace by workspace; the first person of each owns it. */
  people: string[][];
  /** The first workspace's projects; the entries cycle through them. */
  projectIds: string[];
  /** A task of the first project, on one of its entries in seven. */
  taskId: string;
  /** Where everyone's history begins, and how far apart each person's entries are. */
  start: Date;
  everyHours: number;
  /** Entries each person has. */
  perPerson: number;
}

/**
 * Workspaces with people, projects and `entries` finished entries, written set-based: each
 * person one entry every `everyHours`, 1 to 4.5 hours long (so the longest is 4.5 hours).
 */
export async function seedHistory(
  db: Db,
  o: { workspaces: number; peoplePerWorkspace: number; projects: number; entries: number; everyHours: number },
): Promise<History> {
  const workspaceIds = Array.from({ length: o.workspaces }, (_, i) => uuid(0, i + 1));
  const people = workspaceIds.map((_, w) =>
    Array.from({ length: o.peoplePerWorkspace }, (_, i) => uuid(1, w * o.peoplePerWorkspace + i)),
  );
  const everyone = people.flat();
  const projectIds = Array.from({ length: o.projects }, (_, i) => uuid(2, i));
  const taskId = uuid(3, 1);
  const start = new Date(Date.UTC(2024, 0, 1));
  const [first] = workspaceIds;
  await sql`insert into workspaces (id, name) select id, 'Workspace ' || n from unnest(${workspaceIds}::uuid[]) with ordinality as w (id, n)`.execute(
    db,
  );
  await sql`
    insert into users (id, email, password_hash, name)
    select id, 'plans.' || n || '@example.com', 'x', 'Person ' || n from unnest(${everyone}::uuid[]) with ordinality as p (id, n)`.execute(
    db,
  );
  await sql`
    insert into memberships (workspace_id, user_id, role)
    select (${workspaceIds}::uuid[])[(n - 1) / ${o.peoplePerWorkspace} + 1], id,
      case when (n - 1) % ${o.peoplePerWorkspace} = 0 then 'owner' else 'member' end
    from unnest(${everyone}::uuid[]) with ordinality as p (id, n)`.execute(db);
  await sql`
    insert into projects (id, workspace_id, name)
    select id, ${first}::uuid, 'Project ' || n from unnest(${projectIds}::uuid[]) with ordinality as p (id, n)`.execute(
    db,
  );
  await sql`insert into tasks (id, workspace_id, project_id, name) values (${taskId}, ${first}, ${projectIds[0]}, 'Task')`.execute(
    db,
  );
  // Entry n is person n % P's (k = n / P)th; only the first workspace's entries have projects.
  const p = everyone.length;
  const local = o.peoplePerWorkspace;
  await sql`
    insert into time_entries (id, workspace_id, user_id, project_id, task_id, start_at, end_at, duration_seconds)
    select gen_random_uuid(),
      (${workspaceIds}::uuid[])[n % ${p} / ${local} + 1],
      (${everyone}::uuid[])[n % ${p} + 1],
      case when n % ${p} < ${local} then (${projectIds}::uuid[])[n / ${p} % ${o.projects} + 1] end,
      case when n % ${p} < ${local} and n / ${p} % ${o.projects} = 0 and n / ${p} % 7 = 0 then ${taskId}::uuid end,
      s, s + d, extract(epoch from d)::int
    from generate_series(0, ${o.entries - 1}) n,
      lateral (select ${start}::timestamptz + (n / ${p}) * ${o.everyHours}::float8 * interval '1 hour' + (n % ${p}) * interval '1 second' as s,
                      interval '1 hour' + (n / ${p} % 8) * interval '30 minutes' as d) t`.execute(db);
  // The rollups' job folds the days the insert left pending (as it would within a minute).
  await sql`select report_rollups_fold_pending(w, 2147483647) from unnest(${workspaceIds}::uuid[]) w`.execute(db);
  await sql`select report_rollups_compact(w) from unnest(${workspaceIds}::uuid[]) w`.execute(db);
  return { workspaceIds, people, projectIds, taskId, start, everyHours: o.everyHours, perPerson: o.entries / p };
}

/** A week near the end of everyone's history, so an unbounded scan would walk almost all of it. */
export function lateWeek(h: History): { from: Date; to: Date } {
  const span = h.perPerson * h.everyHours * HOUR;
  const from = new Date(h.start.getTime() + Math.floor((span * 0.95) / (24 * HOUR)) * 24 * HOUR);
  return { from, to: new Date(from.getTime() + 7 * 24 * HOUR) };
}

/** The statement the week list sent before issue 13: no lower bound on start_at. */
export function unboundedWeekList(
  db: Db,
  q: { workspaceId: string; userIds?: string[]; from: Date; to: Date; limit: number },
) {
  return db
    .selectFrom('time_entries')
    .selectAll()
    .where('workspace_id', '=', q.workspaceId)
    .$if(q.userIds !== undefined, (s) => s.where('user_id', 'in', q.userIds ?? []))
    .where('start_at', '<', q.to)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', q.from)]))
    .orderBy('start_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit)
    .execute();
}
