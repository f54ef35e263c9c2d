import type { Rounding } from '@sundial/core';
import { type QueryResult, type RawBuilder, sql } from 'kysely';
import { type Db, heldCursorFor } from '../../db/connection.js';
import { uuids } from './reports.engine.js';
import { type EngineFilter, factsCte, matchingEntries, matchingFrom } from './reports.time-source.js';

export interface DetailedRow {
  id: string;
  user_id: string;
  user_name: string;
  project_id: string | null;
  project_name: string | null;
  project_color: string | null;
  client_name: string | null;
  task_id: string | null;
  task_name: string | null;
  tag_ids: string[];
  tag_names: string[];
  note: string;
  billable: boolean;
  invoiced_at: Date | null;
  start_at: Date;
  end_at: Date | null;
  duration_seconds: number | null;
  seconds: string | number;
  billable_cents: string | number;
  cost_cents: string | number;
  /** The client invoice the entry is on (a draft's number is null), or null. */
  invoice_id: string | null;
  invoice_number: string | null;
}

/** The invoice of a Detailed row's entry `entry`: a key lookup on each link table (primary keys). */
const invoiceOf = (ws: string, entry: RawBuilder<unknown>) => ({
  columns: sql`ci.id as invoice_id, ci.number as invoice_number`,
  joins: sql`left join client_invoice_entries il on il.entry_id = ${entry}
  left join client_invoices ci on ci.workspace_id = ${ws} and ci.id = il.invoice_id`,
});

export type DetailedSortKey = { sort: 'start' | 'duration' | 'description'; order: 'asc' | 'desc' };
export type DetailedAfter = { value: string | number; start: string; id: string };

/**
 * One page of the Detailed report: the page's entries are chosen by keyset (sort column, then
 * start, then id) and only they are split into days and rounded. By start and description the
 * keyset walks the index, so page 1,000 costs what page 1 does. By duration the order is the
 * duration shown, the rounded seconds of the days in range (an entry across the range's edge
 * shows its part in it; a running timer its time so far), so every matching entry's is computed
 * first: a sum over the range, what the totals cost. An entry shows when it overlaps the range.
 */
