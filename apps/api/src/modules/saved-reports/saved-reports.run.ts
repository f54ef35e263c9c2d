import {
  barInterval,
  detailedReportQuery,
  MONEY_MEASURES,
  matrixReportQuery,
  REPORT_KINDS,
  type ReportMeasure,
  reportQuery,
  SHARED_DETAILED_PAGE,
  type SharedReportView,
  SUMMARY_FOLD_ABOVE,
  SUMMARY_LIMIT_GROUPS,
} from '@sundial/core';
import type { Actor } from '../../platform/actor.js';
import { linkGone, moneyRefused, type SavedReportsDeps } from './saved-reports.shared.js';

/** The engine's measures a shared Detailed report totals (costs only when the link includes them). */
const DETAILED_TOTALS: ReportMeasure[] = ['trackedSeconds', 'billableSeconds', 'billableAmount', 'entryCount'];

/** The report behind a public page link: the saved report run through the engine as the link's creator. */
export function createSharedRuns(deps: Pick<SavedReportsDeps, 'reports'>) {
  /** Runs a saved report as `actor`; money it may not see, or costs the link leaves out, are dropped. */
  async function runAs(
    actor: Actor,
    kind: keyof typeof REPORT_KINDS,
    query: string,
    includeCosts: boolean,
    asked: { cursor?: string | undefined; within?: string | undefined } = {},
  ): Promise<Pick<SharedReportView, 'report' | 'moneyHidden'>> {
    const spec = REPORT_KINDS[kind];
    const params = Object.fromEntries(new URLSearchParams(query));
    if (spec.engine === 'detailed') return runDetailed(actor, params, includeCosts, asked.cursor);
    const wanted = (params.measures ?? '').split(',').filter(Boolean) as ReportMeasure[];
    const allowed = (measures: ReportMeasure[]) =>
      includeCosts ? measures : measures.filter((m) => m !== 'costAmount' && m !== 'margin');
    const run = async (measures: ReportMeasure[]): Promise<SharedReportView['report']> => {
      if (spec.engine === 'summary') {
        // Shaped as the signed-in page asks: folded when large, the smaller groups summed, and a
        // group's subgroups on demand (`within`), so a link to a year by person stays light.
        const q = reportQuery.parse({
          ...params,
          groupBy: params.groupBy ?? spec.groupBy.join(','),
          measures,
          fold: SUMMARY_FOLD_ABOVE,
          limit: SUMMARY_LIMIT_GROUPS,
          within: asked.within,
        });
        const view = await deps.reports.summary(actor, q);
        if (asked.within !== undefined) return { engine: 'summary', view };
        // The Summary page's bars: tracked time per day, week or month of the same filters.
        const interval = barInterval(view.range.from, view.range.to);
        const series = await deps.reports.summary(
          actor,
          reportQuery.parse({ ...params, groupBy: interval, measures: ['trackedSeconds'] }),
        );
        const points = series.groups.map((g) => ({ key: g.key.key ?? '', seconds: g.measures.trackedSeconds ?? 0 }));
        return { engine: 'summary', view, bars: { interval, points } };
      }
      if (spec.engine === 'matrix') {
        const q = matrixReportQuery.parse({
          ...params,
          rows: params.rows ?? spec.rows,
          columns: params.columns ?? spec.columns,
          measures,
        });
        return { engine: 'matrix', rows: q.rows, columns: q.columns, view: await deps.reports.matrix(actor, q) };
      }
      throw linkGone();
    };
    const first =
      spec.engine === 'summary'
        ? allowed(wanted.length ? wanted : [...spec.measures])
        : allowed(wanted.slice(0, 1)).length
          ? allowed(wanted.slice(0, 1))
          : (['trackedSeconds'] as ReportMeasure[]);
    const measures = first.length ? first : (['trackedSeconds'] as ReportMeasure[]);
    try {
      return { report: await run(measures), moneyHidden: false };
    } catch (error) {
      if (!moneyRefused(error)) throw error;
      const without = measures.filter((m) => !MONEY_MEASURES.includes(m));
      return { report: await run(without.length ? without : ['trackedSeconds']), moneyHidden: true };
    }
  }

  /**
   * One page of a saved Detailed report as `actor`, with the whole report's totals (the signed-in
   * page's figures); entries' costs are dropped unless the link includes them, their invoices always, and the totals leave
   * out the amounts the creator may not see for everyone in the report (moneyHidden).
   */
  async function runDetailed(
    actor: Actor,
    params: Record<string, string>,
    includeCosts: boolean,
    cursor: string | undefined,
  ): Promise<Pick<SharedReportView, 'report' | 'moneyHidden'>> {
    const { measures: _m, groupBy: _g, limit: _l, ...filters } = params;
    const q = detailedReportQuery.parse({ ...filters, cursor, limit: SHARED_DETAILED_PAGE });
    const view = await deps.reports.detailed(actor, q);
    // A shared link's readers are not the creator: the creator's invoices stay out of it.
    const items = view.items.map((e) => ({ ...e, invoice: null, ...(includeCosts ? {} : { costAmount: null }) }));
    const wanted = includeCosts ? [...DETAILED_TOTALS, 'costAmount' as const] : DETAILED_TOTALS;
    const totalsOf = (measures: ReportMeasure[]) =>
      deps.reports.summary(actor, reportQuery.parse({ ...filters, measures })).then((s) => s.totals);
    let moneyHidden = false;
    let totals: Awaited<ReturnType<typeof totalsOf>>;
    try {
      totals = await totalsOf(wanted);
    } catch (error) {
      if (!moneyRefused(error)) throw error;
      moneyHidden = true;
      totals = await totalsOf(wanted.filter((m) => !MONEY_MEASURES.includes(m)));
    }
    return {
      report: { engine: 'detailed', view: { ...view, items }, sort: q.sort, order: q.order, totals },
      moneyHidden,
    };
  }

  return { runAs };
}
