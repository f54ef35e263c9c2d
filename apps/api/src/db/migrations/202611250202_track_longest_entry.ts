import { type Kysely, sql } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * The longest finished entry a workspace has ever stored, so a range query can bound start_at
 * from below: an entry ending after `from` started after `from - longest` (issue 13: the week
 * list walked a user's whole history, 10,258 buffers for 55 rows).
 *
 * The setting max_entry_minutes cannot give that bound: the timer, imports and restores do not
 * apply it, and it may be lowered after longer entries exist. So the database keeps the figure
 * itself, whatever wrote the entry. It only ever rises (deleting the longest entry leaves it:
 * a looser bound is still correct), and the triggers write the row only when a new entry beats
 * it, so ordinary writes read it and take no lock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table time_entry_extents (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      longest_seconds double precision not null check (longest_seconds >= 0)
    );
    insert into time_entry_extents (workspace_id, longest_seconds)
      select workspace_id, max(extract(epoch from end_at) - extract(epoch from start_at))
      from time_entries
      where end_at is not null
      group by workspace_id;
  `,
  );
  // One statement with a body: runSql splits scripts at semicolons.
  await sql
    .raw(
      `
    create function time_entries_raise_longest() returns trigger language plpgsql as $fn$
    declare
      r record;
    begin
      for r in
        select workspace_id, max(extract(epoch from end_at) - extract(epoch from start_at)) as seconds
        from new_rows
        where end_at is not null
        group by workspace_id
      loop
        update time_entry_extents set longest_seconds = r.seconds
          where workspace_id = r.workspace_id and longest_seconds < r.seconds;
        -- Only a workspace's first finished entry gets here without a row; two at once meet in
        -- the conflict clause, and the longer one stays.
        if not found and not exists (select 1 from time_entry_extents where workspace_id = r.workspace_id) then
          insert into time_entry_extents (workspace_id, longest_seconds) values (r.workspace_id, r.seconds)
            on conflict (workspace_id) do update
            set longest_seconds = greatest(time_entry_extents.longest_seconds, excluded.longest_seconds);
        end if;
      end loop;
      return null;
    end
    $fn$`,
    )
    .execute(db);
  await runSql(
    db,
    `
    create trigger time_entries_longest_after_insert after insert on time_entries
      referencing new table as new_rows for each statement execute function time_entries_raise_longest();
    create trigger time_entries_longest_after_update after update on time_entries
      referencing new table as new_rows for each statement execute function time_entries_raise_longest();
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    drop trigger if exists time_entries_longest_after_update on time_entries;
    drop trigger if exists time_entries_longest_after_insert on time_entries;
    drop function if exists time_entries_raise_longest();
    drop table if exists time_entry_extents;
  `,
  );
}
