import type { Selectable } from 'kysely';
import type { Timestamp } from '../tables.js';

/** A report page (slug) and its query string, saved under a name by its owner. */
export interface SavedReportsTable {
  id: string;
  workspace_id: string;
  owner_user_id: string;
  name: string;
  kind: string;
  query: string;
  visibility: 'private' | 'workspace';
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A public read-only link to a saved report: only its secret's sha-256 is kept. */
export interface ReportLinksTable {
  id: string;
  workspace_id: string;
  saved_report_id: string;
  created_by_user_id: string;
  secret_hash: string;
  include_costs: boolean;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_viewed_at: Date | null;
  created_at: Timestamp;
}

/** A saved report's CSV link for spreadsheet imports: its token sits in the URL path, so only its sha-256 is kept. */
export interface ReportCsvLinksTable {
  id: string;
  workspace_id: string;
  saved_report_id: string;
  created_by_user_id: string;
  token_hash: string;
  include_costs: boolean;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_fetched_at: Date | null;
  created_at: Timestamp;
}

export interface SavedReportsTables {
  saved_reports: SavedReportsTable;
  report_links: ReportLinksTable;
  report_csv_links: ReportCsvLinksTable;
}

export type SavedReportRow = Selectable<SavedReportsTable>;
export type ReportLinkRow = Selectable<ReportLinksTable>;
export type ReportCsvLinkRow = Selectable<ReportCsvLinksTable>;
