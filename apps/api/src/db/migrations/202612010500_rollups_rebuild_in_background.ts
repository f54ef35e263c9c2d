import { type Kysely, sql } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * A change of the report zone or rounding no longer rebuilds the workspace's report rollups in
 * the settings' own transaction (24 s at a million entries, every writer of the workspace waiting
 * meanwhile). The change marks them stale (`time_settings.rollups_ready`, set false by a BEFORE
 * trigger), reports read the entries while they are, and a job (reports.service's
 * `rebuildStaleRollups`) rebuilds them one person at a time, each in a short transaction under
 * the same locks the entry triggers take, then marks them ready if no change came meanwhile
 * (`rollups_version` counts the changes). The entry triggers keep writing in the current zone meanwhile: rows
 * of several zones may sit side by side until the job is through, and no report reads them then.
 * A new workspace's settings row is still rebuilt at once (it has no entries).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    alter table time_settings add column rollups_ready boolean not null default true;
    alter table time_settings add column rollups_version integer not null default 0;
    drop trigger time_settings_rollups on time_settings;
    drop function report_rollups_on_settings();
    `,
  );
  // One person's rows again, under the locks the entry triggers take (the settings row shared, then the person's).
  await sql
    .raw(`
    create or replace function report_rollups_rebuild_user(p_ws uuid, p_user uuid) returns void
    language plpgsql as $$
    declare
      tz text;
      mode text;
      step integer;
    begin
      perform 1 from time_settings s where s.workspace_id = p_ws for share;
      perform pg_advisory_xact_lock(hashtextextended('report_rollups:' || p_ws::text || ':' || p_user::text, 0));
      select coalesce(max(s.report_time_zone), 'UTC'), coalesce(max(s.rounding_mode), 'none'),
        coalesce(max(s.rounding_minutes), 15) * 60
        into tz, mode, step
        from time_settings s where s.workspace_id = p_ws;
      delete from report_rollups where workspace_id = p_ws and user_id = p_user;
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
          where e.workspace_id = p_ws and e.user_id = p_user and e.end_at > e.start_at
            and (e.start_at at time zone tz)::date = (e.end_at at time zone tz)::date
            and e.id not in (select b.entry_id from time_entry_breaks b where b.workspace_id = p_ws)
          union all
          select e.*, e.invoiced_at is not null, pp.day, report_round(pp.secs, mode, step)
          from time_entries e
          cross join lateral report_entry_pieces(e.workspace_id, e.id, e.start_at, e.end_at, tz) pp
          where e.workspace_id = p_ws and e.user_id = p_user and e.end_at is not null
            and not (e.end_at > e.start_at
              and (e.start_at at time zone tz)::date = (e.end_at at time zone tz)::date
              and e.id not in (select b.entry_id from time_entry_breaks b where b.workspace_id = p_ws))
        ) e
      ) x
      group by x.workspace_id, x.day, x.user_id, x.project_id, x.task_id, x.billable, x.invoiced;
    end $$`)
    .execute(db);
  // A whole workspace: each person's rows (people who tracked, and people whose rows are left).
  await sql
    .raw(`
    create or replace function report_rollups_rebuild(p_ws uuid) returns void language plpgsql as $$
    declare
      person uuid;
    begin
      for person in
        select e.user_id from time_entries e where e.workspace_id = p_ws
        union select r.user_id from report_rollups r where r.workspace_id = p_ws
      loop
        perform report_rollups_rebuild_user(p_ws, person);
      end loop;
    end $$`)
    .execute(db);
  await sql
    .raw(`
    create function report_rollups_mark_stale() returns trigger language plpgsql as $$
    begin
      if new.report_time_zone is distinct from old.report_time_zone
        or new.rounding_mode is distinct from old.rounding_mode
        or new.rounding_minutes is distinct from old.rounding_minutes then
        new.rollups_ready := false;
        new.rollups_version := old.rollups_version + 1;
      end if;
      return new;
    end $$`)
    .execute(db);
  await sql
    .raw(`
    create function report_rollups_on_settings_insert() returns trigger language plpgsql as $$
    begin
      perform report_rollups_rebuild(new.workspace_id);
      return null;
    end $$`)
    .execute(db);
  await runSql(
    db,
    `
    create trigger time_settings_rollups_stale before update on time_settings
      for each row execute function report_rollups_mark_stale();
    create trigger time_settings_rollups_insert after insert on time_settings
      for each row execute function report_rollups_on_settings_insert();
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop trigger if exists time_settings_rollups_stale on time_settings;
    drop trigger if exists time_settings_rollups_insert on time_settings;
    drop function if exists report_rollups_mark_stale();
    drop function if exists report_rollups_on_settings_insert();
    drop function if exists report_rollups_rebuild_user(uuid, uuid);
    alter table time_settings drop column rollups_ready;
    alter table time_settings drop column rollups_version;
    `,
  );
}
