import { type Kysely, sql } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Coarser sums of report_rollups for the reports of a large workspace (issue 14: any Summary of
 * 10M entries within 1 s). report_rollups has a row per (day, person, project, task, billable,
 * invoiced): in a workspace where everyone tracks a few entries a day over many projects, as many
 * rows as entries. These drop a dimension or two, so their rows are bounded by the catalogue and
 * the calendar, not the entries:
 *
 * - report_rollups_tasks: per (workspace, day, project, task, billable, invoiced), no person;
 * - report_rollups_task_months: the same per month (`month` is its first day);
 * - report_rollups_people_months: per (workspace, month, person, billable, invoiced), no project.
 *
 * Each holds `rollup_rows` (how many report_rollups rows it sums), seconds, billable and cost cents.
 * Kept by statement triggers on report_rollups itself, so every path that keeps report_rollups
 * (entry and break writes, imports, bulk edits, the rebuild job) keeps these too. A trigger does
 * not update rows in place: it appends the statement's signed deltas, summed per key, as `fresh`
 * rows. Writers therefore never wait for one another on these tables and never deadlock (two
 * writers of different people on the same day and task would otherwise lock the same row, in
 * whatever order their statements came). Where a day holds fresh rows the reader sums each key's rows,
 * and a key whose rows add up to no report_rollups row (`sum(rollup_rows) = 0`: an entry moved
 * elsewhere) is no group; a folded day has one row per key, each summing at least one.
 * `report_rollups_compact` folds a workspace's fresh rows into one row per key (the job that
 * rebuilds stale rollups runs it every minute); it deletes and reinserts the touched days or
 * months in one statement, so a reader sees either the rows before or after. That job's rebuild
 * of stale rollups (a new zone or rounding) runs with the triggers off
 * (`sundial.coarse_rollups_off`) and ends with `report_rollups_coarse_rebuild`, one pass from
 * report_rollups; nothing reads the coarse rows while the workspace is stale.
 */
// A day's month as its first day, in date arithmetic (no time zone in between).
const MONTH_OF = 'r.day - extract(day from r.day)::int + 1';

const TABLES = {
  report_rollups_tasks: { period: 'day', keys: ['project_id', 'task_id', 'billable', 'invoiced'], of: 'r.day' },
  report_rollups_task_months: {
    period: 'month',
    keys: ['project_id', 'task_id', 'billable', 'invoiced'],
    of: MONTH_OF,
  },
  report_rollups_people_months: {
    period: 'month',
    keys: ['user_id', 'billable', 'invoiced'],
    of: MONTH_OF,
  },
} as const;

const columnType = (key: string) => (key === 'billable' || key === 'invoiced' ? 'boolean not null' : 'uuid');

