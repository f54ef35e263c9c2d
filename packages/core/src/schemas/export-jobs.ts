import { z } from 'zod';
import { EXPORT_FORMATS } from './reports.js';

export const EXPORT_JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportJobStatus = (typeof EXPORT_JOB_STATUSES)[number];

/**
 * Starts an export as a job: `query` is the export's query string as the synchronous export
 * takes it (`kind=detailed&from=…`, without the leading `?`), `format` the file's format.
 */
export const createExportJobBody = z.object({
  query: z.string({ error: 'The report’s query string is required.' }).max(8000, 'The query string is too long.'),
  format: z.enum(EXPORT_FORMATS, { error: `The format is one of: ${EXPORT_FORMATS.join(', ')}.` }),
});
export type CreateExportJobBody = z.infer<typeof createExportJobBody>;

/** An export job as its owner sees it. */
export const exportJobView = z.object({
  id: z.uuid(),
  kind: z.string(),
  format: z.enum(EXPORT_FORMATS),
  query: z.string(),
  status: z.enum(EXPORT_JOB_STATUSES),
  rowsDone: z.number().int(),
  /** Null until the job has counted the report's rows. */
  rowsTotal: z.number().int().nullable(),
  /** 0 to 100; 100 once done. */
  percent: z.number().int().min(0).max(100),
  fileName: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** When the file is removed (24 hours after it is ready); past it the download answers 410. */
  expiresAt: z.string().nullable(),
  /** Whether the file can still be downloaded. */
  downloadable: z.boolean(),
});
export type ExportJobView = z.infer<typeof exportJobView>;

export const exportJobList = z.object({ items: z.array(exportJobView) });
export type ExportJobList = z.infer<typeof exportJobList>;
