import { createExportRuns } from './exports.downloads.js';
import { createExportFiles } from './exports.file.js';
import type { ExportsDeps } from './exports.shared.js';

export { PDF_MAX_ROWS } from './exports.file.js';
export { type ExportFile, type ExportOptions, exportTooLarge } from './exports.shared.js';

/**
 * Exports: a report of the engine (Summary, Detailed, matrix) as a CSV, XLSX or PDF stream.
 * An export is (kind, the report's query string, format, options); the report is read with the
 * actor's own permissions, exactly as on screen: the same people, the Summary and matrix refuse
 * money they may not see (403 money_forbidden), and Detailed rows show amounts only where the
 * actor may see them, with the amount columns left out for an actor who sees none. Refusals and
 * bad filters throw before the first byte; the Detailed report streams from one statement's cursor.
 *
 * Put together from its parts: the reports read whole as tables (exports.reports.ts), the Detailed
 * report streamed or written by the database (exports.detailed.ts), the file in its format
 * (exports.file.ts), and how each export runs within the caps and the database's share
 * (exports.downloads.ts).
 */
export function createExportsService(deps: ExportsDeps) {
  const files = createExportFiles(deps);
  return {
    /** Reports with more rows than this export as jobs. */
    jobMinRows: deps.jobMinRows,
    validate: files.validate,
    ...createExportRuns(deps, files.make),
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;