export function compileDetailedPage(f: EngineFilter, o: DetailedSortKey & { after?: DetailedAfter; limit: number }) {
  const dir = sql.raw(o.order);
  const cmp = sql.raw(o.order === 'desc' ? '<' : '>');
  const after = o.after;
  const keyset = (col: RawBuilder<unknown>, start: RawBuilder<unknown>, id: RawBuilder<unknown>) =>
    after
      ? o.sort === 'start'
        ? sql` and (${start}, ${id}) ${cmp} (${new Date(after.start)}::timestamptz, ${after.id}::uuid)`
        : sql` and (${col}, ${start}, ${id}) ${cmp} (${after.value}, ${new Date(after.start)}::timestamptz, ${after.id}::uuid)`
      : sql``;
  const orderOf = (col: RawBuilder<unknown>, start: RawBuilder<unknown>, id: RawBuilder<unknown>) =>
    o.sort === 'start'
      ? sql`order by ${start} ${dir}, ${id} ${dir}`
      : sql`order by ${col} ${dir}, ${start} ${dir}, ${id} ${dir}`;
  const order = orderOf(o.sort === 'duration' ? sql`e.shown` : sql`e.note`, sql`e.start_at`, sql`e.id`);
  const ws = f.workspaceId;
  const outer = orderOf(
    o.sort === 'duration' ? sql`coalesce(s.seconds, 0)` : sql`en.note`,
    sql`en.start_at`,
    sql`en.id`,
  );
  const columns = sql`e.id, e.user_id, e.project_id, e.task_id, e.note, e.billable, e.invoiced_at, e.start_at, e.end_at, e.duration_seconds`;
  // Finished and running entries each ordered and limited on their own, so the finished part
  // walks the start_at index from the cursor and stops at the page's end.
  const part = (which: 'finished' | 'running') => sql`(select ${columns}, null::bigint as shown
    from ${matchingFrom(f)}
    where ${matchingEntries(f, which)}${keyset(sql`e.note`, sql`e.start_at`, sql`e.id`)}
    ${order} limit ${o.limit})`;
  const chosen =
    o.sort === 'duration'
      ? sql`${factsCte(f, { day: false, listing: true, name: 'listed' })},
  page as materialized (
    select * from (select l.entry_id as id, l.user_id, l.project_id, l.task_id, l.note, l.billable, l.invoiced_at,
      l.start_at, l.end_at, l.duration_seconds, l.seconds as shown from listed l) e
    where true${keyset(sql`e.shown`, sql`e.start_at`, sql`e.id`)}
    ${order} limit ${o.limit}
  )`
      : sql`page as materialized (
    select * from (${part('finished')} union all ${part('running')}) e ${order} limit ${o.limit}
  )`;
  const invoice = invoiceOf(ws, sql`en.id`);
  return sql<DetailedRow>`with ${chosen},
  ${factsCte(f, {
    // The page's own starts bound the index scan, which otherwise reads the whole range to find the page's ids.
    where: sql`e.id in (select id from page) and e.start_at between (select min(start_at) from page) and (select max(start_at) from page)`,
    day: false,
  })},
  sums as (
    select entry_id, sum(seconds) as seconds, sum(billable_cents) as billable_cents, sum(cost_cents) as cost_cents
    from facts group by entry_id
  )
  select en.id, en.user_id, coalesce(nullif(u.name, ''), u.email) as user_name, en.project_id, p.name as project_name,
    p.color as project_color, c.name as client_name, en.task_id, t.name as task_name,
    coalesce((select array_agg(tt.tag_id::text order by tt.tag_id) from time_entry_tags tt
      where tt.workspace_id = ${ws} and tt.entry_id = en.id), '{}') as tag_ids,
    coalesce((select array_agg(tg.name order by tg.name) from time_entry_tags tt
      join tags tg on tg.workspace_id = tt.workspace_id and tg.id = tt.tag_id
      where tt.workspace_id = ${ws} and tt.entry_id = en.id), '{}') as tag_names,
    en.note, en.billable, en.invoiced_at, en.start_at, en.end_at, en.duration_seconds,
    coalesce(s.seconds, 0) as seconds, coalesce(s.billable_cents, 0) as billable_cents, coalesce(s.cost_cents, 0) as cost_cents,
    ${invoice.columns}
  from page en
  left join sums s on s.entry_id = en.id
  ${invoice.joins}
  join users u on u.id = en.user_id
  left join projects p on p.workspace_id = ${ws} and p.id = en.project_id
  left join clients c on c.workspace_id = ${ws} and c.id = p.client_id
  left join tasks t on t.workspace_id = ${ws} and t.id = en.task_id
  ${outer}`;
}

/**
 * A part of a listing by start: the entries that started from `from` (inclusive) until `to`
 * (exclusive), timestamps as PostgreSQL writes them; an open end where one is left out.
 */
export interface StartPart {
  from?: string;
  to?: string;
}
const startPart = (part: StartPart) =>
  sql.join(
    [
      sql`true`,
      ...(part.from === undefined ? [] : [sql`e.start_at >= ${part.from}::timestamptz`]),
      ...(part.to === undefined ? [] : [sql`e.start_at < ${part.to}::timestamptz`]),
    ],
    sql` and `,
  );

/**
 * Starts that cut the Detailed listing into `parts` parts of about as many entries (fewer when
 * starts repeat), in order, as text; from a 1 % sample of the table's pages (a few milliseconds
 * for a million entries) unless `exact`. `sampled` is how many entries the answer was read from.
 */
export function compileStartSplits(f: EngineFilter, parts: number, exact: boolean) {
  const fractions = Array.from({ length: parts - 1 }, (_, i) => (i + 1) / parts);
  return sql<{ splits: string[] | null; sampled: number | string }>`select
    array(select distinct s from unnest(q.splits) s where s is not null order by s)::text[] as splits, q.sampled
  from (
    select percentile_disc(${fractions}::float8[]) within group (order by e.start_at) as splits, count(*) as sampled
    from ${matchingFrom(f, exact ? undefined : sql`tablesample system (1)`)}
    where ${matchingEntries(f)}
  ) q`;
}

/**
 * The whole Detailed report as ONE statement, in the order of its pages (sort column, then start,
 * then id): the rows `compileDetailedPage` gives page after page, for a stream to read in chunks;
 * with `copy`, shaped for PostgreSQL's COPY (`compileDetailedCells`), only the entries that
 * started in `copy.part` when given.
 */
