import type { ReportCsvLinkView, ReportLinkView, SavedReportVisibility } from '@sundial/core';

/** Every text of saved reports, share links and the public report page. */
export const st = {
  save: 'Save',
  saveTitle: 'Save this report',
  saveHint: 'Saves the report with its filters and layout, so you can open it again from Saved reports.',
  name: 'Name',
  namePlaceholder: 'e.g. Website project, this month',
  visibility: 'Who sees it',
  visibilities: {
    private: 'Only me',
    workspace: 'Everyone in the workspace',
  } satisfies Record<SavedReportVisibility, string>,
  saveButton: 'Save report',
  cancel: 'Cancel',
  saved: (name: string) => `Saved "${name}". Find it under Reports › Saved reports.`,
  listTitle: 'Saved reports',
  listHint:
    'Reports you saved, and those your colleagues shared with the workspace. Open one to see it with today’s data.',
  empty: 'No saved reports yet',
  emptyHint: 'Open any report, set its filters, and press Save above it.',
  openSummary: 'Open the Summary report',
  colName: 'Name',
  colReport: 'Report',
  colShared: 'Shared with',
  colOwner: 'Saved by',
  colActions: 'Actions',
  you: 'You',
  open: (name: string) => `Open ${name}`,
  rename: 'Rename',
  renameTitle: 'Rename saved report',
  renamed: 'Renamed.',
  delete: 'Delete',
  deleteTitle: 'Delete this saved report?',
  deleteBody: (name: string) =>
    `"${name}" and every public link to it will stop working. The time entries are not touched.`,
  deleted: (name: string) => `Deleted "${name}".`,
  share: 'Share link',
  schedule: 'Schedule e-mail',
  actionsFor: (name: string) => `Actions for ${name}`,
  // the share dialog
  shareTitle: (name: string) => `Share "${name}" by link`,
  shareHint:
    'Anyone with the link sees this report, read-only, without signing in: what you may see, as it is when they open it.',
  expiry: 'Link expires',
  expiries: {
    never: 'Never',
    '1': 'In 1 day',
    '7': 'In 7 days',
    '30': 'In 30 days',
    '90': 'In 90 days',
    date: 'On a date…',
  },
  expiryDate: 'Last day it works',
  expiryDateMissing: 'Choose the last day the link works.',
  includeCosts: 'Show costs and margins',
  includeCostsHint: 'Cost rates are confidential: leave this off unless the reader should see them.',
  createLink: 'Create link',
  linkReady: 'Copy the link now: it is shown only once.',
  linkLabel: 'Public link',
  copy: 'Copy link',
  copied: 'Copied',
  links: 'Links',
  noLinks: 'No links yet.',
  revoke: 'Revoke',
  revoked: 'Link revoked: it no longer opens the report.',
  status: {
    active: 'Active',
    expired: 'Expired',
    revoked: 'Revoked',
  } satisfies Record<ReportLinkView['status'], string>,
  linkLine: (link: ReportLinkView, date: (iso: string) => string) =>
    [
      `Created ${date(link.createdAt)}`,
      link.expiresAt ? `expires ${date(link.expiresAt)}` : 'never expires',
      link.includeCosts ? 'with costs' : null,
      link.lastViewedAt ? `last opened ${date(link.lastViewedAt)}` : 'not opened yet',
    ]
      .filter(Boolean)
      .join(' · '),
  estimatesNotShared:
    'The Estimates report can be saved and reopened, but not shared by link or imported into Google Sheets yet. Save a Summary, a matrix or a Detailed report to share it.',
  // Google Sheets (a CSV link for IMPORTDATA)
  sheets: 'Google Sheets',
  sheetsTitle: (name: string) => `Google Sheets: "${name}"`,
  sheetsTitleUnsaved: 'Google Sheets',
  sheetsHint:
    'Paste the formula into a cell of a Google Sheet: the sheet imports this report as a table and keeps it up to date. No Google account or API key is needed here.',
  sheetsRefresh: 'Google refreshes imported data about every hour; the table shows what you may see at that moment.',
  sheetsWarning:
    'Anyone who has the formula can read this report’s data, without signing in. Revoke the link to stop it.',
  sheetsCreate: 'Create Google Sheets link',
  sheetsReplace: 'Create a new link',
  sheetsReplaceHint: 'The formula was shown once, when the link was made. A new link replaces this one.',
  sheetsReady: 'Copy the formula now: it is shown only once.',
  sheetsFormula: 'Formula for a Google Sheets cell',
  sheetsCopy: 'Copy formula',
  sheetsRevoked: 'Google Sheets link revoked: sheets that import it stop updating.',
  sheetsNone: 'This report has no Google Sheets link yet.',
  sheetsOnlyOwner: 'Only the person who saved this report may create its Google Sheets link.',
  sheetsLine: (link: ReportCsvLinkView, date: (iso: string) => string) =>
    [
      `Created ${date(link.createdAt)}`,
      link.expiresAt ? `expires ${date(link.expiresAt)}` : 'never expires',
      link.includeCosts ? 'with costs' : null,
      link.lastFetchedAt ? `last fetched ${date(link.lastFetchedAt)}` : 'not fetched yet',
    ]
      .filter(Boolean)
      .join(' · '),
  sheetsSaveFirst:
    'A Google Sheets link reads a saved report. Save this report under a name (only you will see it in your list), then create the link.',
  sheetsSaveAndCreate: 'Save and continue',
  // the public page
  sharedBy: (workspace: string) => `Shared from ${workspace} on Sundial · read-only`,
  goneTitle: 'This link has expired or was revoked',
  goneBody: 'Ask the person who shared it for a new link.',
  missingSecret: 'This link is incomplete: copy the whole link, including the part after #.',
  loadingShared: 'Loading the shared report…',
  moneyHidden: 'Some amounts are left out of this shared report.',
};
