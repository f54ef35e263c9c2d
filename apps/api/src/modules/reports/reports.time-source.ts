import {
  REPORT_DIMENSION_LABELS,
  REPORT_DIMENSIONS,
  type ReportDimension,
  type Rounding,
  type TagMode,
} from '@sundial/core';
import { type RawBuilder, sql } from 'kysely';
import { finishedFrom } from '../../db/overlap.js';
import { type CoverPiece, coverOf, monthsServe } from './reports.cover.js';
import {
  compileSourceReport,
  type GroupedRow,
  groupDimension,
  type LevelDimension,
  type LevelPlan,
  namedLabel,
  peopleFilters,
  periodDimension,
  personDimension,
  type ReportSource,
  type SourceScope,
  uuids,
} from './reports.engine.js';

/**
 * The time entries as a source of report facts (reports.engine.ts). Every time report reads
 * the same `facts`: each entry's work (start to end, or to `now` while running, less its breaks)
 * split at the local midnights of the named time zone (`AT TIME ZONE`, so DST days are 23 or 25
 * hours), each local day's part rounded with the workspace rounding and priced with the entry's
 * copied rates (round(rate * seconds / 3600.0)) — the same pieces as `dayPieces` and
 * `amountCents` of @sundial/core, so reports agree with the timesheet to the second and cent.
 */

