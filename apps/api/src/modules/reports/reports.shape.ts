import { type RawBuilder, sql } from 'kysely';
import type { GroupedRow } from './reports.engine.js';

/**
 * What of a large Summary the server sends (issue 33): the database computes every group, and
 * this select over the report's `levels` keeps only what the page shows, before the groups are
 * labelled (`LevelPlan.shape`), so Node handles hundreds of rows, not the 200,000 groups of a
 * year by project and person (34 MB of JSON, 2.8 s of Node after 2.8 s of SQL).
 * - `within`: the keys of a group (outermost first): only the groups beneath it are sent, and
 *   the group itself (its row at its own level) instead of the report's total.
 * - `fold`: when more groups than this lie beneath, only the first level beneath is sent, each
 *   group with the count of its subgroups (`child_count`), to be asked for on demand.
 * - `limit`: at most this many groups under each parent, the largest by `rank` (tracked time);
 *   the others are summed in one row per parent (`rest_count` groups, their sums added).
 * Nothing is decided in Node: the counts, the ranking and the sums of the rest are SQL.
 */
export interface ShapeOptions {
  /** How many levels the report has (its grouping sets are [], [d1], [d1, d2]...). */
  levels: number;
  within: readonly (string | null)[];
  fold?: number | undefined;
  limit?: number | undefined;
  /** The sums' column names, added up in the rest's rows. */
  sums: readonly string[];
  /** The sum ranking siblings for `limit`, largest first. */
  rank: string;
}

export interface ShapedRow extends GroupedRow {
  /** Subgroups not sent (the level was folded); null when they were, or there are none. */
  child_count: number | null;
  /** Set on a rest row: how many groups of this level, under the parent its keys name, were left out. */
  rest_count: number | null;
  /** How many groups lie beneath `within` in all (the same on every row). */
  groups: number;
}

const KEYS = ['k1', 'k2', 'k3'] as const;
const ref = (table: string, column: string) => sql.ref(`${table}.${column}`);

/** Keys equal, none (null) equal to none only, as hash-joinable equalities. */
function samePrefix(a: string, b: string, depth: number): RawBuilder<unknown> {
  if (depth === 0) return sql`true`;
  return sql.join(
    KEYS.slice(0, depth).map(
      (k) =>
        sql`coalesce(${ref(a, k)}, '') = coalesce(${ref(b, k)}, '') and (${ref(a, k)} is null) = (${ref(b, k)} is null)`,
    ),
    sql` and `,
  );
}

/** The first `depth` keys of `table`, the others null (a rest row names its parent only). */
const prefixKeys = (table: string, depth: number) =>
  sql.join(KEYS.map((k, i) => (i < depth ? sql`${ref(table, k)} as ${sql.ref(k)}` : sql`null::text as ${sql.ref(k)}`)));

export function shapeLevels(o: ShapeOptions): (levels: RawBuilder<unknown>) => RawBuilder<unknown> {
  return (levels) => shaped(levels, o);
}

