import type { Readable } from 'node:stream';
import type { ReportMeasure } from '@sundial/core';
import type { z } from 'zod';
import type { HeavyWork } from '../../db/heavy-work.js';
import { AppError } from '../../platform/errors.js';
import type { RatesService } from '../rates/rates.service.js';
import type { ReportsService } from '../reports/reports.service.js';

/**
 * What the parts of the exports service share: what they are given, what an export answers, and
 * how an export's query string is read and refused.
 */

export interface ExportFile {
  fileName: string;
  contentType: string;
  /** The file, already written whole to a temporary file: reading it holds nothing of the database. */
  stream: Readable;
  sizeBytes: number;
  /**
   * The rows the file holds (totals rows included): counted before streaming, or, for a CSV the
   * database writes, beside it (settling while it streams; a reader gone early may never see it).
   */
  rows: Promise<number>;
}

export interface ExportOptions {
  /** Refuse (409 export_too_large) a report with more rows than this, before the first byte. */
  maxRows?: number;
  /**
   * A download a client waits for: counted against the caps on exports under way (per user,
   * workspace and process; 429 too_many_exports past them) from now until its stream closes.
   */
  download?: boolean;
  /** Called after each row is written to the stream (progress). */
  onRow?: () => void;
  /**
   * Leave costs and margins out whatever the actor may see (a public CSV link that does not
   * include them): cost and margin measures are dropped, and Detailed's cost column.
   */
  withoutCosts?: boolean;
}

export const exportTooLarge = (maxRows: number) =>
  new AppError(
    'export_too_large',
    `This report has more than ${maxRows.toLocaleString('en-US')} rows, too many to download at once. ` +
      'Start it as a background export instead: you get a progress bar, a download link and an e-mail when the file is ready.',
    { status: 409 },
  );

export interface ExportsDeps {
  reports: ReportsService;
  rates: Pick<RatesService, 'settings'>;
  /** Entries read per chunk of the engine's cursor while a Detailed export streams. */
  pageRows: number;
  /** On PGlite, read a Detailed export through one held cursor instead of keyset pages (to compare). */
  pgliteHeldCursor?: boolean;
  /** The workspace's logo, for the PDF's header (the workspaces module); null when it has none. */
  logoOf?: (workspaceId: string) => Promise<Buffer | null>;
  /** Reports with more rows than this are refused by `download` (409 export_too_large): they export as jobs. */
  jobMinRows: number;
  /** Detailed CSVs written by the database where it can (PostgreSQL's COPY); false: always in Node. */
  databaseCsv?: boolean;
  /** A large start-sorted database CSV is copied in this many parts at once (reports' `detailedCsv`). */
  copyParts?: number;
  /** ...when it lists at least this many entries (0: always). */
  copySplitRows?: number;
  /** The database's share for heavy work: each export reads the database holding one slot. */
  heavy?: HeavyWork;
  /** Downloads under way at once, at most (`download` exports): per user, per workspace, per process. */
  downloads?: { perUser: number; perWorkspace: number; perProcess: number };
}

const COST_MEASURES: ReadonlySet<string> = new Set<ReportMeasure>(['costAmount', 'margin']);

export function parse<S extends z.ZodType>(schema: S, query: Record<string, string | string[]>): z.output<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join('.') || 'query'] ??= issue.message;
  throw new AppError('validation_failed', Object.values(fields)[0] ?? 'The export is not valid.', {
    status: 422,
    fields,
  });
}

/** The query string as the report schemas read it; `withoutCosts` drops cost and margin measures. */
export function queryOf(params: URLSearchParams, withoutCosts = false): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (withoutCosts && key === 'measures') {
      const kept = params
        .getAll(key)
        .flatMap((v) => v.split(','))
        .filter((m) => m && !COST_MEASURES.has(m));
      if (kept.length) query[key] = kept.join(',');
      continue;
    }
    const values = params.getAll(key);
    query[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return query;
}