export function compileDetailedListing(f: EngineFilter, o: DetailedSortKey, copy?: { part?: StartPart | undefined }) {
  const ws = f.workspaceId;
  const dir = sql.raw(o.order);
  const order =
    o.sort === 'start'
      ? sql`order by f.start_at ${dir}, f.entry_id ${dir}`
      : sql`order by ${o.sort === 'duration' ? sql`f.seconds` : sql`f.note`} ${dir}, f.start_at ${dir}, f.entry_id ${dir}`;
  const invoice = invoiceOf(ws, sql`f.entry_id`);
  const where = copy?.part ? startPart(copy.part) : undefined;
  // The copy (PostgreSQL) joins the tags of the listing's own entries grouped once: looked up row by
  // row (a lateral), every row set up two ordered aggregates and probed the index, tags or none (a
  // million untagged entries: 4.0 CPU seconds for the whole copy instead of 5.0). A superset of the
  // entries is harmless (the join picks), so the same filters without the facts' split days. The
  // cursor (PGlite's path) keeps the lateral: PGlite ran the join slower (bench/README.md, Exports).
  const tagged = sql`select e.id from ${matchingFrom(f)}
    where ${matchingEntries(f)}${where ? sql` and ${where}` : sql``}`;
  const tagsOf = sql`array_agg(tt.tag_id::text order by tt.tag_id) as ids, array_agg(g.name order by g.name) as names
    from time_entry_tags tt join tags g on g.workspace_id = tt.workspace_id and g.id = tt.tag_id
    where tt.workspace_id = ${ws}`;
  const tags = copy
    ? sql`left join (select tt.entry_id, ${tagsOf} and tt.entry_id in (${tagged}) group by tt.entry_id) tg
      on tg.entry_id = f.entry_id`
    : sql`cross join lateral (select ${tagsOf} and tt.entry_id = f.entry_id) tg`;
  return sql<DetailedRow>`with ${factsCte(f, { day: false, listing: true, ...(where ? { where } : {}) })}
  select f.entry_id as id, f.user_id, coalesce(nullif(u.name, ''), u.email) as user_name, f.project_id,
    p.name as project_name, p.color as project_color, c.name as client_name, f.task_id, t.name as task_name,
    coalesce(tg.ids, '{}') as tag_ids, coalesce(tg.names, '{}') as tag_names,
    f.note, f.billable, f.invoiced_at, f.start_at, f.end_at, f.duration_seconds,
    f.seconds, f.billable_cents, f.cost_cents, ${invoice.columns}
  from facts f
  ${tags}
  join users u on u.id = f.user_id
  left join projects p on p.workspace_id = ${ws} and p.id = f.project_id
  left join clients c on c.workspace_id = ${ws} and c.id = f.client_id
  left join tasks t on t.workspace_id = ${ws} and t.id = f.task_id
  ${invoice.joins}
  ${order}`;
}

/**
 * The columns a Detailed listing offers a caller that lays its rows out in SQL (an export's CSV
 * written by the database): `d.<name>` in the cells given to `compileDetailedCells`.
 * `tags` is the tag names joined with ", "; `billable_amount` and `cost_amount` are null where
 * the actor may not see them.
 */
export type DetailedCellColumn =
  | 'user_name'
  | 'client_name'
  | 'project_name'
  | 'task_name'
  | 'note'
  | 'tag_names'
  | 'tags'
  | 'billable'
  | 'invoiced'
  | 'start_at'
  | 'end_at'
  | 'seconds'
  | 'billable_amount'
  | 'cost_amount';

/** Who of the listed people's amounts show: `null` everyone's, else these user ids (maybe none). */
export type SeenPeople = readonly string[] | null;
const seenBy = (people: SeenPeople, userId: RawBuilder<unknown>) =>
  people === null ? sql`true` : people.length ? sql`${userId} = any(${[...people]}::uuid[])` : sql`false`;

/**
 * The Detailed listing (its rows and order) with each row turned into `cells`, SQL over the
 * columns `DetailedCellColumn` names: what `COPY … TO STDOUT` writes as CSV.
 */
