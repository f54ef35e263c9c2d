import { type Kysely, sql } from 'kysely';
import {
  type CoarseTables,
  coarseCompactByKeyFunction,
  coarseCompactFunction,
  FIRST_COARSE_TABLES,
  WORK_COARSE_TABLES,
} from './coarse-rollups.js';
import { runSql } from './run-sql.js';

/**
 * A write no longer recomputes the report rollups (issue 33): it marks the (workspace, person,
 * local day) it touched as pending, and the rollups job folds pending days into the rollups in
 * the background. Before, the entry triggers recomputed each touched person-day in the writer's
 * transaction (delete and insert of the day's report_rollups rows), and report_rollups' own
 * triggers appended each statement's deltas to the five coarse tables: about 80 rows and ~7 ms
 * an insert, 3.7x its cost without rollups at 1M entries. Now an insert upserts one small row.
 *
 * Reads stay exact: the rollups hold every day that is not pending as its entries are, so a
 * report reads the rollups, takes the pending days' report_rollups rows out (negated) and their
 * entries' facts in (reports.time-source.ts). Every coarse table is the sum of report_rollups at
 * every commit (their triggers), so taking a pending day out of report_rollups takes it out of
 * them too.
 *
 * Locks. A writer upserts its pending rows with DO UPDATE, holding them until it commits; the fold
 * (`report_rollups_fold_pending`) takes only rows nobody holds (FOR UPDATE SKIP LOCKED), deletes
 * them and recomputes those days in later statements of its transaction, which see every writer
 * that marked them committed. A writer that marks a day the fold holds waits for the fold and then
 * marks it anew (the fold may not have seen its entries). Writers of one person take turns on a
 * transaction-level advisory lock of their own (two transactions marking one person's days in
 * opposite orders would otherwise deadlock); the fold and the stale rebuild never take it. The
 * share lock on the workspace's time_settings row stays: a change of the report zone waits for the
 * writers that read the old one (decision 0008, rollups rebuilt in the background).
 *
 * The fold of the coarse tables' appended rows (`report_rollups_compact`) rewrites only the keys that
 * have appended rows, no longer every row of each touched period (coarse-rollups.ts).
 */
const COARSE: CoarseTables = { ...FIRST_COARSE_TABLES, ...WORK_COARSE_TABLES };
const EVENTS = ['insert', 'update', 'delete'] as const;
const CHANGED = {
  insert: 'select workspace_id, user_id, start_at, end_at from new_rows',
  update: `select workspace_id, user_id, start_at, end_at from new_rows
           union all select workspace_id, user_id, start_at, end_at from old_rows`,
  delete: 'select workspace_id, user_id, start_at, end_at from old_rows',
};
const BREAKS_CHANGED = {
  insert: 'select workspace_id, entry_id from new_rows',
  update: 'select workspace_id, entry_id from new_rows union all select workspace_id, entry_id from old_rows',
  delete: 'select workspace_id, entry_id from old_rows',
};
const REFERENCING = {
  insert: 'new table as new_rows',
  update: 'new table as new_rows old table as old_rows',
  delete: 'old table as old_rows',
};

/** Marks the local days (in each workspace's report zone) of the finished entries `changed` yields. */
const markDays = (changed: string) => `
  perform 1 from time_settings s
    where s.workspace_id in (select c.workspace_id from (${changed}) c)
    order by s.workspace_id for share;
  perform pg_advisory_xact_lock(hashtextextended('report_rollups_pending:' || k.workspace_id::text || ':' || k.user_id::text, 0))
    from (select distinct c.workspace_id, c.user_id from (${changed}) c order by 1, 2) k;
  insert into report_rollups_pending as k (workspace_id, user_id, day)
  select distinct c.workspace_id, c.user_id, g::date
  from (${changed}) c
  left join time_settings s on s.workspace_id = c.workspace_id
  cross join lateral generate_series(
    date_trunc('day', c.start_at at time zone coalesce(s.report_time_zone, 'UTC')),
    c.end_at at time zone coalesce(s.report_time_zone, 'UTC'), interval '1 day') g
  where c.end_at is not null and c.workspace_id in (select w.id from workspaces w)
  order by 1, 2, 3
  on conflict (workspace_id, user_id, day) do update set marked_at = excluded.marked_at;`;

