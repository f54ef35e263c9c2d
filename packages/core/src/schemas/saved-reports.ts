import { z } from 'zod';
import {
  type MatrixReportQuery,
  matrixReportView,
  REPORT_DIMENSIONS,
  type ReportDimension,
  type ReportMeasure,
  reportQuery,
  summaryReportView,
} from './reports.js';
import { instantSchema, text } from './text.js';

/**
 * Saved reports (issue 14): a report's page (its slug) and the query string that page shows, kept
 * under a name, for its owner alone or shared with the workspace; and public read-only links to
 * one, whose secret travels in the URL fragment (`/share/<id>#<secret>`) so it never reaches a
 * server's or a proxy's log.
 */

/** What a report page asks the engine for, by default, when its URL does not say. */
export type ReportKindSpec =
  | { engine: 'summary'; groupBy: ReportDimension[]; measures: ReportMeasure[] }
  | { engine: 'matrix'; rows: MatrixReportQuery['rows']; columns: MatrixReportQuery['columns'] }
  | { engine: 'detailed' };

const summary = (): ReportKindSpec => ({
  engine: 'summary',
  groupBy: ['project', 'user'],
  measures: ['trackedSeconds', 'billableSeconds', 'billableAmount'],
});

const budgeting = (measures: ReportMeasure[]): ReportKindSpec => ({
  engine: 'summary',
  groupBy: ['project'],
  measures,
});

/**
 * The report pages a saved report can be (the slugs of /homepage/reports/<slug>), with what each
 * asks the engine. A new report page adds its slug here.
 */
export const REPORT_KINDS = {
  summary: summary(),
  detailed: { engine: 'detailed' },
  'by-days': { engine: 'matrix', rows: 'project', columns: 'day' },
  custom: summary(),
  'people-by-task': { engine: 'matrix', rows: 'user', columns: 'task' },
  'people-by-days-and-task': { engine: 'matrix', rows: 'user', columns: 'day' },
  'people-by-days': { engine: 'matrix', rows: 'user', columns: 'day' },
  'people-by-projects': { engine: 'matrix', rows: 'user', columns: 'project' },
  // The budgeting pages: a Summary by project (the page's grouping switch is its groupBy) of their measures.
  billable: budgeting([
    'trackedSeconds',
    'billableSeconds',
    'unbillableSeconds',
    'invoicedSeconds',
    'uninvoicedSeconds',
    'billableAmount',
    'invoicedAmount',
    'uninvoicedAmount',
  ]),
  revenues: budgeting(['billableSeconds', 'billableAmount']),
  costs: budgeting(['trackedSeconds', 'costAmount']),
  margin: budgeting(['billableAmount', 'costAmount', 'margin']),
} as const satisfies Record<string, ReportKindSpec>;
export type ReportKind = keyof typeof REPORT_KINDS;
export const REPORT_KIND_SLUGS = Object.keys(REPORT_KINDS) as ReportKind[];

/** Whether a slug is a report page one can save. */
export const isReportKind = (slug: string): slug is ReportKind => Object.hasOwn(REPORT_KINDS, slug);

export const SAVED_REPORT_VISIBILITIES = ['private', 'workspace'] as const;
export type SavedReportVisibility = (typeof SAVED_REPORT_VISIBILITIES)[number];

/** The query-string keys a report page writes beside the engine's filters (see the web's url.ts). */
const PAGE_KEYS = new Set(['groupBy', 'measures', 'chart', 'rows', 'columns', 'sort', 'order']);

export const savedReportMessages = {
  nameRequired: 'Give the report a name.',
  nameTooLong: 'A name is at most 100 characters.',
  nameTaken: 'You already have a saved report with this name: choose another.',
  kind: `The report is one of: ${REPORT_KIND_SLUGS.join(', ')}.`,
  queryTooLong: 'The report link is too long to save.',
  query: (issue: string) => `The report's filters are not valid: ${issue}`,
  visibility: 'Keep it private or share it with the workspace.',
  notFound: 'Saved report not found.',
  onlyOwner: 'Only the person who saved this report may change it or share it.',
  deleteRefused: 'Only the person who saved this report, or an administrator when it is shared, may delete it.',
  costsForAdmins: 'Only the account owner and administrators may show costs on a public link.',
  expiryPast: 'Choose an expiry date in the future, or none.',
  linkNotFound: 'Link not found.',
  linkGone: 'This link has expired or was revoked, or it is not valid.',
  detailedNotShared: 'A Detailed report cannot be shared by link yet: share a Summary or a matrix report.',
} as const;

