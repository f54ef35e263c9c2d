import { sql } from 'kysely';
import type { Db } from '../../src/db/connection.js';

/**
 * Tables that change on requests by design, and how they are still watched:
 * - sessions: every signed-in request may renew the idle deadline (at most once a minute), so an
 *   update that changes only last_seen_at and idle_expires_at is not a write; a refused request
 *   that creates, ends or otherwise changes a session is still caught.
 * - login_attempts and known_devices: the log-in limiter writes an attempt down before it checks
 *   the password and counts a known device's failures, so a 401 (wrong password) or a 429
 *   (locked) may change them; any other refusal may not.
 * - rate_limit_hits (any table named like the per-address limiter's): it counts every request,
 *   refused or not, so it is not watched at all.
 * - jobs and job_schedules: the job runner's own bookkeeping. The watched app runs no job loop:
 *   the jobs a request queued run when it settles (what they write counts against that request)
 *   and no scheduled job runs at all, so an hourly reminder firing mid-run is never read as a
 *   refused request's write (issue 31).
 * - report_rollups_tasks, _task_months, _people_months, _work_months and _work_years: the coarse
 *   rollups, kept by triggers on report_rollups (which is watched), so a request that changed time
 *   is still caught there; the every-minute `reports.rebuild-rollups` job folds their appended rows
 *   (the same sums in fewer rows) whatever request happens to be under way.
 */
const RENEWED_COLUMNS: Record<string, string[]> = { sessions: ['last_seen_at', 'idle_expires_at'] };
export const LIMITER_TABLES = new Set(['login_attempts', 'known_devices']);
const UNWATCHED =
  /rate_limit|ratelimit|throttle|^jobs$|^job_schedules$|^report_rollups_(tasks|task_months|people_months|work_months|work_years)$/;

/** Statuses whose limiter writes are allowed: a counted failed log-in and a refusal for too many. */
export const LIMITER_STATUSES = new Set([401, 429]);

/**
 * Which tables each request wrote, for the test database only: a row trigger on every table of
 * the public schema notes the table's name in bad_input.writes whenever a committed statement
 * inserts, deletes or really changes a row (an update to the same values is not a write, and a
 * rolled-back transaction takes its notes with it). Reading and clearing the notes after each
 * request is one small query, where hashing every table's content each time cost as much as the
 * request itself.
 */
export async function createWriteWatch(db: Db) {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const tables = rows.map((r) => r.table_name).filter((name) => !UNWATCHED.test(name));
  await sql`create schema if not exists bad_input`.execute(db);
  await sql`create table if not exists bad_input.writes (table_name text not null)`.execute(db);
  await sql`
    create or replace function bad_input.note_write() returns trigger language plpgsql as $$
    begin
      insert into bad_input.writes values (tg_table_name);
      return null;
    end $$`.execute(db);
  for (const table of tables) {
    const renewed = RENEWED_COLUMNS[table];
    let changedRow = sql`old.* is distinct from new.*`;
    if (renewed) {
      const cols = await sql<{ column_name: string }>`
        select column_name from information_schema.columns
        where table_schema = 'public' and table_name = ${table} order by ordinal_position`.execute(db);
      const watched = cols.rows.map((c) => c.column_name).filter((c) => !renewed.includes(c));
      const of = (row: string) => sql.join(watched.map((c) => sql.ref(`${row}.${c}`)));
      changedRow = sql`(${of('old')}) is distinct from (${of('new')})`;
    }
    const name = sql.table(`public.${table}`);
    await sql`drop trigger if exists bad_input_write on ${name}`.execute(db);
    await sql`drop trigger if exists bad_input_update on ${name}`.execute(db);
    await sql`create trigger bad_input_write after insert or delete on ${name}
      for each row execute function bad_input.note_write()`.execute(db);
    await sql`create trigger bad_input_update after update on ${name}
      for each row when (${changedRow}) execute function bad_input.note_write()`.execute(db);
  }

  // A queued job is noted too (not as a write): a request that queued none needs no drain.
  await sql`drop trigger if exists bad_input_queued on public.jobs`.execute(db);
  await sql`create trigger bad_input_queued after insert on public.jobs
    for each row execute function bad_input.note_write()`.execute(db);

  const read = async () => {
    const { rows: notes } = await sql<{ table_name: string }>`
      delete from bad_input.writes returning table_name`.execute(db);
    return new Set(notes.map((n) => n.table_name));
  };
  const tablesOf = (notes: Set<string>) => [...notes].filter((t) => t !== 'jobs').sort();

  return {
    tables,
    /** The tables written since the last call, and forgets them. */
    async changed(): Promise<string[]> {
      return tablesOf(await read());
    },
    /**
     * The same, after running the jobs queued since the last call (`runJobs`, until none is
     * queued): what they write counts here. One query when nothing was queued, as for most requests.
     */
    async changedAfterJobs(runJobs: () => Promise<unknown>): Promise<string[]> {
      const notes = await read();
      for (let queued = notes.has('jobs'); queued; ) {
        await runJobs();
        const more = await read();
        queued = more.has('jobs');
        for (const table of more) notes.add(table);
      }
      return tablesOf(notes);
    },
  };
}

export type WriteWatch = Awaited<ReturnType<typeof createWriteWatch>>;
