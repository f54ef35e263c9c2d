import type { ReportDimension, Rounding, TagMode, WeekStart } from '@sundial/core';
import { WEEK_START_INDEX } from '@sundial/core';
import { type QueryResult, type RawBuilder, sql } from 'kysely';
import { type Db, heldCursorFor } from '../../db/connection.js';
import { finishedFrom } from '../../db/overlap.js';
import { type CoverPiece, coverOf, monthsServe } from './reports.cover.js';

/**
 * The report engine's SQL: a report definition compiled into ONE statement. Every report reads
 * the same `facts`: each entry's work (start to end, or to `now` while running, less its breaks)
 * split at the local midnights of the named time zone (`AT TIME ZONE`, so DST days are 23 or 25
 * hours), each local day's part rounded with the workspace rounding and priced with the entry's
 * copied rates (round(rate * seconds / 3600.0)) — the same pieces as `dayPieces` and
 * `amountCents` of @sundial/core, so reports agree with the timesheet to the second and cent.
 */

export interface EngineFilter {
  workspaceId: string;
  /** [from, to) instants of the first and after the last local day, and those days. */
  fromAt: Date;
  toAt: Date;
  fromDay: string;
  toDay: string;
  timeZone: string;
  weekStart: WeekStart;
  rounding: Rounding;
  /** Where running entries and open breaks end. */
  now: Date;
  /** Whose entries the actor may see: null = everyone's. */
  scope: string[] | null;
  users?: string[];
  groups?: string[];
  clients?: string[];
  projects?: string[];
  tasks?: string[];
  tags?: string[];
  tagMode: TagMode;
  billable?: boolean;
  invoiced?: boolean;
  description?: string;
  withoutProject?: boolean;
  withoutTag?: boolean;
  /**
   * Whether the finished entries may be read from report_rollups: the zone is the workspace's
   * report zone, the rounding its stored one, no tag or description filter, rollups switched on.
   * A report that also groups by tag or description, or counts entries, still reads the entries.
   */
  rollups?: boolean;
  /**
   * Whether the report takes in everyone's entries (no scope, person or group filter, nobody
   * hidden): then the rollups without a person (report_rollups_tasks) may answer it.
   */
  allPeople?: boolean;
}

/** A report row's sums; null where the report did not ask for them (`compileReport`'s `sums`). */
export interface MeasureSums {
  tracked: string | number;
  billable_seconds: string | number | null;
  billable_cents: string | number | null;
  cost_cents: string | number | null;
  /** Billable entries marked invoiced: their seconds and billable amount. */
  invoiced_seconds: string | number | null;
  invoiced_cents: string | number | null;
  entries: string | number | null;
}

/** The sums of a report row but the tracked seconds and the entry count. */
export type LevelSum = 'billable_seconds' | 'billable_cents' | 'cost_cents' | 'invoiced_seconds' | 'invoiced_cents';

export interface LevelRow extends MeasureSums {
  level: number;
  k1: string | null;
  k2: string | null;
  k3: string | null;
  n1: string | null;
  n2: string | null;
  n3: string | null;
  c1: string | null;
  c2: string | null;
  c3: string | null;
  p1: string | null;
  p2: string | null;
  p3: string | null;
}

const MULTI_VALUED: ReadonlySet<ReportDimension> = new Set(['group', 'tag']);
const DATED: ReadonlySet<ReportDimension> = new Set(['day', 'week', 'month', 'year']);

const uuids = (ids: readonly string[]) => sql.join(ids.map((id) => sql`${id}::uuid`));

/** The filters on who (an entry and every rollup with a person share them, aliased `e`). */
function peopleFilters(f: EngineFilter): RawBuilder<unknown>[] {
  const ws = f.workspaceId;
  const where: RawBuilder<unknown>[] = [];
  if (f.scope) where.push(f.scope.length ? sql`e.user_id in (${uuids(f.scope)})` : sql`false`);
  if (f.users?.length) where.push(sql`e.user_id in (${uuids(f.users)})`);
  if (f.groups?.length)
    where.push(
      sql`e.user_id in (select gm.user_id from group_members gm where gm.workspace_id = ${ws} and gm.group_id in (${uuids(f.groups)}))`,
    );
  return where;
}

/**
 * The filters on which project, client and task (an entry and every rollup with a project share
 * them, aliased `e`, with the entry's project as `p` when the client filter needs it).
 */
function projectFilters(f: EngineFilter): RawBuilder<unknown>[] {
  const ws = f.workspaceId;
  const where: RawBuilder<unknown>[] = [];
  if (f.clients?.length) where.push(sql`p.client_id in (${uuids(f.clients)})`);
  if (f.projects?.length)
    where.push(
      f.withoutProject
        ? sql`(e.project_id in (${uuids(f.projects)}) or e.project_id is null)`
        : sql`e.project_id in (${uuids(f.projects)})`,
    );
  else if (f.withoutProject) where.push(sql`e.project_id is null`);
  if (f.tasks?.length)
    where.push(
      sql`(e.task_id in (${uuids(f.tasks)}) or e.task_id in (select t.id from tasks t where t.workspace_id = ${ws} and t.parent_task_id in (${uuids(f.tasks)})))`,
    );
  return where;
}