/**
 * The saved query string: the engine's filters must read (reportQuery), the page's own keys may
 * stand beside them; the cursor of a Detailed page is not part of a report.
 */
export const savedReportQuery = z
  .string()
  .max(4000, savedReportMessages.queryTooLong)
  .transform((value, ctx) => {
    const params = new URLSearchParams(value.startsWith('?') ? value.slice(1) : value);
    params.delete('cursor');
    const record: Record<string, string | string[]> = {};
    for (const key of new Set(params.keys())) {
      if (PAGE_KEYS.has(key) && key !== 'groupBy' && key !== 'measures') continue;
      const values = params.getAll(key);
      record[key] = values.length === 1 ? (values[0] as string) : values;
    }
    const parsed = reportQuery.safeParse(record);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: savedReportMessages.query(parsed.error.issues[0]?.message ?? '') });
      return z.NEVER;
    }
    return params.toString();
  });

const name = text({
  max: 100,
  min: 1,
  required: savedReportMessages.nameRequired,
  tooLong: savedReportMessages.nameTooLong,
});
const kind = z.string().refine(isReportKind, { message: savedReportMessages.kind });
const visibility = z.enum(SAVED_REPORT_VISIBILITIES, { error: savedReportMessages.visibility });

export const createSavedReportBody = z.object({
  name,
  kind,
  query: savedReportQuery,
  visibility: visibility.default('private'),
});
export type CreateSavedReportBody = z.input<typeof createSavedReportBody>;

export const updateSavedReportBody = z.object({
  name: name.optional(),
  query: savedReportQuery.optional(),
  visibility: visibility.optional(),
});
export type UpdateSavedReportBody = z.input<typeof updateSavedReportBody>;

export const savedReportView = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  query: z.string(),
  visibility: visibility,
  ownerUserId: z.string(),
  ownerName: z.string(),
  /** Whether the viewer may rename it, change it and share it by link (its owner). */
  canEdit: z.boolean(),
  canDelete: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedReportView = z.infer<typeof savedReportView>;
export const savedReportListView = z.object({ items: z.array(savedReportView) });

// ---- public links

export const createReportLinkBody = z.object({
  /** The last moment the link works; null: until revoked. */
  expiresAt: instantSchema.nullable().default(null),
  /** Cost and margin figures on the public page; owners and admins only. */
  includeCosts: z.boolean().default(false),
});
export type CreateReportLinkBody = z.input<typeof createReportLinkBody>;

export const reportLinkView = z.object({
  id: z.string(),
  savedReportId: z.string(),
  includeCosts: z.boolean(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
  lastViewedAt: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ReportLinkView = z.infer<typeof reportLinkView>;
export const reportLinkListView = z.object({ items: z.array(reportLinkView) });

/** A new link: the only time its secret is shown. The page's address is `/share/<id>#<secret>`. */
export const createdReportLinkView = reportLinkView.extend({ secret: z.string() });
export type CreatedReportLinkView = z.infer<typeof createdReportLinkView>;

/** The header that carries a link's secret to the API (never the query string, which logs keep). */
export const SHARE_SECRET_HEADER = 'x-share-secret';

export const sharedReportView = z.object({
  name: z.string(),
  kind: z.string(),
  workspaceName: z.string(),
  currency: z.string(),
  /** Whether amounts were left out because the link's creator may not see them all. */
  moneyHidden: z.boolean(),
  report: z.discriminatedUnion('engine', [
    z.object({ engine: z.literal('summary'), view: summaryReportView }),
    z.object({
      engine: z.literal('matrix'),
      rows: z.enum(REPORT_DIMENSIONS),
      columns: z.enum(REPORT_DIMENSIONS),
      view: matrixReportView,
    }),
  ]),
});
export type SharedReportView = z.infer<typeof sharedReportView>;

/** The public page's address for a link: the secret in the fragment, which browsers never send. */
export const shareUrl = (origin: string, linkId: string, secret: string) =>
  `${origin.replace(/\/$/, '')}/share/${linkId}#${secret}`;