export async function up(db: Kysely<unknown>): Promise<void> {
  // Backfilled from report_rollups, then analyzed: a fresh table's estimate (a couple of rows) misleads the planner.
  for (const [table, t] of Object.entries(TABLES)) {
    const keys = t.keys.map((k) => `r.${k}`).join(', ');
    await runSql(
      db,
      `
      create table ${table} (
        workspace_id uuid not null references workspaces (id) on delete cascade,
        ${t.period} date not null,
        ${t.keys.map((k) => `${k} ${columnType(k)}`).join(',\n        ')},
        rollup_rows bigint not null,
        seconds bigint not null,
        billable_cents bigint not null,
        cost_cents bigint not null,
        fresh boolean not null default true
      );
      create index ${table}_period_idx on ${table} (workspace_id, ${t.period});
      create index ${table}_fresh_idx on ${table} (workspace_id, ${t.period}) where fresh;
      insert into ${table} (workspace_id, ${t.period}, ${t.keys.join(', ')}, rollup_rows, seconds, billable_cents, cost_cents, fresh)
        select r.workspace_id, ${t.of}, ${keys}, count(*), sum(r.seconds), sum(r.billable_cents), sum(r.cost_cents), false
        from report_rollups r
        group by r.workspace_id, ${t.of}, ${keys};
      analyze ${table};
      `,
    );
  }
  // Statement triggers: the rows a statement added count +1, the rows it removed -1. Only live
  // workspaces (a workspace's deletion cascades to report_rollups and to these tables alike).
  const changed = {
    insert: 'select 1 as sign, n.* from new_rows n',
    update: 'select 1 as sign, n.* from new_rows n union all select -1, o.* from old_rows o',
    delete: 'select -1 as sign, o.* from old_rows o',
  };
  const referencing = {
    insert: 'new table as new_rows',
    update: 'new table as new_rows old table as old_rows',
    delete: 'old table as old_rows',
  };
  for (const event of ['insert', 'update', 'delete'] as const) {
    const appends = Object.entries(TABLES).map(([table, t]) => {
      const keys = t.keys.map((k) => `r.${k}`).join(', ');
      return `
        insert into ${table} (workspace_id, ${t.period}, ${t.keys.join(', ')}, rollup_rows, seconds, billable_cents, cost_cents)
        select r.workspace_id, ${t.of}, ${keys}, sum(r.sign), sum(r.sign * r.seconds),
          sum(r.sign * r.billable_cents), sum(r.sign * r.cost_cents)
        from (${changed[event]}) r
        where r.workspace_id in (select w.id from workspaces w)
        group by r.workspace_id, ${t.of}, ${keys}
        having sum(r.sign) <> 0 or sum(r.sign * r.seconds) <> 0
          or sum(r.sign * r.billable_cents) <> 0 or sum(r.sign * r.cost_cents) <> 0;`;
    });
    await sql
      .raw(`
      create function report_rollups_coarse_${event}() returns trigger language plpgsql as $$
      begin
        -- The stale rollups' rebuild, person by person, leaves these to report_rollups_coarse_rebuild.
        if current_setting('sundial.coarse_rollups_off', true) = 'on' then return null; end if;
        ${appends.join('\n')}
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(`create trigger report_rollups_coarse_${event} after ${event} on report_rollups
        referencing ${referencing[event]} for each statement execute function report_rollups_coarse_${event}()`)
      .execute(db);
  }
  // Folds a workspace's fresh rows into one row per key: the touched days (months) deleted and
  // their sums inserted back in one statement each, keys that sum to no row left out. One
  // compaction per workspace at a time (two would each reinsert what both deleted).
  const folds = Object.entries(TABLES).map(([table, t]) => {
    const keys = t.keys.map((k) => `g.${k}`).join(', ');
    return `
      with gone as (
        delete from ${table} x
        where x.workspace_id = p_ws
          and x.${t.period} in (select f.${t.period} from ${table} f where f.workspace_id = p_ws and f.fresh)
        returning x.*
      )
      insert into ${table} (workspace_id, ${t.period}, ${t.keys.join(', ')}, rollup_rows, seconds, billable_cents, cost_cents, fresh)
      select g.workspace_id, g.${t.period}, ${keys}, sum(g.rollup_rows), sum(g.seconds), sum(g.billable_cents), sum(g.cost_cents), false
      from gone g
      group by g.workspace_id, g.${t.period}, ${keys}
      having sum(g.rollup_rows) <> 0;`;
  });
  await sql
    .raw(`
    create function report_rollups_compact(p_ws uuid) returns void language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended('report_rollups_compact:' || p_ws::text, 0));
      ${folds.join('\n')}
    end $$`)
    .execute(db);
  // A workspace's coarse rows again from report_rollups, after the job rebuilt its stale rollups person by
  // person without them (each person's delete and insert would otherwise append ~a row per rollup row twice).
  // Writers meanwhile only append: rows committed before this statement's snapshot are deleted and counted
  // in the sums, rows committed after are neither, so both stay right without waiting for each other.
  const rebuilds = Object.entries(TABLES).map(([table, t]) => {
    const keys = t.keys.map((k) => `r.${k}`).join(', ');
    return `
      with gone as (delete from ${table} x where x.workspace_id = p_ws)
      insert into ${table} (workspace_id, ${t.period}, ${t.keys.join(', ')}, rollup_rows, seconds, billable_cents, cost_cents, fresh)
      select r.workspace_id, ${t.of}, ${keys}, count(*), sum(r.seconds), sum(r.billable_cents), sum(r.cost_cents), false
      from report_rollups r where r.workspace_id = p_ws
      group by r.workspace_id, ${t.of}, ${keys};`;
  });
  await sql
    .raw(`
    create function report_rollups_coarse_rebuild(p_ws uuid) returns void language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended('report_rollups_compact:' || p_ws::text, 0));
      ${rebuilds.join('\n')}
    end $$`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop function if exists report_rollups_coarse_rebuild(uuid);
    drop function if exists report_rollups_compact(uuid);
    drop trigger if exists report_rollups_coarse_insert on report_rollups;
    drop trigger if exists report_rollups_coarse_update on report_rollups;
    drop trigger if exists report_rollups_coarse_delete on report_rollups;
    drop function if exists report_rollups_coarse_insert();
    drop function if exists report_rollups_coarse_update();
    drop function if exists report_rollups_coarse_delete();
    drop table if exists report_rollups_tasks;
    drop table if exists report_rollups_task_months;
    drop table if exists report_rollups_people_months;
    `,
  );
}