/** Whether the report filters on a project, client or task (the person rollups have none). */
const filtersProjects = (f: EngineFilter) =>
  (f.clients?.length ?? 0) > 0 ||
  (f.projects?.length ?? 0) > 0 ||
  (f.tasks?.length ?? 0) > 0 ||
  f.withoutProject === true;

/**
 * The filters on who, which project and task, and billable that an entry and a rollup row share
 * (both aliased `e`, with the entry's project as `p` when the client filter needs it).
 */
function peopleAndProjects(f: EngineFilter): RawBuilder<unknown>[] {
  const where = [...peopleFilters(f), ...projectFilters(f)];
  if (f.billable !== undefined) where.push(sql`e.billable = ${f.billable}`);
  return where;
}

/**
 * The table `matchingEntries` reads, `time_entries e`, with the entry's project as `p` only when
 * the client filter needs it (with it, the planner joins every entry after a Detailed page's
 * cursor and sorts them all: a Detailed export's walk turned quadratic). Every statement over
 * `matchingEntries` but the facts' (which always reads the client) takes its FROM here, so no
 * filter names a table its statement lacks.
 */
const matchingFrom = (f: EngineFilter, sample?: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`time_entries e${sample ? sql` ${sample}` : sql``}${
    f.clients?.length ? sql` left join projects p on p.workspace_id = e.workspace_id and p.id = e.project_id` : sql``
  }`;

/** The entries a report reads: the filters, the actor's scope, overlapping [fromAt, toAt). */
function matchingEntries(f: EngineFilter, part: 'all' | 'finished' | 'running' = 'all'): RawBuilder<unknown> {
  const ws = f.workspaceId;
  // Finished entries by the one overlap rule (finishedFrom); running entries come as they are.
  const finished = finishedFrom(ws, f.fromAt);
  const where: RawBuilder<unknown>[] = [
    sql`e.workspace_id = ${ws}`,
    sql`e.start_at < ${f.toAt}`,
    part === 'all' ? sql`(e.end_at is null or ${finished})` : part === 'finished' ? finished : sql`e.end_at is null`,
  ];
  where.push(...peopleAndProjects(f));
  const tagged = (ids: readonly string[]) =>
    sql`exists (select 1 from time_entry_tags t where t.workspace_id = ${ws} and t.entry_id = e.id${
      ids.length ? sql` and t.tag_id in (${uuids(ids)})` : sql``
    })`;
  if (f.tags?.length) {
    const byTags =
      f.tagMode === 'any'
        ? tagged(f.tags)
        : f.tagMode === 'none'
          ? sql`not ${tagged(f.tags)}`
          : sql`(select count(distinct t.tag_id) from time_entry_tags t where t.workspace_id = ${ws} and t.entry_id = e.id and t.tag_id in (${uuids(f.tags)})) = ${new Set(f.tags).size}`;
    where.push(f.withoutTag ? sql`(${byTags} or not ${tagged([])})` : byTags);
  } else if (f.withoutTag) where.push(sql`not ${tagged([])}`);
  if (f.invoiced !== undefined) where.push(f.invoiced ? sql`e.invoiced_at is not null` : sql`e.invoiced_at is null`);
  if (f.description) {
    const pattern = `%${f.description.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`e.note ilike ${pattern}`);
  }
  return sql.join(where, sql` and `);
}

/** The one rounding (roundDuration of @sundial/core) on whole seconds, in integer arithmetic; halves go up. */
function roundingOf(seconds: RawBuilder<unknown>, rounding: Rounding): RawBuilder<unknown> {
  const step = sql.lit(rounding.minutes * 60);
  const whole = sql`(${seconds})::bigint`;
  switch (rounding.mode) {
    case 'none':
      return whole;
    case 'up':
      return sql`((${whole} + ${step} - 1) / ${step}) * ${step}`;
    case 'down':
      return sql`(${whole} / ${step}) * ${step}`;
    case 'nearest':
      return sql`((${whole} + ${step} / 2) / ${step}) * ${step}`;
  }
}

/**
 * The work of entry `e` by local day, each day's part rounded: (day, seconds) rows. `en` is where
 * it ends (its end, or now while running); breaks are clipped to it and left out; an entry
 * without work shows 0 seconds on its start day. Only entries that need it come here (running,
 * with breaks, crossing midnight): the others take the one-day path of `factsCte`.
 */
function slowPieces(f: EngineFilter): RawBuilder<unknown> {
  const tz = f.timeZone;
  const en = sql`coalesce(e.end_at, greatest(e.start_at, ${f.now}::timestamptz))`;
  const clipped = sql`(select greatest(e.start_at, b.start_at) as a, least(${en}, coalesce(b.end_at, ${en})) as b
    from time_entry_breaks b where b.workspace_id = e.workspace_id and b.entry_id = e.id
      and least(${en}, coalesce(b.end_at, ${en})) > greatest(e.start_at, b.start_at))`;
  const lastEnd = sql`greatest(e.start_at, coalesce(max(c.b), e.start_at))`;
  const intervals = sql`(
    select w.cur as a, w.a as b from (
      select c.a, greatest(e.start_at, coalesce(max(c.b) over (order by c.a, c.b
        rows between unbounded preceding and 1 preceding), e.start_at)) as cur
      from ${clipped} c
    ) w where w.a > w.cur
    union all
    select ${lastEnd}, ${en} from ${clipped} c having ${en} > ${lastEnd})`;
  return sql`(
    select pc.day, ${roundingOf(sql`sum(pc.secs)`, f.rounding)} as seconds from (
      select g::date as day,
        round(extract(epoch from least(i.b, (g + interval '1 day') at time zone ${tz}) - greatest(i.a, g at time zone ${tz}))) as secs
      from ${intervals} i
      cross join lateral generate_series(date_trunc('day', i.a at time zone ${tz}), i.b at time zone ${tz}, interval '1 day') g
      where least(i.b, (g + interval '1 day') at time zone ${tz}) > greatest(i.a, g at time zone ${tz})
    ) pc group by pc.day
    union all
    select (e.start_at at time zone ${tz})::date, 0 where not exists (select 1 from ${intervals} i))`;
}

/**
 * The CTE every report starts from, `facts`: the work of each entry in range (entry_id, day,
 * seconds, billable_cents, cost_cents and the entry's columns), in one pass over the entries.
 * Most entries are finished, without breaks, inside one local day: their day is their start's
 * and their seconds the stored duration_seconds (end - start, which the time-entries write path
 * keeps); the others are split by `slowPieces`, each day's part rounded and priced on its own.
 * With `day` (a date dimension), one row per entry and local day in range; without it (the
 * Summary by project or person, the Detailed page's sums), one row per entry with the sums of its
 * days in range and `day` null: no set-returning step, so a year of a large workspace costs what
 * summing its rows does. `where` narrows the entries further (a page of the Detailed report).
 * `listing` (without `day`) is the Detailed report's: every matching entry once, with its start,
 * end, duration and invoiced_at too, and 0 seconds when no part of it falls on a day in range.
 */
export function factsCte(
  f: EngineFilter,
  extra?: { where?: RawBuilder<unknown>; day?: boolean; part?: 'all' | 'running'; name?: string; listing?: boolean },
) {
  const name = sql.raw(extra?.name ?? 'facts');
  const tz = f.timeZone;
  const ws = f.workspaceId;
  const slow = slowPieces(f);
  // A one-day entry's day is in range (it cannot cross the range's first midnight); a split entry's may not be.
  const inRange = sql`d.day between ${f.fromDay}::date and ${f.toDay}::date`;
  const rounded = roundingOf(sql`e.duration_seconds`, f.rounding);
  // amountCents of @sundial/core, round(rate * seconds / 3600) with halves up, in integer arithmetic.
  const amount = (rate: RawBuilder<unknown>, seconds: RawBuilder<unknown>) =>
    sql`(${rate}::bigint * ${seconds} + 1800) / 3600`;
  const billableCents = (seconds: RawBuilder<unknown>) =>
    sql`case when e.billable then coalesce(${amount(sql`e.billable_rate_cents`, seconds)}, 0) else 0 end`;
  const costCents = (seconds: RawBuilder<unknown>) => sql`coalesce(${amount(sql`e.cost_rate_cents`, seconds)}, 0)`;
  // Each entry's one-day test computed once (offset 0 keeps it from being inlined where it is read).
  const entries = sql`(
    select e.id, e.workspace_id, e.user_id, e.project_id, e.task_id, p.client_id, e.note, e.billable,
      e.invoiced_at is not null as invoiced, e.invoiced_at, e.billable_rate_cents, e.cost_rate_cents, e.start_at, e.end_at, e.duration_seconds,
      (e.start_at at time zone ${tz})::date as start_day,
      (e.end_at > e.start_at and (e.start_at at time zone ${tz})::date = (e.end_at at time zone ${tz})::date
        and e.id not in (select b.entry_id from time_entry_breaks b where b.workspace_id = ${ws})) as simple
    from time_entries e
    left join projects p on p.workspace_id = e.workspace_id and p.id = e.project_id
    where ${matchingEntries(f, extra?.part)}${extra?.where ? sql` and ${extra.where}` : sql``}
    offset 0
  ) e`;
  const listing = extra?.listing === true && extra.day === false;
  const columns = sql`e.id as entry_id, e.user_id, e.project_id, e.task_id, e.client_id, e.note, e.billable, e.invoiced${
    listing ? sql`, e.invoiced_at, e.start_at, e.end_at, e.duration_seconds` : sql``
  }`;
  if (extra?.day ?? true)
    return sql`
  ${name} as (
    select ${columns}, e.day, e.seconds, ${billableCents(sql`e.seconds`)} as billable_cents,
      ${costCents(sql`e.seconds`)} as cost_cents
    from (
      select e.*,
        unnest(case when e.simple then array[e.start_day]
          else (select array_agg(d.day order by d.day) from ${slow} d where ${inRange}) end) as day,
        unnest(case when e.simple then array[${rounded}]
          else (select array_agg(d.seconds order by d.day) from ${slow} d where ${inRange}) end) as seconds
      from ${entries}
    ) e
  )`;
  // A split entry's sums of its days in range, [seconds, billable, cost], computed once
  // (offset 0 again); none when it has no day in range.
  const split = sql`(select array[sum(d.seconds), sum(${billableCents(sql`d.seconds`)}), sum(${costCents(sql`d.seconds`)})]::bigint[]
    from ${slow} d where ${inRange} having count(*) > 0)`;
  return sql`
  ${name} as (
    select ${columns}, null::date as day,
      case when e.simple then ${rounded} else coalesce(e.split[1], 0) end as seconds,
      case when e.simple then ${billableCents(rounded)} else coalesce(e.split[2], 0) end as billable_cents,
      case when e.simple then ${costCents(rounded)} else coalesce(e.split[3], 0) end as cost_cents
    from (
      select e.*, case when e.simple then null else ${split} end as split
      from ${entries}
      offset 0
    ) e
    ${listing ? sql`` : sql`where e.simple or e.split is not null`}
  )`;
}

/**
 * Where a report reads its finished entries from: the entries themselves; report_rollups (per
 * day and person, project, task); the rollups without a person (report_rollups_tasks, and
 * report_rollups_task_months for whole months) when the report takes in everyone and has no
 * person dimension; the monthly rollups per person (report_rollups_people_months) when it has
 * neither a project dimension or filter nor a day or week; the monthly rollups per person, project
 * and task (report_rollups_work_months, and by year) when it has no day or week but a project and
 * a person (its dimensions, its filters, or the people its actor may see); the monthly ones only
 * when they serve a month of the range, whole or mostly inside it (`monthsServe`), with
 * report_rollups for the other days. The coarser, the fewer rows: a year of 10M
 * entries is ~3.3M rows of report_rollups, a few hundred thousand of report_rollups_tasks or of
 * report_rollups_work_months (members on a handful of projects), some thousands by month and task.
 */
export type FactsSource = 'entries' | 'rollups' | 'tasks' | 'people' | 'work';

const DAILY: ReadonlySet<ReportDimension> = new Set(['day', 'week']);
const PERSONAL: ReadonlySet<ReportDimension> = new Set(['user', 'group']);
const PROJECTS: ReadonlySet<ReportDimension> = new Set(['client', 'project', 'task']);

export function factsSource(
  f: EngineFilter,
  dimensions: readonly ReportDimension[],
  countEntries: boolean,
): FactsSource {
  if (!readsRollups(f, dimensions, countEntries)) return 'entries';
  if (f.allPeople === true && !dimensions.some((d) => PERSONAL.has(d))) return 'tasks';
  if (dimensions.some((d) => DAILY.has(d)) || !monthsServe(f.fromDay, f.toDay)) return 'rollups';
  return filtersProjects(f) || dimensions.some((d) => PROJECTS.has(d)) ? 'work' : 'people';
}

/**
 * `facts` from the rollups `source` names (kept by triggers with the pieces `factsCte` makes, in
 * the workspace's report zone and rounding) for the finished entries, and the running entries'
 * own facts (to now, as on the timesheet). No entry ids, so no entry counts, tags or descriptions
 * (`EngineFilter.rollups`); a rollup without a person gives a null user_id, one without a project
 * null project, task and client, and a monthly one its month's first day as `day`. Each row also
 * carries `rollup_rows`, how many report_rollups rows it sums (1 for a running entry): a partial
 * month may be read as the month less its other days (`partialMonth`), whose rows come negated, so a
 * key whose rows sum to no rollup row is no group (`compileReport` drops it).
 */
function rollupFactsCte(
  f: EngineFilter,
  o: {
    day: boolean;
    monthly: boolean;
    /** Whether whole years may be read as such (no month dimension: a year's rows carry its first day). */
    yearly: boolean;
    clients: boolean;
    source: Exclude<FactsSource, 'entries'>;
  },
) {
  const ws = f.workspaceId;
  const clients = o.clients || (f.clients?.length ?? 0) > 0;
  const client = clients ? sql`p.client_id` : sql`null::uuid`;
  const projectJoin = clients
    ? sql`left join projects p on p.workspace_id = e.workspace_id and p.id = e.project_id`
    : sql``;
  const flags: RawBuilder<unknown>[] = [];
  if (f.billable !== undefined) flags.push(sql`e.billable = ${f.billable}`);
  if (f.invoiced !== undefined) flags.push(sql`e.invoiced = ${f.invoiced}`);
  const where = (period: string, range: [string, string], more: RawBuilder<unknown>[]) =>
    sql.join(
      [
        sql`e.workspace_id = ${ws}`,
        sql`e.${sql.raw(period)} between ${range[0]}::date and ${range[1]}::date`,
        ...more,
        ...flags,
      ],
      sql` and `,
    );
  /**
   * A coarse table's rows in range. A folded day (month) has one row per key, each summing at least one
   * report_rollups row: read as they are. A day with appended rows (`fresh`, not folded yet) may have
   * several rows per key, and keys summing to no row (an entry moved elsewhere), which are no group:
   * summed per key first. Summing every day instead cost ~0.3 s of a year's 438,000 daily rows at 10M.
   */
  const coarse = (o: {
    table: string;
    period: 'day' | 'month' | 'year';
    range: [string, string];
    keys: RawBuilder<unknown>;
    groupKeys: RawBuilder<unknown>;
    join: RawBuilder<unknown>;
    filters: RawBuilder<unknown>[];
    sign: 1 | -1;
  }) => {
    const table = sql.raw(o.table);
    const period = sql.raw(o.period);
    const sign = sql.lit(o.sign);
    const fresh = sql`(select x.${period} from ${table} x where x.workspace_id = ${ws} and x.fresh
      and x.${period} between ${o.range[0]}::date and ${o.range[1]}::date)`;
    const head = sql`select null::uuid as entry_id, ${o.keys}, null::text as note, e.billable, e.invoiced, e.${period} as day`;
    return sql`${head}, ${sign} * e.seconds as seconds, ${sign} * e.billable_cents as billable_cents,
      ${sign} * e.cost_cents as cost_cents, ${sign} * e.rollup_rows as rollup_rows
    from ${table} e ${o.join}
    where ${where(o.period, o.range, o.filters)} and e.${period} not in ${fresh}
    union all
    ${head}, ${sign} * sum(e.seconds) as seconds, ${sign} * sum(e.billable_cents) as billable_cents,
      ${sign} * sum(e.cost_cents) as cost_cents, ${sign} * sum(e.rollup_rows) as rollup_rows
    from ${table} e ${o.join}
    where ${where(o.period, o.range, o.filters)} and e.${period} in ${fresh}
    group by e.${period}, ${o.groupKeys}, e.billable, e.invoiced
    having sum(e.rollup_rows) <> 0`;
  };
  const daily = (range: [string, string], sign: 1 | -1 = 1) => {
    const k = sql.lit(sign);
    return sql`select null::uuid as entry_id, e.user_id, e.project_id, e.task_id, ${client} as client_id,
      null::text as note, e.billable, e.invoiced, e.day, ${k} * e.seconds as seconds,
      ${k} * e.billable_cents as billable_cents, ${k} * e.cost_cents as cost_cents, ${k}::bigint as rollup_rows
    from report_rollups e ${projectJoin}
    where ${where('day', range, [...peopleFilters(f), ...projectFilters(f)])}`;
  };
  const tasks = (
    table: 'report_rollups_tasks' | 'report_rollups_task_months',
    range: [string, string],
    sign: 1 | -1 = 1,
  ) =>
    coarse({
      table,
      period: table === 'report_rollups_tasks' ? 'day' : 'month',
      sign,
      range,
      keys: sql`null::uuid as user_id, e.project_id, e.task_id, ${client} as client_id`,
      groupKeys: sql`e.project_id, e.task_id${clients ? sql`, p.client_id` : sql``}`,
      join: projectJoin,
      filters: projectFilters(f),
    });
  const people = (range: [string, string], sign: 1 | -1 = 1) =>
    coarse({
      table: 'report_rollups_people_months',
      period: 'month',
      sign,
      range,
      keys: sql`e.user_id, null::uuid as project_id, null::uuid as task_id, null::uuid as client_id`,
      groupKeys: sql`e.user_id`,
      join: sql``,
      filters: peopleFilters(f),
    });
  const work = (
    table: 'report_rollups_work_months' | 'report_rollups_work_years',
    range: [string, string],
    sign: 1 | -1 = 1,
  ) =>
    coarse({
      table,
      period: table === 'report_rollups_work_years' ? 'year' : 'month',
      sign,
      range,
      keys: sql`e.user_id, e.project_id, e.task_id, ${client} as client_id`,
      groupKeys: sql`e.user_id, e.project_id, e.task_id${clients ? sql`, p.client_id` : sql``}`,
      join: projectJoin,
      filters: [...peopleFilters(f), ...projectFilters(f)],
    });
  const range: [string, string] = [f.fromDay, f.toDay];
  const months = o.monthly && monthsServe(f.fromDay, f.toDay);
  let parts: RawBuilder<unknown>[];
  if (o.source === 'rollups' || (o.source === 'tasks' && !months))
    parts = [o.source === 'rollups' ? daily(range) : tasks('report_rollups_tasks', range)];
  else {
    // Whole periods from the coarsest table that has them; the work rollups also by year.
    const read = (piece: CoverPiece): RawBuilder<unknown> => {
      if (o.source === 'tasks')
        return tasks(
          piece.period === 'day' ? 'report_rollups_tasks' : 'report_rollups_task_months',
          piece.range,
          piece.sign,
        );
      if (piece.period === 'day') return daily(piece.range, piece.sign);
      if (o.source === 'people') return people(piece.range, piece.sign);
      return work(
        piece.period === 'year' ? 'report_rollups_work_years' : 'report_rollups_work_months',
        piece.range,
        piece.sign,
      );
    };
    if (o.source !== 'tasks' && !months) throw new Error('the monthly rollups serve no day of this range');
    parts = coverOf(f.fromDay, f.toDay, o.source === 'work' && o.yearly).map(read);
  }
  return sql`${factsCte(f, { day: o.day, part: 'running', name: 'running_facts' })},
  facts as (
    ${sql.join(parts, sql` union all `)}
    union all
    select *, 1::bigint as rollup_rows from running_facts
  )`;
}

/** Whether a report of these dimensions and measures may read the rollups (see `EngineFilter.rollups`). */
export function readsRollups(f: EngineFilter, dimensions: readonly ReportDimension[], countEntries: boolean): boolean {
  return f.rollups === true && !countEntries && !dimensions.some((d) => d === 'tag' || d === 'description');
}

/** The key of a dimension on a `facts` row `f` (joined `gm` for group, `tg` for tag), in its own type. */
function keyOf(dimension: ReportDimension, weekStart: WeekStart, alias: string): RawBuilder<unknown> {
  switch (dimension) {
    case 'user':
      return sql`f.user_id`;
    case 'group':
      return sql.raw(`${alias}.group_id`);
    case 'client':
      return sql`f.client_id`;
    case 'project':
      return sql`f.project_id`;
    case 'task':
      return sql`f.task_id`;
    case 'tag':
      return sql.raw(`${alias}.tag_id`);
    case 'billable':
      return sql`f.billable`;
    case 'invoiced':
      return sql`f.invoiced`;
    case 'day':
      return sql`f.day`;
    case 'week':
      return sql`(f.day - ((extract(dow from f.day)::int - ${sql.lit(WEEK_START_INDEX[weekStart])} + 7) % 7))`;
    case 'month':
      return sql`date_trunc('month', f.day)`;
    case 'year':
      return sql`date_trunc('year', f.day)`;
    case 'description':
      return sql`f.note`;
  }
}

/** A key as the API gives it: text ("2026-03-29", "2026-03", "true", an id). */
function keyText(dimension: ReportDimension, key: RawBuilder<unknown>): RawBuilder<unknown> {
  switch (dimension) {
    case 'day':
    case 'week':
      return sql`to_char(${key}, 'YYYY-MM-DD')`;
    case 'month':
      return sql`to_char(${key}, 'YYYY-MM')`;
    case 'year':
      return sql`to_char(${key}, 'YYYY')`;
    default:
      return sql`${key}::text`;
  }
}

function joinFor(dimension: ReportDimension, ws: string, alias: string): RawBuilder<unknown> {
  if (dimension === 'group')
    return sql` left join group_members ${sql.raw(alias)} on ${sql.raw(alias)}.workspace_id = ${ws} and ${sql.raw(alias)}.user_id = f.user_id`;
  if (dimension === 'tag')
    return sql` left join time_entry_tags ${sql.raw(alias)} on ${sql.raw(alias)}.workspace_id = ${ws} and ${sql.raw(alias)}.entry_id = f.entry_id`;
  return sql``;
}

/** Name (n), color (c) and parent (p) of a key, joined after grouping: small tables, one row per group. */
function labelOf(
  dimension: ReportDimension,
  ws: string,
  i: number,
): { join: RawBuilder<unknown>; n: RawBuilder<unknown>; c: RawBuilder<unknown>; p: RawBuilder<unknown> } {
  const k = sql.raw(`l.k${i}`);
  const t = sql.raw(`d${i}`);
  const join = (table: string, extra = sql``) =>
    sql` left join ${sql.raw(table)} ${t} on ${t}.workspace_id = ${ws} and ${t}.id = ${k}::uuid${extra}`;
  const none = sql`null::text`;
  switch (dimension) {
    case 'user':
      return {
        join: sql` left join users ${t} on ${t}.id = ${k}::uuid`,
        n: sql`coalesce(nullif(${t}.name, ''), ${t}.email)`,
        c: none,
        p: none,
      };
    case 'group':
    case 'client':
    case 'tag':
      return {
        join: join(dimension === 'group' ? 'groups' : dimension === 'client' ? 'clients' : 'tags'),
        n: sql`${t}.name`,
        c: none,
        p: none,
      };
    case 'project':
      return { join: join('projects'), n: sql`${t}.name`, c: sql`${t}.color`, p: none };
    case 'task': {
      const pt = sql.raw(`pt${i}`);
      return {
        join: join(
          'tasks',
          sql` left join tasks ${pt} on ${pt}.workspace_id = ${ws} and ${pt}.id = ${t}.parent_task_id`,
        ),
        n: sql`${t}.name`,
        c: none,
        p: sql`${pt}.name`,
      };
    }
    default:
      return { join: sql``, n: none, c: none, p: none };
  }
}

/**
 * The report as ONE statement: for each grouping set (a list of up to three dimensions; [] is
 * the total), the measures summed over `facts`. Each set joins only its own multi-valued
 * dimensions (group, tag), so an entry with two tags counts under each tag but once in the
 * total and in every level above the tag. Returns rows with `level` = the set's index.
 */
export function compileReport(
  f: EngineFilter,
  o: {
    sets: ReportDimension[][];
    dimensions: ReportDimension[];
    countEntries: boolean;
    /** The sums the report shows (tracked is always summed); all unless named. The others come as null. */
    sums?: ReadonlySet<LevelSum>;
  },
): RawBuilder<LevelRow> {
  const ws = f.workspaceId;
  const sum = (name: LevelSum, expression: RawBuilder<unknown>) =>
    !o.sums || o.sums.has(name) ? sql`sum(${expression}) as ${sql.raw(name)}` : sql`null::bigint as ${sql.raw(name)}`;
  const sums = sql`sum(f.seconds) as tracked,
      ${sum('billable_seconds', sql`case when f.billable then f.seconds else 0 end`)},
      ${sum('billable_cents', sql`f.billable_cents`)}, ${sum('cost_cents', sql`f.cost_cents`)},
      ${sum('invoiced_seconds', sql`case when f.billable and f.invoiced then f.seconds else 0 end`)},
      ${sum('invoiced_cents', sql`case when f.invoiced then f.billable_cents else 0 end`)},
      ${o.countEntries ? sql`count(distinct f.entry_id)` : sql`null::bigint`} as entries`;
  const source = factsSource(f, o.dimensions, o.countEntries);
  // Rollups read as a month less some days hold negated rows: a key whose rows sum to no rollup row is no group.
  const someRows = source === 'entries' ? sql`` : sql`having sum(f.rollup_rows) <> 0`;
  let levels: RawBuilder<unknown>;
  if (!o.sets.some((set) => set.some((d) => MULTI_VALUED.has(d)))) {
    // One aggregation pass: the sets as GROUPING SETS, each told apart by its grouping() mask.
    const keys = [0, 1, 2].map((i) => {
      const dimension = o.dimensions[i];
      return sql`${dimension ? keyOf(dimension, f.weekStart, '') : sql`null::text`} as ${sql.raw(`k${i + 1}`)}`;
    });
    const n = o.dimensions.length;
    const maskOf = (set: ReportDimension[]) =>
      o.dimensions.reduce((mask, dimension, i) => (set.includes(dimension) ? mask : mask | (1 << (n - 1 - i))), 0);
    const sets = o.sets.map(
      (set) =>
        sql`(${sql.join(
          set.map((d) => sql.raw(`f.k${o.dimensions.indexOf(d) + 1}`)),
          sql`, `,
        )})`,
    );
    const level = n
      ? sql`case grouping(${sql.join(o.dimensions.map((_, i) => sql.raw(`f.k${i + 1}`)))}) ${sql.join(
          o.sets.map((set, index) => sql`when ${sql.lit(maskOf(set))} then ${sql.lit(index)}`),
          sql` `,
        )} end`
      : sql`0`;
    const outKeys = [1, 2, 3].map((i) =>
      i <= n
        ? sql`${keyText(o.dimensions[i - 1] as ReportDimension, sql.raw(`f.k${i}`))} as ${sql.raw(`k${i}`)}`
        : sql`null::text as ${sql.raw(`k${i}`)}`,
    );
    const keyed = sql`(select ${sql.join(keys)}, f.* from facts f) f`;
    // Without entry counts, the facts are summed per the finest set's keys (and billable and
    // invoiced, which the measures split on) first, and the sets from those rows: each of the (up to
    // four) sets then hashes some thousand rows, not the facts' (a year by person, project and task
    // at 10M: 521,000 rows into 33,000 groups, 1.8 s in one pass), in bigint, not numeric.
    const fine = [...o.dimensions.map((_, i) => sql.raw(`f.k${i + 1}`)), sql`f.billable`, sql`f.invoiced`];
    const source =
      n > 0 && !o.countEntries
        ? sql`(select ${sql.join(fine)}, sum(f.seconds)::bigint as seconds,
            sum(f.billable_cents)::bigint as billable_cents, sum(f.cost_cents)::bigint as cost_cents
          from ${keyed} group by ${sql.join(fine)} ${someRows}) f`
        : keyed;
    levels = sql`select ${level} as level, ${sql.join(outKeys)}, ${sums}
      from ${source}
      group by grouping sets (${sql.join(sets)})`;
  } else {
    // A multi-valued dimension (group, tag) joins only in the sets that hold it.
    levels = sql.join(
      o.sets.map((set, level) => {
        const keys = o.dimensions.map((dimension, i) =>
          set.includes(dimension)
            ? sql`${keyText(dimension, keyOf(dimension, f.weekStart, `j${i}`))} as ${sql.raw(`k${i + 1}`)}`
            : sql`null::text as ${sql.raw(`k${i + 1}`)}`,
        );
        const joins = o.dimensions.map((dimension, i) =>
          set.includes(dimension) && MULTI_VALUED.has(dimension) ? joinFor(dimension, ws, `j${i}`) : sql``,
        );
        // group by positions: 1 is `level`, so dimension i is at i + 2.
        const groupKeys = o.dimensions.flatMap((dimension, i) =>
          set.includes(dimension) ? [sql.raw(`${i + 2}`)] : [],
        );
        return sql`select ${sql.lit(level)}::int as level, ${sql.join([...keys, ...pad(o.dimensions.length)])}, ${sums}
          from facts f${sql.join(joins, sql``)}
          ${groupKeys.length ? sql`group by ${sql.join(groupKeys)} ${someRows}` : sql``}`;
      }),
      sql` union all `,
    );
  }
  // Each row is labelled at its own level only: the set's last dimension (a Summary's parents have rows of their own).
  const labels = [0, 1, 2].map((i) => {
    const dimension = o.dimensions[i];
    const label = labelOf(dimension ?? 'day', ws, i + 1);
    const own = o.sets.flatMap((set, level) => (dimension && set.at(-1) === dimension ? [sql.lit(level)] : []));
    const at = (expression: RawBuilder<unknown>, name: string) =>
      own.length
        ? sql`case when l.level in (${sql.join(own)}) then ${expression} end as ${sql.raw(`${name}${i + 1}`)}`
        : sql`null::text as ${sql.raw(`${name}${i + 1}`)}`;
    return {
      join: own.length ? label.join : sql``,
      cols: sql`${at(label.n, 'n')}, ${at(label.c, 'c')}, ${at(label.p, 'p')}`,
    };
  });
  const day = o.dimensions.some((d) => DATED.has(d));
  const facts =
    source === 'entries'
      ? factsCte(f, { day })
      : rollupFactsCte(f, {
          day,
          monthly: !o.dimensions.some((d) => DAILY.has(d)),
          yearly: !o.dimensions.some((d) => d === 'month' || DAILY.has(d)),
          clients: o.dimensions.includes('client'),
          source,
        });
  return sql<LevelRow>`with ${facts},
  levels as (${levels})
  select l.*, ${sql.join(labels.map((x) => x.cols))}
  from levels l${sql.join(
    labels.map((x) => x.join),
    sql``,
  )}`;
}

const pad = (used: number) => [1, 2, 3].filter((i) => i > used).map((i) => sql`null::text as ${sql.raw(`k${i}`)}`);

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
  run: (db: Db, query: RawBuilder<LevelRow>): Promise<LevelRow[]> => withoutJit(db, query),

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
   * its own (PGliteDialect.heldCursor): others go between the chunks.
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
    const rows = await withoutJit(
      db,
      sql<{ n: number | string }>`with ${factsCte(f, { day: false })}
        select count(*) as n from (select distinct entry_id from facts ${capped}) listed`,
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

  /** Workspaces whose coarse rollups hold appended rows not yet folded (report_rollups_compact). */
  async unfoldedRollups(db: Db): Promise<string[]> {
    const rows = await sql<{ workspace_id: string }>`
      select workspace_id from report_rollups_tasks where fresh
      union select workspace_id from report_rollups_task_months where fresh
      union select workspace_id from report_rollups_people_months where fresh
      union select workspace_id from report_rollups_work_months where fresh
      union select workspace_id from report_rollups_work_years where fresh`.execute(db);
    return rows.rows.map((r) => r.workspace_id);
  },

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
