/**
 * The SQL of the coarse report rollups (migration 202612040200 made three, 202612050100 added
 * two): each table sums report_rollups over some of its keys, per day or per month. The
 * migrations build their tables, triggers, fold and rebuild from a map of these, so every table
 * is kept by the same statements. A migration's output must never change once it has run: a new
 * table means a new migration that passes the whole map again (and replaces the functions).
 */
export interface CoarseTable {
  period: 'day' | 'month' | 'year';
  keys: readonly string[];
  /** The period of a report_rollups row `r`. */
  of: string;
}
export type CoarseTables = Readonly<Record<string, CoarseTable>>;

// A day's month (year) as its first day, in date arithmetic (no time zone in between).
export const MONTH_OF = 'r.day - extract(day from r.day)::int + 1';
export const YEAR_OF = 'r.day - extract(doy from r.day)::int + 1';

/** The tables of migration 202612040200 (never to change: see above). */
export const FIRST_COARSE_TABLES: CoarseTables = {
  report_rollups_tasks: { period: 'day', keys: ['project_id', 'task_id', 'billable', 'invoiced'], of: 'r.day' },
  report_rollups_task_months: {
    period: 'month',
    keys: ['project_id', 'task_id', 'billable', 'invoiced'],
    of: MONTH_OF,
  },
  report_rollups_people_months: { period: 'month', keys: ['user_id', 'billable', 'invoiced'], of: MONTH_OF },
};

const WORK_KEYS = ['user_id', 'project_id', 'task_id', 'billable', 'invoiced'];
/** The tables of migration 202612050100 (never to change: see above). */
export const WORK_COARSE_TABLES: CoarseTables = {
  report_rollups_work_months: { period: 'month', keys: WORK_KEYS, of: MONTH_OF },
  report_rollups_work_years: { period: 'year', keys: WORK_KEYS, of: YEAR_OF },
};

const columnType = (key: string) => (key === 'billable' || key === 'invoiced' ? 'boolean not null' : 'uuid');
const keysOf = (t: CoarseTable, alias: string) => t.keys.map((k) => `${alias}.${k}`).join(', ');
const columns = (t: CoarseTable) => `${t.period}, ${t.keys.join(', ')}`;

/** A table, its indexes and its rows from report_rollups (for `runSql`), analyzed: a fresh table's estimate misleads the planner. */
export function createCoarseTable(table: string, t: CoarseTable): string {
  return `
    create table ${table} (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      ${t.period} date not null,
      ${t.keys.map((k) => `${k} ${columnType(k)}`).join(',\n      ')},
      rollup_rows bigint not null,
      seconds bigint not null,
      billable_cents bigint not null,
      cost_cents bigint not null,
      fresh boolean not null default true
    );
    create index ${table}_period_idx on ${table} (workspace_id, ${t.period});
    create index ${table}_fresh_idx on ${table} (workspace_id, ${t.period}) where fresh;
    insert into ${table} (workspace_id, ${columns(t)}, rollup_rows, seconds, billable_cents, cost_cents, fresh)
      select r.workspace_id, ${t.of}, ${keysOf(t, 'r')}, count(*), sum(r.seconds), sum(r.billable_cents), sum(r.cost_cents), false
      from report_rollups r
      group by r.workspace_id, ${t.of}, ${keysOf(t, 'r')};
    analyze ${table};
  `;
}

export const COARSE_EVENTS = ['insert', 'update', 'delete'] as const;

// The rows a statement added count +1, the rows it removed -1.
const CHANGED = {
  insert: 'select 1 as sign, n.* from new_rows n',
  update: 'select 1 as sign, n.* from new_rows n union all select -1, o.* from old_rows o',
  delete: 'select -1 as sign, o.* from old_rows o',
};
export const COARSE_REFERENCING = {
  insert: 'new table as new_rows',
  update: 'new table as new_rows old table as old_rows',
  delete: 'old table as old_rows',
};

/**
 * The statement trigger function of one event: appends the statement's signed deltas, summed per
 * key, to every table as fresh rows. Only live workspaces (a workspace's deletion cascades to
 * report_rollups and to these tables alike). JIT off: the statements are small (a statement's rows).
 */
export function coarseTriggerFunction(tables: CoarseTables, event: (typeof COARSE_EVENTS)[number]): string {
  const appends = Object.entries(tables).map(
    ([table, t]) => `
        insert into ${table} (workspace_id, ${columns(t)}, rollup_rows, seconds, billable_cents, cost_cents)
        select r.workspace_id, ${t.of}, ${keysOf(t, 'r')}, sum(r.sign), sum(r.sign * r.seconds),
          sum(r.sign * r.billable_cents), sum(r.sign * r.cost_cents)
        from (${CHANGED[event]}) r
        where r.workspace_id in (select w.id from workspaces w)
        group by r.workspace_id, ${t.of}, ${keysOf(t, 'r')}
        having sum(r.sign) <> 0 or sum(r.sign * r.seconds) <> 0
          or sum(r.sign * r.billable_cents) <> 0 or sum(r.sign * r.cost_cents) <> 0;`,
  );
  return `
    create or replace function report_rollups_coarse_${event}() returns trigger language plpgsql as $$
    begin
      -- The stale rollups' rebuild, person by person, leaves these to report_rollups_coarse_rebuild.
      if current_setting('sundial.coarse_rollups_off', true) = 'on' then return null; end if;
      ${appends.join('\n')}
      return null;
    end $$`;
}

