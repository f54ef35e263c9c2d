import { z } from 'zod';

/** What an import created (or, in a preview, would create). */
export const importSummaryView = z.object({
  clients: z.number().int(),
  projects: z.number().int(),
  tasks: z.number().int(),
  tags: z.number().int(),
  timeEntries: z.number().int(),
});
export type ImportSummaryView = z.infer<typeof importSummaryView>;

export const importRowView = z.object({
  line: z.number().int(),
  client: z.string().nullable(),
  project: z.string().nullable(),
  taskPath: z.array(z.string()),
  tags: z.array(z.string()),
  entry: z
    .object({
      email: z.string().nullable(),
      note: z.string(),
      billable: z.boolean(),
      start: z.string(),
      seconds: z.number(),
    })
    .nullable(),
  error: z.string().nullable(),
});
export type ImportRowView = z.infer<typeof importRowView>;

export const IMPORT_STATUSES = ['reading', 'ready', 'invalid', 'queued', 'importing', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * An uploaded import file and how far it got: read (`ready` to import, or `invalid` with the
 * rows' errors), then `queued`, `importing` (rowsImported grows) and `done`, or `failed` with a
 * message. `rows` are the first rows and errors for a preview (until the import starts); `errors` the first errors.
 */
export const importView = z.object({
  id: z.string(),
  source: z.string(),
  status: z.enum(IMPORT_STATUSES),
  bytesRead: z.number().int(),
  rowsRead: z.number().int(),
  rowsImported: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), error: z.string() })),
  rows: z.array(importRowView),
  summary: importSummaryView,
  message: z.string().nullable(),
});
export type ImportView = z.infer<typeof importView>;
