import { type Kysely, sql } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Daily sums of finished time entries for the report engine (issue 14: any Summary of 10M
 * entries within 1 s): one row per (workspace, local day in the workspace's report zone, user,
 * project, task, billable, invoiced) with the seconds, billable and cost cents of the entries'
 * parts of that day, each part rounded with the workspace rounding and priced with the entry's
 * copied rates before it is added, exactly as the engine's `facts` (reports.repository.ts) does.
 *
 * Kept by the database, like project_time_totals: statement-level triggers on time_entries and
 * time_entry_breaks cover every write path (the service, imports, Undo, invoiced marks, rates
 * re-applied, the foreign keys' own updates when a project or task goes). A trigger does not add
 * deltas: it recomputes each touched (workspace, user, local day) from the entries as they are
 * now, so the rows are the raw computation by construction and a break's change needs no "before".
 * Two transactions touching the same person's rollups take turns (an advisory lock per person
 * until commit); in READ COMMITTED the second one's recompute then sees the first's entries.
 * A change of the report zone or rounding rebuilds the workspace's rows in the same transaction
 * (a trigger on time_settings; writers hold a share lock on that row, so none writes in the old
 * zone meanwhile). Running entries are not in it: the engine adds their raw facts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table report_rollups (
      workspace_id uuid not null references workspaces (id) on delete cascade,
      day date not null,
      user_id uuid not null,
      project_id uuid,
      task_id uuid,
      billable boolean not null,
      invoiced boolean not null,
      seconds bigint not null,
      billable_cents bigint not null,
      cost_cents bigint not null
    );
    create index report_rollups_day_idx on report_rollups (workspace_id, day);
    create index report_rollups_user_day_idx on report_rollups (workspace_id, user_id, day);
    `,
  );
  // Function bodies hold semicolons: one statement at a time (runSql splits on them).
  // roundDuration of @sundial/core on whole seconds, as the engine's roundingOf.
  await sql
    .raw(`
    create function report_round(secs bigint, mode text, step integer) returns bigint
    language sql immutable as $$
      select case mode
        when 'up' then ((secs + step - 1) / step) * step
        when 'down' then (secs / step) * step
        when 'nearest' then ((secs + step / 2) / step) * step
        else secs end
    $$`)
    .execute(db);
  // An entry's work by local day, unrounded: the engine's slowPieces for a finished entry.
  // (An entry ending at a local midnight reaches that day; its piece there is empty, left out.)
  await sql
    .raw(`
    create function report_entry_pieces(p_ws uuid, p_entry uuid, p_start timestamptz, p_end timestamptz, p_tz text)
    returns table (day date, secs bigint) language sql stable as $$
      with clipped as (
        select greatest(p_start, b.start_at) as a, least(p_end, coalesce(b.end_at, p_end)) as b
        from time_entry_breaks b where b.workspace_id = p_ws and b.entry_id = p_entry
          and least(p_end, coalesce(b.end_at, p_end)) > greatest(p_start, b.start_at)
      ), intervals as (
        select w.cur as a, w.a as b from (
          select c.a, greatest(p_start, coalesce(max(c.b) over (order by c.a, c.b
            rows between unbounded preceding and 1 preceding), p_start)) as cur
          from clipped c
        ) w where w.a > w.cur
        union all
        select greatest(p_start, coalesce(max(c.b), p_start)), p_end from clipped c
        having p_end > greatest(p_start, coalesce(max(c.b), p_start))
      )
      select pc.day, sum(pc.secs)::bigint from (
        select g::date as day,
          round(extract(epoch from least(i.b, (g + interval '1 day') at time zone p_tz) - greatest(i.a, g at time zone p_tz))) as secs
        from intervals i
        cross join lateral generate_series(date_trunc('day', i.a at time zone p_tz), i.b at time zone p_tz, interval '1 day') g
        where least(i.b, (g + interval '1 day') at time zone p_tz) > greatest(i.a, g at time zone p_tz)
      ) pc group by pc.day
      -- An entry without work shows 0 seconds on its start day, as in the engine.
      union all
      select (p_start at time zone p_tz)::date, 0 where not exists (select 1 from intervals)
    $$`)
    .execute(db);
  // Recomputes the rows of the given (workspace, user, day) triples from the entries.
  await sql
    .raw(`
    create function report_rollups_refresh(p_ws uuid[], p_users uuid[], p_days date[]) returns void
    language plpgsql as $$
    begin
      if p_ws is null or cardinality(p_ws) = 0 then return; end if;
      perform 1 from time_settings s where s.workspace_id = any(p_ws) order by s.workspace_id for share;
      perform pg_advisory_xact_lock(hashtextextended('report_rollups:' || k.ws::text || ':' || k.u::text, 0))
        from (select distinct t.ws, t.u from unnest(p_ws, p_users) t(ws, u) order by t.ws, t.u) k;
      delete from report_rollups r
        using (select distinct t.ws, t.u, t.d from unnest(p_ws, p_users, p_days) t(ws, u, d)) k
        where r.workspace_id = k.ws and r.user_id = k.u and r.day = k.d;
      insert into report_rollups (workspace_id, day, user_id, project_id, task_id, billable, invoiced,
        seconds, billable_cents, cost_cents)
      select x.workspace_id, x.day, x.user_id, x.project_id, x.task_id, x.billable, x.invoiced,
        sum(x.seconds), sum(x.billable_cents), sum(x.cost_cents)
      from (
        select e.workspace_id, k.d as day, e.user_id, e.project_id, e.task_id, e.billable,
          e.invoiced_at is not null as invoiced, p.seconds,
          case when e.billable then coalesce((e.billable_rate_cents::bigint * p.seconds + 1800) / 3600, 0) else 0 end
            as billable_cents,
          coalesce((e.cost_rate_cents::bigint * p.seconds + 1800) / 3600, 0) as cost_cents
        from (
          select distinct t.ws, t.u, t.d, coalesce(s.report_time_zone, 'UTC') as tz,
            coalesce(s.rounding_mode, 'none') as mode, coalesce(s.rounding_minutes, 15) * 60 as step,
            coalesce((select x.longest_seconds from time_entry_extents x where x.workspace_id = t.ws), 0) as longest
          from unnest(p_ws, p_users, p_days) t(ws, u, d)
          left join time_settings s on s.workspace_id = t.ws
        ) k
        join time_entries e on e.workspace_id = k.ws and e.user_id = k.u and e.end_at is not null
          and e.start_at < ((k.d + 1)::timestamp at time zone k.tz)
          and e.end_at >= (k.d::timestamp at time zone k.tz)
          and e.start_at >= (k.d::timestamp at time zone k.tz) - make_interval(secs => k.longest)
        cross join lateral (
          select report_round(
            case
              when e.end_at > e.start_at
                and (e.start_at at time zone k.tz)::date = (e.end_at at time zone k.tz)::date
                and not exists (select 1 from time_entry_breaks b where b.workspace_id = e.workspace_id and b.entry_id = e.id)
              then e.duration_seconds::bigint
              else (select pp.secs from report_entry_pieces(e.workspace_id, e.id, e.start_at, e.end_at, k.tz) pp
                    where pp.day = k.d)
            end, k.mode, k.step) as seconds
        ) p
        where p.seconds is not null
      ) x
      group by x.workspace_id, x.day, x.user_id, x.project_id, x.task_id, x.billable, x.invoiced;
    end $$`)
    .execute(db);
  // All of a workspace's rows again (its report zone or rounding changed; the backfill).
  await sql
    .raw(`
    create function report_rollups_rebuild(p_ws uuid) returns void language plpgsql as $$
    declare
      tz text;
      mode text;
      step integer;
    begin
      select coalesce(max(s.report_time_zone), 'UTC'), coalesce(max(s.rounding_mode), 'none'),
        coalesce(max(s.rounding_minutes), 15) * 60
        into tz, mode, step
        from time_settings s where s.workspace_id = p_ws;
      delete from report_rollups where workspace_id = p_ws;
      insert into report_rollups (workspace_id, day, user_id, project_id, task_id, billable, invoiced,
        seconds, billable_cents, cost_cents)
      select x.workspace_id, x.day, x.user_id, x.project_id, x.task_id, x.billable, x.invoiced,
        sum(x.seconds), sum(x.billable_cents), sum(x.cost_cents)
      from (
        select e.workspace_id, e.day, e.user_id, e.project_id, e.task_id, e.billable, e.invoiced, e.seconds,
          case when e.billable then coalesce((e.billable_rate_cents::bigint * e.seconds + 1800) / 3600, 0) else 0 end
            as billable_cents,
          coalesce((e.cost_rate_cents::bigint * e.seconds + 1800) / 3600, 0) as cost_cents
        from (
          select e.*, e.invoiced_at is not null as invoiced, (e.start_at at time zone tz)::date as day,
            report_round(e.duration_seconds::bigint, mode, step) as seconds
          from time_entries e
          where e.workspace_id = p_ws and e.end_at > e.start_at
            and (e.start_at at time zone tz)::date = (e.end_at at time zone tz)::date
            and e.id not in (select b.entry_id from time_entry_breaks b where b.workspace_id = p_ws)
          union all
          select e.*, e.invoiced_at is not null, pp.day, report_round(pp.secs, mode, step)
          from time_entries e
          cross join lateral report_entry_pieces(e.workspace_id, e.id, e.start_at, e.end_at, tz) pp
          where e.workspace_id = p_ws and e.end_at is not null
            and not (e.end_at > e.start_at
              and (e.start_at at time zone tz)::date = (e.end_at at time zone tz)::date
              and e.id not in (select b.entry_id from time_entry_breaks b where b.workspace_id = p_ws))
        ) e
      ) x
      group by x.workspace_id, x.day, x.user_id, x.project_id, x.task_id, x.billable, x.invoiced;
    end $$`)
    .execute(db);
  // Entry triggers: the local days of the rows before and after the statement.
  const changed = {
    insert: 'select workspace_id, user_id, start_at, end_at from new_rows',
    update: `select workspace_id, user_id, start_at, end_at from new_rows
             union all select workspace_id, user_id, start_at, end_at from old_rows`,
    delete: 'select workspace_id, user_id, start_at, end_at from old_rows',
  };
  const referencing = {
    insert: 'new table as new_rows',
    update: 'new table as new_rows old table as old_rows',
    delete: 'old table as old_rows',
  };
  for (const event of ['insert', 'update', 'delete'] as const) {
    await sql
      .raw(`
      create function report_rollups_on_entries_${event}() returns trigger language plpgsql as $$
      begin
        -- The zone is read under the share lock a zone change waits for.
        perform 1 from time_settings s
          where s.workspace_id in (select c.workspace_id from (${changed[event]}) c)
          order by s.workspace_id for share;
        perform report_rollups_refresh(array_agg(k.workspace_id), array_agg(k.user_id), array_agg(k.day))
        from (
          select distinct c.workspace_id, c.user_id, g::date as day
          from (${changed[event]}) c
          left join time_settings s on s.workspace_id = c.workspace_id
          cross join lateral generate_series(
            date_trunc('day', c.start_at at time zone coalesce(s.report_time_zone, 'UTC')),
            c.end_at at time zone coalesce(s.report_time_zone, 'UTC'), interval '1 day') g
          where c.end_at is not null
        ) k;
        return null;
      end $$`)
      .execute(db);
    // Named after time_entries_longest_*: triggers fire in name order, and the refresh reads the longest entry.
    await sql
      .raw(`create trigger time_entries_rollups_${event} after ${event} on time_entries
        referencing ${referencing[event]} for each statement execute function report_rollups_on_entries_${event}()`)
      .execute(db);
    const breaks = changed[event].replaceAll('workspace_id, user_id, start_at, end_at', 'workspace_id, entry_id');
    await sql
      .raw(`
      create function report_rollups_on_breaks_${event}() returns trigger language plpgsql as $$
      begin
        perform 1 from time_settings s
          where s.workspace_id in (select c.workspace_id from (${breaks}) c)
          order by s.workspace_id for share;
        perform report_rollups_refresh(array_agg(k.workspace_id), array_agg(k.user_id), array_agg(k.day))
        from (
          select distinct e.workspace_id, e.user_id, g::date as day
          from time_entries e
          left join time_settings s on s.workspace_id = e.workspace_id
          cross join lateral generate_series(
            date_trunc('day', e.start_at at time zone coalesce(s.report_time_zone, 'UTC')),
            e.end_at at time zone coalesce(s.report_time_zone, 'UTC'), interval '1 day') g
          where (e.workspace_id, e.id) in (select c.workspace_id, c.entry_id from (${breaks}) c)
            and e.end_at is not null
        ) k;
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(`create trigger time_entry_breaks_rollups_${event} after ${event} on time_entry_breaks
        referencing ${referencing[event]} for each statement execute function report_rollups_on_breaks_${event}()`)
      .execute(db);
  }
  await sql
    .raw(`
    create function report_rollups_on_settings() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.report_time_zone is distinct from old.report_time_zone
        or new.rounding_mode is distinct from old.rounding_mode
        or new.rounding_minutes is distinct from old.rounding_minutes then
        perform report_rollups_rebuild(new.workspace_id);
      end if;
      return null;
    end $$`)
    .execute(db);
  await runSql(
    db,
    `
    create trigger time_settings_rollups after insert or update on time_settings
      for each row execute function report_rollups_on_settings();
    select report_rollups_rebuild(id) from workspaces;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop trigger if exists time_settings_rollups on time_settings;
    drop function if exists report_rollups_on_settings();
    drop trigger if exists time_entries_rollups_insert on time_entries;
    drop trigger if exists time_entries_rollups_update on time_entries;
    drop trigger if exists time_entries_rollups_delete on time_entries;
    drop trigger if exists time_entry_breaks_rollups_insert on time_entry_breaks;
    drop trigger if exists time_entry_breaks_rollups_update on time_entry_breaks;
    drop trigger if exists time_entry_breaks_rollups_delete on time_entry_breaks;
    drop function if exists report_rollups_on_entries_insert();
    drop function if exists report_rollups_on_entries_update();
    drop function if exists report_rollups_on_entries_delete();
    drop function if exists report_rollups_on_breaks_insert();
    drop function if exists report_rollups_on_breaks_update();
    drop function if exists report_rollups_on_breaks_delete();
    drop function if exists report_rollups_rebuild(uuid);
    drop function if exists report_rollups_refresh(uuid[], uuid[], date[]);
    drop function if exists report_entry_pieces(uuid, uuid, timestamptz, timestamptz, text);
    drop function if exists report_round(bigint, text, integer);
    drop table if exists report_rollups;
    `,
  );
}
