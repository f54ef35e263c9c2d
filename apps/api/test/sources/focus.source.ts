import { type RawBuilder, sql } from 'kysely';
import {
  groupDimension,
  type LevelDimension,
  type Period,
  peopleFilters,
  periodDimension,
  personDimension,
  type ReportSource,
  type SourceScope,
} from '../../src/modules/reports/reports.engine.js';

/**
 * A made-up kind of fact, as a computer-activity or attendance source will be: spans of focus per
 * person (`focus_spans`, made by focus.migration.ts), each on the application in front. It shows
 * that a source is this one file plus its table: the engine groups it by person, group and period
 * as it does time, by its own dimensions (application, focused or not), with its own sums.
 */
export type FocusDimension = 'user' | 'group' | Period | 'app' | 'focused';
export type FocusSum = 'seconds' | 'focused_seconds' | 'spans';

const PERIODS: ReadonlySet<string> = new Set(['day', 'week', 'month', 'year']);
const summed = (label: string, expression: RawBuilder<unknown>) => ({
  sql: sql`sum(${expression})`,
  additive: true,
  label,
  kind: 'duration' as const,
});

export const focusSource: ReportSource<SourceScope, FocusDimension, FocusSum> = {
  name: 'focus',
  title: 'Focus',
  dimensions: ['user', 'group', 'day', 'week', 'month', 'year', 'app', 'focused'],
  dimensionLabels: {
    user: 'User',
    group: 'Group',
    day: 'Day',
    week: 'Week',
    month: 'Month',
    year: 'Year',
    app: 'Application',
    focused: 'Focused',
  },
  dimension(d, f): LevelDimension {
    if (d === 'user') return personDimension;
    if (d === 'group') return groupDimension(f.workspaceId);
    if (d === 'app') return { key: () => sql`f.app` };
    if (d === 'focused') return { key: () => sql`f.focused` };
    if (PERIODS.has(d)) return periodDimension(d as Period, f.weekStart);
    throw new Error(`no dimension ${d}`);
  },
  sums: {
    seconds: summed('Time', sql`f.seconds`),
    focused_seconds: summed('Focused time', sql`case when f.focused then f.seconds else 0 end`),
    spans: { sql: sql`count(distinct f.id)`, additive: false, label: 'Spans', kind: 'count' },
  },
  facts: (f) => ({
    cte: sql`facts as (
      select e.id, e.user_id, (e.started_at at time zone ${f.timeZone})::date as day, e.app, e.focused, e.seconds
      from focus_spans e
      where ${sql.join(
        [
          sql`e.workspace_id = ${f.workspaceId}`,
          sql`e.started_at >= ${f.fromAt}`,
          sql`e.started_at < ${f.toAt}`,
          ...peopleFilters(f),
        ],
        sql` and `,
      )}
    )`,
  }),
  preSum: { keep: ['focused'], additive: ['seconds'] },
};