/** A function of a workspace (`p_ws`) that runs `statements` under the lock the fold and the rebuild share. */
const workspaceFunction = (name: string, statements: string[], settings = '') => `
    create or replace function ${name}(p_ws uuid) returns void language plpgsql${settings} as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended('report_rollups_compact:' || p_ws::text, 0));
      ${statements.join('\n')}
    end $$`;

/**
 * Folds a workspace's fresh rows into one row per key: the touched days (months) deleted and
 * their sums inserted back in one statement each, keys that sum to no row left out. One
 * compaction per workspace at a time (two would each reinsert what both deleted).
 */
export function coarseCompactFunction(tables: CoarseTables): string {
  const folds = Object.entries(tables).map(
    ([table, t]) => `
      with gone as (
        delete from ${table} x
        where x.workspace_id = p_ws
          and x.${t.period} in (select f.${t.period} from ${table} f where f.workspace_id = p_ws and f.fresh)
        returning x.*
      )
      insert into ${table} (workspace_id, ${columns(t)}, rollup_rows, seconds, billable_cents, cost_cents, fresh)
      select g.workspace_id, g.${t.period}, ${keysOf(t, 'g')}, sum(g.rollup_rows), sum(g.seconds), sum(g.billable_cents), sum(g.cost_cents), false
      from gone g
      group by g.workspace_id, g.${t.period}, ${keysOf(t, 'g')}
      having sum(g.rollup_rows) <> 0;`,
  );
  return workspaceFunction('report_rollups_compact', folds);
}

// A key column compared in a hash join: the null project or task as a uuid no row has.
const joinable = (key: string, alias: string) =>
  key.endsWith('_id') ? `coalesce(${alias}.${key}, '00000000-0000-0000-0000-000000000000'::uuid)` : `${alias}.${key}`;

/**
 * Folds a workspace's fresh rows into one row per key, rewriting only the keys that have fresh rows
 * (migration 202612070100, issue 33): `coarseCompactFunction` rewrote every row of each touched day,
 * month or year, so one entry's fold rewrote a month of everyone's work (~25,000 rows at 1M entries)
 * and a year's, and the dead rows made report_rollups_work_months twice its live size.
 */
export function coarseCompactByKeyFunction(tables: CoarseTables): string {
  const folds = Object.entries(tables).map(([table, t]) => {
    const keys = [t.period, ...t.keys];
    return `
      with touched as materialized (
        select ${keys.map((k) => `${joinable(k, 'f')} as ${k}`).join(', ')}
        from ${table} f where f.workspace_id = p_ws and f.fresh
        group by ${keys.map((_, i) => i + 1).join(', ')}
      ), gone as (
        delete from ${table} x
        where x.workspace_id = p_ws
          and x.${t.period} = any(array(select distinct k.${t.period} from touched k))
          and (${keys.map((key) => joinable(key, 'x')).join(', ')}) in (select ${keys.map((key) => `k.${key}`).join(', ')} from touched k)
        returning x.*
      )
      insert into ${table} (workspace_id, ${columns(t)}, rollup_rows, seconds, billable_cents, cost_cents, fresh)
      select g.workspace_id, g.${t.period}, ${keysOf(t, 'g')}, sum(g.rollup_rows), sum(g.seconds), sum(g.billable_cents), sum(g.cost_cents), false
      from gone g
      group by g.workspace_id, g.${t.period}, ${keysOf(t, 'g')}
      having sum(g.rollup_rows) <> 0;`;
  });
  // The touched periods' rows read once (their index) against the touched keys hashed: a nested loop per
  // touched key over a year of rows took minutes at 1M entries.
  return workspaceFunction('report_rollups_compact', folds, ' set enable_nestloop = off set jit = off');
}

/**
 * A workspace's coarse rows again from report_rollups, after the job rebuilt its stale rollups person by
 * person without them (each person's delete and insert would otherwise append ~a row per rollup row twice).
 * Writers meanwhile only append: rows committed before this statement's snapshot are deleted and counted
 * in the sums, rows committed after are neither, so both stay right without waiting for each other.
 */
export function coarseRebuildFunction(tables: CoarseTables): string {
  const rebuilds = Object.entries(tables).map(
    ([table, t]) => `
      with gone as (delete from ${table} x where x.workspace_id = p_ws)
      insert into ${table} (workspace_id, ${columns(t)}, rollup_rows, seconds, billable_cents, cost_cents, fresh)
      select r.workspace_id, ${t.of}, ${keysOf(t, 'r')}, count(*), sum(r.seconds), sum(r.billable_cents), sum(r.cost_cents), false
      from report_rollups r where r.workspace_id = p_ws
      group by r.workspace_id, ${t.of}, ${keysOf(t, 'r')};`,
  );
  return workspaceFunction('report_rollups_coarse_rebuild', rebuilds);
}