/** The rollup triggers of an event (names kept: triggers fire in name order) on the given functions. */
const attach = (event: (typeof EVENTS)[number], entries: string, breaks: string) => `
  drop trigger time_entries_rollups_${event} on time_entries;
  create trigger time_entries_rollups_${event} after ${event} on time_entries
    referencing ${REFERENCING[event]} for each statement execute function report_rollups_${entries}_${event}();
  drop trigger time_entry_breaks_rollups_${event} on time_entry_breaks;
  create trigger time_entry_breaks_rollups_${event} after ${event} on time_entry_breaks
    referencing ${REFERENCING[event]} for each statement execute function report_rollups_${breaks}_${event}();`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table report_rollups_pending (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null,
      day date not null,
      marked_at timestamptz not null default now(),
      primary key (workspace_id, user_id, day)
    );
    create index report_rollups_pending_day_idx on report_rollups_pending (workspace_id, day);
    `,
  );
  for (const event of EVENTS) {
    await sql
      .raw(`
      create function report_rollups_mark_entries_${event}() returns trigger language plpgsql as $$
      begin
        ${markDays(CHANGED[event])}
        return null;
      end $$`)
      .execute(db);
    // The break's entry as it is now (its days are the entry's).
    const entries = `select e.workspace_id, e.user_id, e.start_at, e.end_at from time_entries e
      where (e.workspace_id, e.id) in (select c.workspace_id, c.entry_id from (${BREAKS_CHANGED[event]}) c)`;
    await sql
      .raw(`
      create function report_rollups_mark_breaks_${event}() returns trigger language plpgsql as $$
      begin
        ${markDays(entries)}
        return null;
      end $$`)
      .execute(db);
    for (const fn of [`report_rollups_mark_entries_${event}`, `report_rollups_mark_breaks_${event}`])
      await sql.raw(`alter function ${fn}() set jit = off`).execute(db);
    await runSql(db, attach(event, 'mark_entries', 'mark_breaks'));
  }
  await sql.raw(coarseCompactByKeyFunction(COARSE)).execute(db);
  // Folds up to p_limit of a workspace's pending days into the rollups; answers how many it folded.
  await sql
    .raw(`
    create function report_rollups_fold_pending(p_ws uuid, p_limit integer) returns integer
    language plpgsql set jit = off as $$
    declare
      ws uuid[];
      us uuid[];
      ds date[];
    begin
      with picked as (
        select k.workspace_id, k.user_id, k.day from report_rollups_pending k
        where k.workspace_id = p_ws
        order by k.user_id, k.day
        limit p_limit
        for update skip locked
      ), gone as (
        delete from report_rollups_pending k using picked p
        where k.workspace_id = p.workspace_id and k.user_id = p.user_id and k.day = p.day
        returning k.workspace_id, k.user_id, k.day
      )
      select array_agg(g.workspace_id), array_agg(g.user_id), array_agg(g.day) into ws, us, ds from gone g;
      if ws is null then return 0; end if;
      -- A statement of its own: its snapshot sees every writer that marked these days committed.
      perform report_rollups_refresh(ws, us, ds);
      return cardinality(ws);
    end $$`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The pending days into the rollups first, then the triggers of migration 202611280402 again.
  await sql
    .raw(`select report_rollups_fold_pending(w.id, 2147483647) from workspaces w
      where exists (select 1 from report_rollups_pending k where k.workspace_id = w.id)`)
    .execute(db);
  for (const event of EVENTS)
    await runSql(
      db,
      `${attach(event, 'on_entries', 'on_breaks')}
      drop function report_rollups_mark_entries_${event}();
      drop function report_rollups_mark_breaks_${event}();`,
    );
  await runSql(
    db,
    `
    drop function report_rollups_fold_pending(uuid, integer);
    drop table report_rollups_pending;
    `,
  );
  await sql.raw(coarseCompactFunction(COARSE)).execute(db);
}