export function compileDetailedCells(
  f: EngineFilter,
  o: DetailedSortKey,
  seen: { billable: SeenPeople; cost: SeenPeople },
  cells: readonly RawBuilder<unknown>[],
  part?: StartPart,
) {
  const dir = sql.raw(o.order);
  // The listing is ordered already; the same order outside keeps it (PostgreSQL adds no second sort).
  const order =
    o.sort === 'start'
      ? sql`order by d.start_at ${dir}, d.id ${dir}`
      : sql`order by ${o.sort === 'duration' ? sql`d.seconds` : sql`d.note`} ${dir}, d.start_at ${dir}, d.id ${dir}`;
  return sql`select ${sql.join(cells)} from (
    select l.*, l.invoiced_at is not null as invoiced,
      array_to_string(l.tag_names, ', ') as tags,
      case when ${seenBy(seen.billable, sql`l.user_id`)} then l.billable_cents end as billable_amount,
      case when ${seenBy(seen.cost, sql`l.user_id`)} then l.cost_cents end as cost_amount
    from (${compileDetailedListing(f, o, { part })}) l
  ) d ${order}`;
}

/**
 * The Detailed listing's totals in one pass: its rows, their seconds, and their billable and cost
 * amounts, each null when some row's amount is hidden from the actor (no true total then).
 */
export function compileDetailedTotals(f: EngineFilter, seen: { billable: SeenPeople; cost: SeenPeople }) {
  return sql<{ entries: number; seconds: number; billable_cents: number | null; cost_cents: number | null }>`
  with ${factsCte(f, { day: false, listing: true })}
  select count(*) as entries, coalesce(sum(f.seconds), 0)::bigint as seconds,
    case when coalesce(bool_and(${seenBy(seen.billable, sql`f.user_id`)}), true)
      then coalesce(sum(f.billable_cents), 0)::bigint end as billable_cents,
    case when coalesce(bool_and(${seenBy(seen.cost, sql`f.user_id`)}), true)
      then coalesce(sum(f.cost_cents), 0)::bigint end as cost_cents
  from facts f`;
}

/**
 * A report statement's settings, for its transaction: JIT compilation off (a year of a large
 * workspace costs enough for PostgreSQL to JIT-compile it, which took longer, 3.4 s on
 * bench:reports, than running it) and room to group and sort in memory: a year by month and
 * person at 10M sorted on disk with the default 4 MB (bench/README.md, "Coarse rollups").
 */
const REPORT_SETTINGS = sql`select set_config('jit', 'off', true), set_config('work_mem', '64MB', true)`;

/** Runs a report statement with REPORT_SETTINGS. */
async function withoutJit<R>(db: Db, query: RawBuilder<R>): Promise<R[]> {
  return db.transaction().execute(async (tx) => {
    await REPORT_SETTINGS.execute(tx);
    return (await query.execute(tx)).rows;
  });
}