function shaped(levels: RawBuilder<unknown>, o: ShapeOptions): RawBuilder<unknown> {
  const w = o.within.length;
  const below = Array.from({ length: Math.max(0, o.levels - w) }, (_, i) => w + 1 + i);
  const inside = sql.join(
    [
      sql`r.level > ${sql.lit(w)}`,
      ...o.within.map((key, i) => sql`${ref('r', KEYS[i] as string)} is not distinct from ${key}`),
    ],
    sql` and `,
  );
  const folded = o.fold === undefined ? sql`false` : sql`(select groups from n) > ${sql.lit(o.fold)}`;
  const kept = (level: number) => sql.raw(`kept${level}`);
  const first = w + 1;
  const limit = o.limit === undefined ? sql`` : sql` limit ${sql.lit(o.limit)}`;
  // Parents and ties told apart by the keys' bytes: a locale's collation costs seconds on 334,000 descriptions.
  const byteOrder = sql.join(KEYS.map((k) => sql`${sql.ref(k)} collate "C"`));
  // Each level's groups kept: the first level's largest (one top-N sort, however many there are),
  // then, under each kept parent, its largest subgroups (ranked within their parent).
  const keptCtes = below.map((level) =>
    level === first
      ? sql`${kept(level)} as (select s.* from s where s.level = ${sql.lit(level)}
          order by ${sql.ref(o.rank)} desc, ${byteOrder}${limit})`
      : sql`${kept(level)} as (select s.* from ranked s join ${kept(level - 1)} p on ${samePrefix('s', 'p', level - 1)}
          where s.level = ${sql.lit(level)}${o.limit === undefined ? sql`` : sql` and s.rank <= ${sql.lit(o.limit)}`})`,
  );
  // Each parent's left-out groups, one row: how many, and their sums added up.
  const sumsOfRest = sql.join(o.sums.map((s) => sql`sum(${ref('s', s)}) as ${sql.ref(s)}`));
  const restRows =
    o.limit === undefined
      ? []
      : below.map((level) => {
          if (level === first) {
            // All the first level's groups less the kept ones (a subtraction: an anti-join of
            // 334,000 descriptions against 1,000 kept planned as nested loops ran 86 s).
            const less = sql.join(
              o.sums.map(
                (c) =>
                  sql`sum(${ref('s', c)}) - coalesce((select sum(${ref('k', c)}) from ${kept(level)} k), 0) as ${sql.ref(c)}`,
              ),
            );
            // Its parent is `within` itself: the keys are the asked ones (the rows are not grouped).
            const parent = sql.join(
              KEYS.map((k, i) => sql`${i < w ? sql`${o.within[i] ?? null}::text` : sql`null::text`} as ${sql.ref(k)}`),
            );
            return sql`select ${sql.lit(level)}::int as level, ${parent}, ${less},
              null::int as child_count, (count(*) - (select count(*) from ${kept(level)}))::int as rest_count
              from s where s.level = ${sql.lit(level)}
              having count(*) > (select count(*) from ${kept(level)})`;
          }
          const by = KEYS.slice(0, level - 1).map((k) => ref('s', k));
          return sql`select ${sql.lit(level)}::int as level, ${prefixKeys('s', level - 1)}, ${sumsOfRest},
            null::int as child_count, count(*)::int as rest_count
            from ranked s join ${kept(level - 1)} p on ${samePrefix('s', 'p', level - 1)}
            where s.level = ${sql.lit(level)} and s.rank > ${sql.lit(o.limit)}
            group by ${sql.join(by)}`;
        });
  const columns = sql.join([...KEYS, ...o.sums].map((c) => ref('x', c)));
  // A kept group's subgroups, counted when its level was folded (they are not sent).
  const keptRows = below.map((level) =>
    level < o.levels
      ? sql`select x.level, ${columns}, case when ${folded} then coalesce(kd.n, 0) end as child_count, null::int as rest_count
          from ${kept(level)} x left join kids kd on kd.level = x.level and ${samePrefix('kd', 'x', level)}`
      : sql`select x.level, ${columns}, null::int as child_count, null::int as rest_count from ${kept(level)} x`,
  );
  const own = sql`select x.level, ${columns}, null::int as child_count, null::int as rest_count
    from r x where ${sql.join(
      [
        sql`x.level = ${sql.lit(w)}`,
        ...o.within.map((key, i) => sql`${ref('x', KEYS[i] as string)} is not distinct from ${key}`),
      ],
      sql` and `,
    )}`;
  // A row's parent: the first keys above its level (k1 for the second level, k1 and k2 for the third).
  const parentKeys = sql.join(
    KEYS.slice(0, 2).map((k, i) => sql`case when level > ${sql.lit(i + 1)} then ${sql.ref(k)} end as ${sql.ref(k)}`),
  );
  const rankBy = sql.join([
    sql.raw('level'),
    ...KEYS.slice(0, 2).map((k, i) => sql`case when level > ${sql.lit(i + 1)} then ${sql.ref(k)} end collate "C"`),
  ]);
  return sql`with r as materialized (select * from ${levels}),
    n as (select count(*)::int as groups from r where ${inside}),
    s as (select r.* from r where ${inside} and (not ${folded} or r.level = ${sql.lit(w + 1)})),
    ranked as (select s.*, row_number() over (partition by ${rankBy} order by ${sql.ref(o.rank)} desc, ${byteOrder}) as rank
      from s where s.level > ${sql.lit(first)}),
    kids as (select level - 1 as level, ${parentKeys}, count(*)::int as n from r
      where ${folded} and ${inside} and r.level = ${sql.lit(w + 2)} group by 1, 2, 3)
    ${keptCtes.length ? sql`, ${sql.join(keptCtes, sql`, `)}` : sql``}
    select y.*, (select groups from n) as groups from (
      ${sql.join([own, ...keptRows, ...restRows], sql` union all `)}
    ) y`;
}
