import { z } from 'zod';
import {
  DETAILED_SORTS,
  detailedReportView,
  type MatrixReportQuery,
  matrixReportView,
  REPORT_DIMENSIONS,
  type ReportDimension,
  type ReportMeasure,
  reportQuery,
  summaryReportView,
  summaryWithin,
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
  | { engine: 'detailed' }
  /** Budgets against tracked time (not the report engine's groups): saved, not yet shared or exported. */
  | { engine: 'estimates' };

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
  estimates: { engine: 'estimates' },
} as const satisfies Record<string, ReportKindSpec>;
export type ReportKind = keyof typeof REPORT_KINDS;
export const REPORT_KIND_SLUGS = Object.keys(REPORT_KINDS) as ReportKind[];

/** Whether a saved report of this kind can have a public page link (the public page shows Summary, matrix and Detailed reports). */
export const isLinkShareable = (kind: string): boolean => {
  const engine = isReportKind(kind) ? REPORT_KINDS[kind].engine : undefined;
  return engine === 'summary' || engine === 'matrix' || engine === 'detailed';
};

/** Whether a saved report of this kind can have a CSV link (the exports' reports: Summary, matrix and Detailed). */
export const isCsvLinkable = (kind: string): boolean => isReportKind(kind) && REPORT_KINDS[kind].engine !== 'estimates';

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
  estimatesNotShared:
    'The Estimates report cannot be shared by link or imported into a spreadsheet yet: share a Summary, a matrix or a Detailed report.',
  csvLinkNotFound: 'This report has no CSV link.',
  csvLinkBusy: 'Another CSV link for this report was just made: reload to see it.',
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

/** How many entries one page of a shared Detailed report holds. */
export const SHARED_DETAILED_PAGE = 50;

/**
 * The next page of a shared Detailed report (`cursor`, the previous page's `nextCursor`, not a
 * secret), or the subgroups of a folded shared Summary's group (`within`, its keys as a JSON list).
 */
export const sharedReportQuery = z.object({ cursor: z.string().max(500).optional(), within: summaryWithin });

/** Tracked time per day, week or month over the report's range: the Summary's bars. */
export const sharedBarsView = z.object({
  interval: z.enum(['day', 'week', 'month']),
  points: z.array(z.object({ key: z.string(), seconds: z.number().int() })),
});
export type SharedBarsView = z.infer<typeof sharedBarsView>;

export const sharedReportView = z.object({
  name: z.string(),
  kind: z.string(),
  workspaceName: z.string(),
  currency: z.string(),
  /** Whether amounts were left out because the link's creator may not see them all. */
  moneyHidden: z.boolean(),
  report: z.discriminatedUnion('engine', [
    z.object({
      engine: z.literal('summary'),
      /** Folded above SUMMARY_FOLD_ABOVE groups and limited to SUMMARY_LIMIT_GROUPS under each parent, as the signed-in page. */
      view: summaryReportView,
      /** Left out when `within` asks for a group's subgroups (the page already has them). */
      bars: sharedBarsView.optional(),
    }),
    z.object({
      engine: z.literal('matrix'),
      rows: z.enum(REPORT_DIMENSIONS),
      columns: z.enum(REPORT_DIMENSIONS),
      view: matrixReportView,
    }),
    z.object({
      engine: z.literal('detailed'),
      /** One keyset page of entries (`nextCursor` asks for the next); costs only when the link includes them. */
      view: detailedReportView,
      sort: z.enum(DETAILED_SORTS),
      order: z.enum(['asc', 'desc']),
      /** The whole report's totals (every page), from the engine's Summary of the same filters. */
      totals: summaryReportView.shape.totals,
    }),
  ]),
});
export type SharedReportView = z.infer<typeof sharedReportView>;

/** The public page's address for a link: the secret in the fragment, which browsers never send. */
export const shareUrl = (origin: string, linkId: string, secret: string) =>
  `${origin.replace(/\/$/, '')}/share/${linkId}#${secret}`;

// ---- CSV links (Google Sheets' IMPORTDATA)

/**
 * A saved report's CSV link: Google Sheets' IMPORTDATA fetches it from Google's servers, so its
 * token sits in the URL path (a fragment would never reach us). It is a secret of its own, apart
 * from the page links'; a saved report has at most one working CSV link, a new one replaces it.
 */
export const createReportCsvLinkBody = createReportLinkBody;
export type CreateReportCsvLinkBody = z.input<typeof createReportCsvLinkBody>;

export const reportCsvLinkView = z.object({
  id: z.string(),
  savedReportId: z.string(),
  includeCosts: z.boolean(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
  lastFetchedAt: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
});
export type ReportCsvLinkView = z.infer<typeof reportCsvLinkView>;

/** The report's current CSV link (the last one made), or null when it never had one. */
export const reportCsvLinkStateView = z.object({ link: reportCsvLinkView.nullable() });
export type ReportCsvLinkStateView = z.infer<typeof reportCsvLinkStateView>;

/** A new CSV link: the only time its token is shown; `path` is the CSV's address below the site's origin. */
export const createdReportCsvLinkView = reportCsvLinkView.extend({ token: z.string(), path: z.string() });
export type CreatedReportCsvLinkView = z.infer<typeof createdReportCsvLinkView>;

/** The CSV's path for a token (the `.csv` ending tells spreadsheet programs what they fetch). */
export const reportCsvPath = (token: string) => `/api/v1/public/reports/csv/${token}.csv`;

/** The formula to paste into a Google Sheets cell. */
export const importDataFormula = (url: string) => `=IMPORTDATA("${url.replace(/"/g, '""')}")`;
