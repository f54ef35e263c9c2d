import { z } from 'zod';

/** Time trackers: their exports bring time entries (and the catalogue they need). */
export const TIME_TRACKER_SOURCES = ['toggl', 'clockify', 'harvest'] as const;
/** Project tools: their exports bring projects, tasks and the tasks' assignees. */
export const PROJECT_TOOL_SOURCES = ['jira', 'asana', 'trello', 'clickup', 'monday', 'todoist'] as const;
export const IMPORT_SOURCES = ['csv', ...TIME_TRACKER_SOURCES, ...PROJECT_TOOL_SOURCES] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];
export type ProjectToolSource = (typeof PROJECT_TOOL_SOURCES)[number];
export const isProjectToolSource = (source: string): source is ProjectToolSource =>
  (PROJECT_TOOL_SOURCES as readonly string[]).includes(source);
export const IMPORT_SOURCE_LABELS: Record<ImportSource, string> = {
  csv: 'CSV',
  toggl: 'Toggl Track',
  clockify: 'Clockify',
  harvest: 'Harvest',
  jira: 'Jira',
  asana: 'Asana',
  trello: 'Trello',
  clickup: 'ClickUp',
  monday: 'monday.com',
  todoist: 'Todoist',
};

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
  /** Who the row's task is assigned to, as the file names them (an e-mail or a name). */
  assignees: z.array(z.string()),
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
  /**
   * Task assignees of a project tool's file: how many assignments importing writes (or wrote), and
   * the people the file names who match no member by e-mail, each with their number of tasks.
   * Running the import needs a choice for each of them (`importRunBody`).
   */
  assignees: z.object({
    assigned: z.number().int(),
    unmatched: z.array(z.object({ name: z.string(), tasks: z.number().int() })),
  }),
  message: z.string().nullable(),
});
export type ImportView = z.infer<typeof importView>;

/**
 * Starting an import: for each unmatched assignee of the preview, the member their tasks go to,
 * or null to leave those tasks unassigned. A file without unmatched assignees needs no body.
 */
export const importRunBody = z
  .object({
    assignees: z
      .array(z.object({ name: z.string().min(1).max(1000), userId: z.uuid().nullable() }))
      .max(10_000)
      .optional(),
  })
  .nullish();
export type ImportRunBody = z.infer<typeof importRunBody>;
