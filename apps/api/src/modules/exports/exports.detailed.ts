import { type DetailedEntryView, detailedReportQuery } from '@sundial/core';
import { sql } from 'kysely';
import type { MoneyAccess } from '../../platform/access.js';
import type { Actor } from '../../platform/actor.js';
import type { DetailedCellColumn } from '../reports/reports.service.js';
import { sqlCellText } from './exports.copy.js';
import { csvHeader, csvRecord, writeCopiedCsv } from './exports.csv.js';
import { localTime } from './exports.format.js';
import { type ExportsDeps, exportTooLarge, parse } from './exports.shared.js';
import type { Cell, ExportColumn, ExportRow } from './exports.table.js';

/** The Detailed export's columns: each entry's fields, and the amount columns where the actor sees some amounts. */
function detailedColumns(currency: string, access: MoneyAccess, withoutCosts: boolean) {
  const showBillable = access.billableOf === null || access.billableOf.size > 0;
  const showCost = !withoutCosts && (access.costOf === null || access.costOf.size > 0);
  const columns: ExportColumn[] = [
    { header: 'Date', type: 'date', width: 11 },
    { header: 'Start', type: 'datetime', width: 17 },
    { header: 'End', type: 'datetime', width: 17 },
    { header: 'User', type: 'text', width: 18 },
    { header: 'Client', type: 'text', width: 14 },
    { header: 'Project', type: 'text', width: 18 },
    { header: 'Task', type: 'text', width: 16 },
    { header: 'Description', type: 'text', width: 34 },
    { header: 'Tags', type: 'text', width: 14 },
    { header: 'Billable', type: 'text', width: 8 },
    { header: 'Invoiced', type: 'text', width: 8, pdf: false },
    { header: 'Duration', type: 'duration', width: 11 },
    { header: 'Duration (hours)', type: 'hours', width: 10, pdf: false },
    ...(showBillable ? [{ header: `Billable amount (${currency})`, type: 'money' as const, width: 14 }] : []),
    ...(showCost ? [{ header: `Cost (${currency})`, type: 'money' as const, width: 12 }] : []),
  ];
  return { columns, showBillable, showCost };
}

/**
 * The same columns' values as SQL over the engine's Detailed listing (`d.<DetailedCellColumn>`),
 * in the same order: times as local timestamps in the report's zone.
 */
function detailedSqlValues(timeZone: string, shown: { showBillable: boolean; showCost: boolean }) {
  const d = (column: DetailedCellColumn) => sql.ref(`d.${column}`);
  const local = (column: 'start_at' | 'end_at') => sql`(${d(column)} at time zone ${timeZone})`;
  const yesNo = (column: 'billable' | 'invoiced') => sql`case when ${d(column)} then 'Yes' else 'No' end`;
  return [
    local('start_at'),
    local('start_at'),
    local('end_at'),
    d('user_name'),
    d('client_name'),
    d('project_name'),
    d('task_name'),
    d('note'),
    d('tags'),
    yesNo('billable'),
    yesNo('invoiced'),
    d('seconds'),
    d('seconds'),
    ...(shown.showBillable ? [d('billable_amount')] : []),
    ...(shown.showCost ? [d('cost_amount')] : []),
  ];
}

/** The Detailed totals row: the seconds twice (h:mm:ss, hours), then the amounts shown. */
const detailedTotalCells = (
  totals: { seconds: number; billableAmount: number | null; costAmount: number | null },
  shown: { showBillable: boolean; showCost: boolean },
): Cell[] => [
  'Total',
  ...Array(10).fill(null),
  totals.seconds,
  totals.seconds,
  ...(shown.showBillable ? [totals.billableAmount] : []),
  ...(shown.showCost ? [totals.costAmount] : []),
];

/**
 * The Detailed report, which streams: as a table read page by page from one statement's cursor,
 * or, as a CSV on PostgreSQL, written by the database itself. Both refuse a report over
 * `maxRows` (409 export_too_large) after counting it, before reading a page.
 */