/** A time report's filter: the scope every source has, and the time entries' own filters. */
export interface EngineFilter extends SourceScope {
  rounding: Rounding;
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
   * report zone, the rounding its stored one, no tag or description filter, rollups switched on,
   * and few of the range's days pending (`reportsRepository.rollupsPay`).
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

export type LevelRow = GroupedRow & MeasureSums;

const DATED: ReadonlySet<ReportDimension> = new Set(['day', 'week', 'month', 'year']);

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
export const matchingFrom = (f: EngineFilter, sample?: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`time_entries e${sample ? sql` ${sample}` : sql``}${
    f.clients?.length ? sql` left join projects p on p.workspace_id = e.workspace_id and p.id = e.project_id` : sql``
  }`;

/** The entries a report reads: the filters, the actor's scope, overlapping [fromAt, toAt). */
export function matchingEntries(f: EngineFilter, part: 'all' | 'finished' | 'running' = 'all'): RawBuilder<unknown> {
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
  extra?: {
    where?: RawBuilder<unknown>;
    day?: boolean;
    part?: 'all' | 'finished' | 'running';
    name?: string;
    listing?: boolean;
    /** Computed once for the statement (`as materialized`) however often it is read. */
    materialized?: boolean;
  },
) {
  const name = sql.raw(`${extra?.name ?? 'facts'} as${extra?.materialized ? ' materialized' : ''}`);
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
  ${name} (
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
  ${name} (
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
  const dailyRows = sql`report_rollups e ${projectJoin}`;
  const daily = (range: [string, string], sign: 1 | -1 = 1, from = dailyRows) => {
    const k = sql.lit(sign);
    return sql`select null::uuid as entry_id, e.user_id, e.project_id, e.task_id, ${client} as client_id,
      null::text as note, e.billable, e.invoiced, e.day, ${k} * e.seconds as seconds,
      ${k} * e.billable_cents as billable_cents, ${k} * e.cost_cents as cost_cents, ${k}::bigint as rollup_rows
    from ${from}
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
  // Days writes marked that the fold has not recomputed yet (decision 0008, "Pending days"): their
  // report_rollups rows taken out (every coarse table sums them) and their entries' facts put in.
  // The pending facts are materialized, and a piece's day is looked up in a hashed list of the
  // pending days (the `in` inside coalesce is never made a join): just-written pending rows are
  // not analyzed yet, so the planner took them for one and joined them in nested loops, computing
  // the pending facts again for each pending day (over five minutes for a year's Summary after
  // 5,000 writes; bench:reports-every, burst).
  const pendingDays = sql`select k.user_id, k.day from report_rollups_pending k
    where k.workspace_id = ${ws} and k.day between ${f.fromDay}::date and ${f.toDay}::date`;
  const pendingRollups = sql`(${pendingDays}) k cross join lateral (
      select e.* from report_rollups e where e.workspace_id = ${ws} and e.user_id = k.user_id and e.day = k.day
    ) e ${projectJoin}`;
  const tz = f.timeZone;
  const pendingEntries = sql`e.id = any(array(
    select x.id from (${pendingDays}) k
    join time_entries x on x.workspace_id = ${ws} and x.user_id = k.user_id and x.end_at is not null
      and x.start_at < ((k.day + 1)::timestamp at time zone ${tz})
      and x.end_at >= (k.day::timestamp at time zone ${tz})
      and x.start_at >= (k.day::timestamp at time zone ${tz})
        - make_interval(secs => coalesce((select t.longest_seconds from time_entry_extents t where t.workspace_id = ${ws}), 0))))`;
  return sql`${factsCte(f, { day: o.day, part: 'running', name: 'running_facts' })},
  ${factsCte(f, { day: true, part: 'finished', name: 'pending_facts', where: pendingEntries, materialized: true })},
  facts as (
    ${sql.join(parts, sql` union all `)}
    union all
    select *, 1::bigint as rollup_rows from running_facts
    union all
    ${daily(range, -1, pendingRollups)}
    union all
    select p.*, 1::bigint as rollup_rows from pending_facts p
    where coalesce((p.user_id, p.day) in (select k.user_id, k.day from (${pendingDays}) k), false)
  )`;
}

/** Whether a report of these dimensions and measures may read the rollups (see `EngineFilter.rollups`). */
export function readsRollups(f: EngineFilter, dimensions: readonly ReportDimension[], countEntries: boolean): boolean {
  return f.rollups === true && !countEntries && !dimensions.some((d) => d === 'tag' || d === 'description');
}

/** How the time entries' facts are grouped by each report dimension (the engine's `LevelDimension`). */
function timeDimension(dimension: ReportDimension, f: EngineFilter): LevelDimension {
  const ws = f.workspaceId;
  switch (dimension) {
    case 'user':
      return personDimension;
    case 'group':
      return groupDimension(ws);
    case 'client':
      return { key: () => sql`f.client_id`, label: (i) => namedLabel(ws, 'clients', i) };
    case 'project':
      return { key: () => sql`f.project_id`, label: (i) => namedLabel(ws, 'projects', i, { color: true }) };
    case 'task':
      return {
        key: () => sql`f.task_id`,
        label: (i) => {
          const pt = sql.raw(`pt${i}`);
          return namedLabel(ws, 'tasks', i, {
            extra: sql` left join tasks ${pt} on ${pt}.workspace_id = ${ws} and ${pt}.id = ${sql.raw(`d${i}`)}.parent_task_id`,
            parent: sql`${pt}.name`,
          });
        },
      };
    case 'tag':
      return {
        key: (alias) => sql.raw(`${alias}.tag_id`),
        join: (alias) => {
          const a = sql.raw(alias);
          return sql` left join time_entry_tags ${a} on ${a}.workspace_id = ${ws} and ${a}.entry_id = f.entry_id`;
        },
        label: (i) => namedLabel(ws, 'tags', i),
      };
    case 'billable':
      return { key: () => sql`f.billable` };
    case 'invoiced':
      return { key: () => sql`f.invoiced` };
    case 'description':
      return { key: () => sql`f.note` };
    default:
      return periodDimension(dimension, f.weekStart);
  }
}

/** What the time entries' reports sum: seconds, money in cents, and entries (a distinct count). */
export type TimeSum = 'tracked' | LevelSum | 'entries';

const ALL_SUMS: readonly LevelSum[] = [
  'billable_seconds',
  'billable_cents',
  'cost_cents',
  'invoiced_seconds',
  'invoiced_cents',
];
const summed = (label: string, kind: 'duration' | 'money', expression: RawBuilder<unknown>) => ({
  sql: sql`sum(${expression})`,
  additive: true,
  label,
  kind,
});

/** The first source of facts: the time entries, read from the entries or from their rollups. */
export const timeSource: ReportSource<EngineFilter, ReportDimension, TimeSum> = {
  name: 'time',
  title: 'Time',
  dimensions: [...REPORT_DIMENSIONS],
  dimensionLabels: REPORT_DIMENSION_LABELS,
  dimension: timeDimension,
  sums: {
    tracked: summed('Tracked', 'duration', sql`f.seconds`),
    billable_seconds: summed('Billable time', 'duration', sql`case when f.billable then f.seconds else 0 end`),
    billable_cents: summed('Billable amount', 'money', sql`f.billable_cents`),
    cost_cents: summed('Cost', 'money', sql`f.cost_cents`),
    invoiced_seconds: summed(
      'Invoiced time',
      'duration',
      sql`case when f.billable and f.invoiced then f.seconds else 0 end`,
    ),
    invoiced_cents: summed('Invoiced amount', 'money', sql`case when f.invoiced then f.billable_cents else 0 end`),
    entries: { sql: sql`count(distinct f.entry_id)`, additive: false, label: 'Entries', kind: 'count' },
  },
  facts(f, need) {
    const source = factsSource(f, need.dimensions, need.sums.has('entries'));
    const day = need.dimensions.some((d) => DATED.has(d));
    if (source === 'entries') return { cte: factsCte(f, { day }) };
    return {
      cte: rollupFactsCte(f, {
        day,
        monthly: !need.dimensions.some((d) => DAILY.has(d)),
        yearly: !need.dimensions.some((d) => d === 'month' || DAILY.has(d)),
        clients: need.dimensions.includes('client'),
        source,
      }),
      // Rollups read as a month less some days hold negated rows: a key whose rows sum to no rollup row is no group.
      having: sql`sum(f.rollup_rows) <> 0`,
    };
  },
  // Summed per the finest set's keys (and billable and invoiced, which the sums split on) first.
  preSum: { keep: ['billable', 'invoiced'], additive: ['seconds', 'billable_cents', 'cost_cents'] },
};

/**
 * A time report as ONE statement (`compileSourceReport`): for each grouping set (a list of up to
 * three dimensions; [] is the total), the measures summed over the entries' facts or the rollups'.
 * Returns rows with `level` = the set's index.
 */
export function compileReport(
  f: EngineFilter,
  o: {
    sets: ReportDimension[][];
    dimensions: ReportDimension[];
    countEntries: boolean;
    /** The sums the report shows (tracked is always summed); all unless named. The others come as null. */
    sums?: ReadonlySet<LevelSum>;
    /** See `LevelPlan.shape`. */
    shape?: LevelPlan['shape'];
  },
): RawBuilder<LevelRow> {
  const sums = new Set<TimeSum>([
    'tracked',
    ...(o.sums ?? ALL_SUMS),
    ...(o.countEntries ? (['entries'] as const) : []),
  ]);
  return compileSourceReport(timeSource, f, {
    sets: o.sets,
    dimensions: o.dimensions,
    sums,
    shape: o.shape,
  }).$castTo<LevelRow>();
}
