import { type Kysely, sql } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Each project's tracked seconds, kept by the database instead of summed on every read (issue 13:
 * the Projects list read every entry of every project shown, ~5,000 rows a project at 1M entries).
 *
 * Statement-level triggers on time_entries keep it, so every write is covered whichever path makes
 * it: the time-entries service, imports, Undo, and the foreign keys' own updates when a project or
 * a task is deleted. Each trigger sums its statement's transition tables once (one upsert per
 * project touched, not per row). A running timer has no duration and counts nothing until it stops.
 * A project's row goes with it (cascade); a project without a row has tracked nothing.
 */
const changes = {
  insert: 'select project_id, workspace_id, duration_seconds::bigint as seconds from new_rows',
  update: `select project_id, workspace_id, duration_seconds::bigint as seconds from new_rows
           union all select project_id, workspace_id, -duration_seconds::bigint from old_rows`,
  delete: 'select project_id, workspace_id, -duration_seconds::bigint as seconds from old_rows',
};

const referencing = {
  insert: 'new table as new_rows',
  update: 'new table as new_rows old table as old_rows',
  delete: 'old table as old_rows',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table project_time_totals (
      project_id uuid primary key,
      workspace_id uuid not null,
      tracked_seconds bigint not null default 0,
      foreign key (workspace_id, project_id) references projects (workspace_id, id) on delete cascade
    );
    `,
  );
  for (const event of ['insert', 'update', 'delete'] as const) {
    // A function body holds semicolons, so these go one statement at a time (runSql splits on them).
    await sql
      .raw(`
      create function project_time_totals_on_${event}() returns trigger language plpgsql as $$
      begin
        insert into project_time_totals as t (project_id, workspace_id, tracked_seconds)
        select d.project_id, d.workspace_id, d.seconds
        from (
          select project_id, workspace_id, sum(seconds) as seconds
          from (${changes[event]}) c
          where project_id is not null and seconds is not null
          group by project_id, workspace_id
        ) d
        -- A project deleted by this statement (its entries lose it) has no total left to keep.
        where d.seconds <> 0
          and exists (select 1 from projects p where p.workspace_id = d.workspace_id and p.id = d.project_id)
        order by d.project_id
        on conflict (project_id) do update set tracked_seconds = t.tracked_seconds + excluded.tracked_seconds;
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(`create trigger project_time_totals_${event} after ${event} on time_entries
        referencing ${referencing[event]} for each statement execute function project_time_totals_on_${event}()`)
      .execute(db);
  }
  await runSql(
    db,
    `
    insert into project_time_totals (project_id, workspace_id, tracked_seconds)
    select project_id, workspace_id, sum(duration_seconds)
    from time_entries
    where project_id is not null and duration_seconds is not null
    group by project_id, workspace_id;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop trigger if exists project_time_totals_insert on time_entries;
    drop trigger if exists project_time_totals_update on time_entries;
    drop trigger if exists project_time_totals_delete on time_entries;
    drop function if exists project_time_totals_on_insert();
    drop function if exists project_time_totals_on_update();
    drop function if exists project_time_totals_on_delete();
    drop table if exists project_time_totals;
    `,
  );
}