export function createDetailedExport(
  deps: Pick<ExportsDeps, 'reports' | 'pageRows' | 'pgliteHeldCursor' | 'copyParts' | 'copySplitRows'>,
) {
  const { reports } = deps;

  async function detailedTable(
    actor: Actor,
    query: Record<string, string | string[]>,
    currency: string,
    withoutCosts: boolean,
    maxRows: number | undefined,
  ) {
    const q = parse(detailedReportQuery, query);
    // Counted before any page is read: a report too large to download at once is refused cheaply.
    const entries = await reports.detailedCount(actor, q, maxRows === undefined ? undefined : maxRows + 1);
    if (maxRows !== undefined && entries > maxRows) throw exportTooLarge(maxRows);
    const {
      range,
      access,
      chunks: pages,
    } = await reports.detailedStream(actor, q, deps.pageRows, {
      heldCursor: deps.pgliteHeldCursor === true,
    });
    const { columns, showBillable, showCost } = detailedColumns(currency, access, withoutCosts);
    const zone = range.timeZone;
    const rowOf = (e: DetailedEntryView): ExportRow => {
      const start = localTime(e.start, zone);
      return {
        cells: [
          start.slice(0, 10),
          start,
          e.end === null ? null : localTime(e.end, zone),
          e.userName,
          e.clientName,
          e.projectName,
          e.taskName,
          e.note,
          e.tagNames.join(', '),
          e.billable ? 'Yes' : 'No',
          e.invoiced ? 'Yes' : 'No',
          e.seconds,
          e.seconds,
          ...(showBillable ? [e.billableAmount ?? null] : []),
          ...(showCost ? [e.costAmount ?? null] : []),
        ],
        kind: 'row',
        depth: 0,
      };
    };
    async function* rows(): AsyncGenerator<ExportRow> {
      let seconds = 0;
      let billable: number | null = 0;
      let cost: number | null = 0;
      for await (const page of pages)
        for (const e of page) {
          seconds += e.seconds;
          billable = billable === null || e.billableAmount == null ? null : billable + e.billableAmount;
          cost = cost === null || e.costAmount == null ? null : cost + e.costAmount;
          yield rowOf(e);
        }
      // An amount some rows hide has no true total: its cell stays empty.
      yield {
        cells: detailedTotalCells({ seconds, billableAmount: billable, costAmount: cost }, { showBillable, showCost }),
        kind: 'total',
        depth: 0,
      };
    }
    const order =
      q.order === 'desc'
        ? q.sort === 'start'
          ? 'newest first'
          : 'descending'
        : q.sort === 'start'
          ? 'oldest first'
          : 'ascending';
    return {
      range,
      columns,
      rows: rows(),
      count: entries + 1,
      extra: [`Sorted by ${q.sort}, ${order}`],
      filters: q,
    };
  }

  /**
   * The Detailed report as CSV written by the database (reports' `detailedCsv`, PostgreSQL): the
   * same bytes as `writeCsv` of `detailedTable` (exports.copy.int.test.ts), at the database's
   * speed. Null on PGlite.
   */
  async function copiedDetailedCsv(
    actor: Actor,
    query: Record<string, string | string[]>,
    currency: string,
    o: { withoutCosts: boolean; maxRows: number | undefined; bom: boolean; onRow: (() => void) | undefined },
  ) {
    const q = parse(detailedReportQuery, query);
    if (o.maxRows !== undefined && (await reports.detailedCount(actor, q, o.maxRows + 1)) > o.maxRows)
      throw exportTooLarge(o.maxRows);
    const formats = { dateFormat: actor.user.date_format, timeFormat: actor.user.time_format };
    let columns: ExportColumn[] = [];
    let shown = { showBillable: false, showCost: false };
    const copied = await reports.detailedCsv(
      actor,
      q,
      ({ access, timeZone }) => {
        ({ columns, ...shown } = detailedColumns(currency, access, o.withoutCosts));
        const values = detailedSqlValues(timeZone, shown);
        return columns.map((c, i) => sqlCellText(c.type, values[i] ?? sql`null`, formats));
      },
      { parts: deps.copyParts ?? 1, splitRows: deps.copySplitRows ?? 0 },
    );
    if (!copied) return null;
    const stream = writeCopiedCsv({
      bom: o.bom,
      header: csvHeader(columns),
      rows: copied.csv,
      footer: copied.totals.then((totals) => csvRecord(columns, formats)(detailedTotalCells(totals, shown))),
      ...(o.onRow ? { onRow: o.onRow } : {}),
    });
    return { range: copied.range, stream, rows: copied.totals.then((totals) => totals.entries + 1) };
  }

  return { detailedTable, copiedDetailedCsv };
}