export const reportsRepository = {
  run: <R>(db: Db, query: RawBuilder<R>): Promise<R[]> => withoutJit(db, query),

  detailed: (db: Db, query: RawBuilder<DetailedRow>): Promise<DetailedRow[]> => withoutJit(db, query),

  /** An entry's note, for a description-sorted page's keyset (the cursor carries the id, never the text). */
  async noteOf(db: Db, workspaceId: string, entryId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('time_entries')
      .select('note')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', entryId)
      .executeTakeFirst();
    return row?.note;
  },

  /**
   * A report statement read `chunkSize` rows at a time through a cursor, in a transaction of its
   * own with JIT off. The next chunk is read while the reader works on this one, so the database
   * and the reader overlap; memory holds two chunks. The stream holds a connection until it ends,
   * fails or its reader stops early, and only then gives it back. On PGlite, whose one connection
   * everyone shares, the statement runs whole into a cursor WITH HOLD and each chunk is a turn of
   * its own (PGliteDialect.heldCursor): others go between the chunks but wait for the whole run, so
   * the Detailed export reads PGlite in keyset pages instead (`detailedStream`; this only to compare).
   */
  async *stream<R>(db: Db, query: RawBuilder<R>, chunkSize: number): AsyncGenerator<R[]> {
    // PGlite: the one connection is held for the statement's run only, not between chunks.
    const held = heldCursorFor(db);
    if (held) {
      yield* held<R>(query.compile(db), chunkSize);
      return;
    }
    const tx = await db.startTransaction().execute();
    let chunks: AsyncIterator<QueryResult<R>> | undefined;
    let ahead: Promise<IteratorResult<QueryResult<R>>> | undefined;
    let ended = false;
    try {
      await sql`set local jit = off`.execute(tx);
      // Plan for every row, as for a plain statement, not for the first tenth (PGlite's DECLARE).
      await sql`set local cursor_tuple_fraction = 1`.execute(tx);
      chunks = tx.getExecutor().stream<R>(query.compile(tx), chunkSize)[Symbol.asyncIterator]();
      ahead = chunks.next();
      for (;;) {
        const chunk = await ahead;
        ahead = undefined;
        if (chunk.done) break;
        ahead = chunks.next();
        yield chunk.value.rows;
      }
      await tx.commit().execute();
      ended = true;
    } finally {
      if (!ended) {
        // Stopped early or failed: the read under way ends first, then the cursor, then the transaction.
        await ahead?.catch(() => undefined);
        await chunks?.return?.().catch(() => undefined);
        await tx
          .rollback()
          .execute()
          .catch(() => undefined);
      }
    }
  },

  /** Ids of the entries a report lists (with a piece in range), at most `limit` + 1. */
  async entryIds(db: Db, f: EngineFilter, limit: number): Promise<string[]> {
    const rows = await withoutJit(
      db,
      sql<{
        entry_id: string;
      }>`with ${factsCte(f, { day: false })} select distinct entry_id from facts limit ${limit + 1}`,
    );
    return rows.map((r) => r.entry_id);
  },

  /** How many entries a report lists (with a piece in range), counting at most `limit` when given. */
  /** See `compileStartSplits`. */
  async startSplits(
    db: Db,
    f: EngineFilter,
    parts: number,
    exact: boolean,
  ): Promise<{ splits: string[]; sampled: number }> {
    const rows = await withoutJit(db, compileStartSplits(f, parts, exact));
    return { splits: rows[0]?.splits ?? [], sampled: Number(rows[0]?.sampled ?? 0) };
  },

  async entryCount(db: Db, f: EngineFilter, limit?: number): Promise<number> {
    const capped = limit === undefined ? sql`` : sql`limit ${limit}`;
    // Without days the facts are one row per entry: no distinct, so a capped count stops at its
    // limit instead of reading every entry of the range first.
    const rows = await withoutJit(
      db,
      sql<{ n: number | string }>`with ${factsCte(f, { day: false })}
        select count(*) as n from (select 1 from facts ${capped}) listed`,
    );
    return Number(rows[0]?.n ?? 0);
  },

  /** Names of the ids a report's filters name, per kind (for the filters in words). */
  async filterNames(
    db: Db,
    workspaceId: string,
    ids: Partial<Record<'users' | 'groups' | 'clients' | 'projects' | 'tasks' | 'tags', readonly string[]>>,
  ): Promise<{ kind: string; id: string; name: string }[]> {
    const parts: RawBuilder<unknown>[] = [];
    const users = ids.users ?? [];
    if (users.length)
      parts.push(sql`select 'users'::text as kind, u.id::text as id, coalesce(nullif(u.name, ''), u.email) as name
        from users u join memberships m on m.user_id = u.id and m.workspace_id = ${workspaceId}
        where u.id in (${uuids(users)})`);
    for (const kind of ['groups', 'clients', 'projects', 'tasks', 'tags'] as const) {
      const list = ids[kind] ?? [];
      if (list.length)
        parts.push(sql`select ${kind}::text as kind, id::text as id, name from ${sql.table(kind)}
          where workspace_id = ${workspaceId} and id in (${uuids(list)})`);
    }
    if (parts.length === 0) return [];
    const rows = await sql<{ kind: string; id: string; name: string }>`${sql.join(parts, sql` union all `)}`.execute(
      db,
    );
    return rows.rows;
  },

  /**
   * The workspace's stored rounding and report zone (what its rollups hold once `rollupsReady`),
   * undefined without settings.
   */
  async reportSettings(
    db: Db,
    workspaceId: string,
  ): Promise<{ rounding: Rounding; timeZone: string; rollupsReady: boolean } | undefined> {
    const row = await db
      .selectFrom('time_settings')
      .select(['rounding_mode', 'rounding_minutes', 'report_time_zone', 'rollups_ready'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return (
      row && {
        rounding: { mode: row.rounding_mode, minutes: row.rounding_minutes },
        timeZone: row.report_time_zone,
        rollupsReady: row.rollups_ready,
      }
    );
  },

  /**
   * Whether the rollups pay for a range: reading a pending day costs about three times reading its
   * entries, so they are read while at most one person-day in `share` of the range (its days times the
   * workspace's members) waits for the fold; a burst of writes or an import before its fold reads the
   * entries instead (decision 0008, "Pending days"). `share` 0: whatever is pending.
   */
  async rollupsPay(db: Db, workspaceId: string, fromDay: string, toDay: string, share: number): Promise<boolean> {
    if (share === 0) return true;
    const row = await sql<{ pays: boolean }>`select count(*) * ${share}
        <= (${toDay}::date - ${fromDay}::date + 1)
          * greatest(1, (select count(*) from memberships m where m.workspace_id = ${workspaceId})) as pays
      from report_rollups_pending k
      where k.workspace_id = ${workspaceId} and k.day between ${fromDay}::date and ${toDay}::date`.execute(db);
    return row.rows[0]?.pays ?? true;
  },

  /** Workspaces with pending days or coarse rollups holding appended rows not yet folded (report_rollups_compact). */
  async unfoldedRollups(db: Db): Promise<string[]> {
    const rows = await sql<{ workspace_id: string }>`
      select distinct workspace_id from report_rollups_pending
      union select workspace_id from report_rollups_tasks where fresh
      union select workspace_id from report_rollups_task_months where fresh
      union select workspace_id from report_rollups_people_months where fresh
      union select workspace_id from report_rollups_work_months where fresh
      union select workspace_id from report_rollups_work_years where fresh`.execute(db);
    return rows.rows.map((r) => r.workspace_id);
  },

  /**
   * Recomputes up to `limit` of a workspace's pending days (the days writes marked) into the rollups,
   * in a transaction of its own (report_rollups_fold_pending); answers how many it folded.
   */
  foldPendingDays: (db: Db, workspaceId: string, limit: number) =>
    db.transaction().execute(async (tx) => {
      const result = await sql<{
        n: number;
      }>`select report_rollups_fold_pending(${workspaceId}, ${limit}) as n`.execute(tx);
      return Number(result.rows[0]?.n ?? 0);
    }),

  /** Folds a workspace's appended coarse rollup rows into one row per key, in a transaction of its own. */
  foldRollups: (db: Db, workspaceId: string) =>
    db.transaction().execute((tx) => sql`select report_rollups_compact(${workspaceId})`.execute(tx)),

  /** Workspaces whose rollups wait for a rebuild, with the settings to rebuild them in. */
  staleRollups: (db: Db) =>
    db
      .selectFrom('time_settings')
      .select(['workspace_id', 'rollups_version'])
      .where('rollups_ready', '=', false)
      .execute(),

  /** Everyone with rollup rows or entries in the workspace. */
  async rollupPeople(db: Db, workspaceId: string): Promise<string[]> {
    const rows = await sql<{ user_id: string }>`
      select user_id from time_entries where workspace_id = ${workspaceId}
      union select user_id from report_rollups where workspace_id = ${workspaceId}`.execute(db);
    return rows.rows.map((r) => r.user_id);
  },

  /**
   * One person's rollups again, in the workspace's current zone and rounding, in a transaction of its own;
   * the coarse rollups are left to `rebuildCoarseRollups` once everyone is done.
   */
  rebuildPersonRollups: (db: Db, workspaceId: string, userId: string) =>
    db.transaction().execute(async (tx) => {
      await sql`select set_config('sundial.coarse_rollups_off', 'on', true)`.execute(tx);
      await sql`select report_rollups_rebuild_user(${workspaceId}, ${userId})`.execute(tx);
    }),

  /** The workspace's coarse rollups again from report_rollups (report_rollups_coarse_rebuild), in a transaction of its own. */
  rebuildCoarseRollups: (db: Db, workspaceId: string) =>
    db.transaction().execute((tx) => sql`select report_rollups_coarse_rebuild(${workspaceId})`.execute(tx)),
};
