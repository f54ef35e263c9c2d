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

export const importPreviewView = z.object({
  total: z.number().int(),
  errorCount: z.number().int(),
  rows: z.array(importRowView),
  summary: importSummaryView,
});
export type ImportPreviewView = z.infer<typeof importPreviewView>;
