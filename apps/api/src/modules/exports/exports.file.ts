import {
  detailedReportQuery,
  type ExportFormat,
  type ExportKind,
  estimatesReportQuery,
  exportQuery,
  matrixReportQuery,
  type ReportQuery,
  reportQuery,
  sourceReportQuery,
} from '@sundial/core';
import type { Actor } from '../../platform/actor.js';
import { notFound } from '../../platform/errors.js';
import { writeCsv } from './exports.csv.js';
import { createDetailedExport } from './exports.detailed.js';
import { writePdf } from './exports.pdf.js';
import { createReportTables } from './exports.reports.js';
import {
  type ExportFile,
  type ExportOptions,
  type ExportsDeps,
  exportTooLarge,
  parse,
  queryOf,
} from './exports.shared.js';
import type { ExportRow, ExportTable } from './exports.table.js';
import { writeXlsx } from './exports.xlsx.js';

const TITLES = { summary: 'Summary', detailed: 'Detailed', matrix: 'Matrix', estimates: 'Estimates' } as const;

/** A PDF stops after this many rows, with a note: a printed report past a few hundred pages helps no one. */
export const PDF_MAX_ROWS = 10_000;

async function* counted(rows: AsyncIterable<ExportRow>, onRow: () => void): AsyncGenerator<ExportRow> {
  for await (const row of rows) {
    yield row;
    onRow();
  }
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'report';

/**
 * An export's query string read and made into a file: the report's table (or the database's own
 * Detailed CSV) laid out by the writer of its format, with the range and filters in words above.
 */
export function createExportFiles(deps: ExportsDeps) {
  const { describe, summaryTable, sourceTable, matrixTable, estimatesTable } = createReportTables(deps.reports);
  const { detailedTable, copiedDetailedCsv } = createDetailedExport(deps);

  return {
    /** Checks an export's query string (kind, format, the report's own parameters) without reading anything; 422 when wrong. */
    validate(params: URLSearchParams): void {
      const query = queryOf(params);
      const { kind, source } = parse(exportQuery, query);
      if (kind === 'source' && !deps.reports.sources.has(source ?? ''))
        throw notFound(`There is no report of ${source}.`);
      parse(
        kind === 'summary'
          ? reportQuery
          : kind === 'matrix'
            ? matrixReportQuery
            : kind === 'estimates'
              ? estimatesReportQuery
              : kind === 'source'
                ? sourceReportQuery
                : detailedReportQuery,
        query,
      );
    },

    /** The file as it is made: a stream reading the database until its last byte. */
    async make(
      actor: Actor,
      params: URLSearchParams,
      exportOptions: ExportOptions,
    ): Promise<Omit<ExportFile, 'sizeBytes'>> {
      const { maxRows, onRow, withoutCosts = false } = exportOptions;
      const query = queryOf(params, withoutCosts);
      const options = parse(exportQuery, query);
      const kind: ExportKind = options.kind;
      const currency = (await deps.rates.settings(actor)).currency;
      // A source's report is named by the source (below).
      let title = options.title ?? (kind === 'source' ? '' : TITLES[kind]);
      if (kind === 'detailed' && options.format === 'csv' && deps.databaseCsv !== false) {
        const bom = options.bom ?? false;
        const copied = await copiedDetailedCsv(actor, query, currency, { withoutCosts, maxRows, bom, onRow });
        if (copied)
          return {
            fileName: `${slug(title)}-${copied.range.from}-${copied.range.to}.csv`,
            contentType: CONTENT_TYPES.csv,
            stream: copied.stream,
            rows: copied.rows,
          };
      }
      let built: Omit<Awaited<ReturnType<typeof summaryTable>>, 'chart'> & { chart?: ExportTable['chart'] };
      let filters: Pick<ReportQuery, 'preset'> & Partial<Omit<ReportQuery, 'groupBy' | 'preset'>>;
      if (kind === 'source') {
        const q = parse(sourceReportQuery, query);
        filters = q;
        const made = await sourceTable(actor, options.source ?? '', q, currency);
        built = made;
        title = options.title ?? made.title;
      } else if (kind === 'summary') {
        const q = parse(reportQuery, query);
        filters = q;
        built = await summaryTable(actor, q, currency, options.format === 'pdf');
      } else if (kind === 'matrix') {
        const q = parse(matrixReportQuery, query);
        filters = q;
        built = await matrixTable(actor, q, currency);
      } else if (kind === 'estimates') {
        const q = parse(estimatesReportQuery, query);
        filters = q;
        built = await estimatesTable(actor, q, currency);
      } else {
        const d = await detailedTable(actor, query, currency, withoutCosts, maxRows);
        filters = d.filters;
        built = d;
      }
      if (maxRows !== undefined && built.count > maxRows + 1) throw exportTooLarge(maxRows);
      const table: ExportTable = {
        title,
        workspace: actor.membership.workspace.name,
        lines: [...(await describe(actor, filters, built.range)), ...built.extra],
        columns: built.columns,
        rows: onRow ? counted(built.rows, onRow) : built.rows,
        dateFormat: actor.user.date_format,
        timeFormat: actor.user.time_format,
        currency,
        fileName: `${slug(title)}-${built.range.from}-${built.range.to}`,
        ...(built.chart ? { chart: built.chart } : {}),
      };
      if (options.format === 'pdf' && deps.logoOf) {
        const logo = await deps.logoOf(actor.membership.workspace.id);
        if (logo) table.logo = logo;
      }
      const stream =
        options.format === 'csv'
          ? writeCsv(table, { bom: options.bom ?? false })
          : options.format === 'xlsx'
            ? writeXlsx(table)
            : writePdf(table, { maxRows: PDF_MAX_ROWS });
      return {
        fileName: `${table.fileName}.${options.format}`,
        contentType: CONTENT_TYPES[options.format],
        stream,
        rows: Promise.resolve(built.count),
      };
    },
  };
}
