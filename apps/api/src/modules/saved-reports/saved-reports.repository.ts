import type { Db } from '../../db/connection.js';
import type { ReportCsvLinkRow, ReportLinkRow, SavedReportRow } from '../../db/tables/saved-reports.js';

export type SavedReportWithOwner = SavedReportRow & { owner_name: string };

const reportColumns = [
  'r.id',
  'r.workspace_id',
  'r.owner_user_id',
  'r.name',
  'r.kind',
  'r.query',
  'r.visibility',
  'r.created_at',
  'r.updated_at',
  'u.name as owner_name',
] as const;

const withOwner = (db: Db, workspaceId: string) =>
  db
    .selectFrom('saved_reports as r')
    .innerJoin('users as u', 'u.id', 'r.owner_user_id')
    .select(reportColumns)
    .where('r.workspace_id', '=', workspaceId);

const linkColumns = [
  'id',
  'workspace_id',
  'saved_report_id',
  'created_by_user_id',
  'secret_hash',
  'include_costs',
  'expires_at',
  'revoked_at',
  'last_viewed_at',
  'created_at',
] as const;

const csvLinkColumns = [
  'id',
  'workspace_id',
  'saved_report_id',
  'created_by_user_id',
  'token_hash',
  'include_costs',
  'expires_at',
  'revoked_at',
  'last_fetched_at',
  'created_at',
] as const;

export const savedReportsRepository = {
  /** The viewer's own saved reports and those shared with the workspace, by name. */
  list(db: Db, workspaceId: string, viewerId: string): Promise<SavedReportWithOwner[]> {
    return withOwner(db, workspaceId)
      .where((eb) => eb.or([eb('r.owner_user_id', '=', viewerId), eb('r.visibility', '=', 'workspace')]))
      .orderBy((eb) => eb.fn('lower', ['r.name']))
      .orderBy('r.id')
      .execute();
  },

  find(db: Db, workspaceId: string, id: string): Promise<SavedReportWithOwner | undefined> {
    return withOwner(db, workspaceId).where('r.id', '=', id).executeTakeFirst();
  },

  async insert(
    db: Db,
    row: Pick<SavedReportRow, 'id' | 'workspace_id' | 'owner_user_id' | 'name' | 'kind' | 'query' | 'visibility'>,
  ): Promise<void> {
    await db.insertInto('saved_reports').values(row).execute();
  },

  async update(
    db: Db,
    workspaceId: string,
    id: string,
    changes: Partial<Pick<SavedReportRow, 'name' | 'query' | 'visibility'>>,
  ): Promise<void> {
    await db
      .updateTable('saved_reports')
      .set({ ...changes, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async remove(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('saved_reports').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  // ---- links

  listLinks(db: Db, workspaceId: string, savedReportId: string): Promise<ReportLinkRow[]> {
    return db
      .selectFrom('report_links')
      .select(linkColumns)
      .where('workspace_id', '=', workspaceId)
      .where('saved_report_id', '=', savedReportId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  findLink(db: Db, workspaceId: string, savedReportId: string, id: string): Promise<ReportLinkRow | undefined> {
    return db
      .selectFrom('report_links')
      .select(linkColumns)
      .where('workspace_id', '=', workspaceId)
      .where('saved_report_id', '=', savedReportId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /**
   * A link by its id alone: the public page knows no workspace. The caller then holds the row's
   * secret hash against the secret it was given, and scopes everything after by the row's workspace.
   */
  findPublicLink(db: Db, id: string): Promise<ReportLinkRow | undefined> {
    return db.selectFrom('report_links').select(linkColumns).where('id', '=', id).executeTakeFirst();
  },

  async insertLink(
    db: Db,
    row: Pick<
      ReportLinkRow,
      'id' | 'workspace_id' | 'saved_report_id' | 'created_by_user_id' | 'secret_hash' | 'include_costs' | 'expires_at'
    >,
  ): Promise<ReportLinkRow> {
    return db.insertInto('report_links').values(row).returning(linkColumns).executeTakeFirstOrThrow();
  },

  /** Revokes a link once: revoking it again keeps the first moment. */
  async revokeLink(db: Db, workspaceId: string, id: string, at: Date): Promise<void> {
    await db
      .updateTable('report_links')
      .set({ revoked_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  },

  async touchLink(db: Db, workspaceId: string, id: string, at: Date): Promise<void> {
    await db
      .updateTable('report_links')
      .set({ last_viewed_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  // ---- CSV links

  /** The report's CSV link made last (working or not): the one the owner sees. */
  latestCsvLink(db: Db, workspaceId: string, savedReportId: string): Promise<ReportCsvLinkRow | undefined> {
    return db
      .selectFrom('report_csv_links')
      .select(csvLinkColumns)
      .where('workspace_id', '=', workspaceId)
      .where('saved_report_id', '=', savedReportId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  async insertCsvLink(
    db: Db,
    row: Pick<
      ReportCsvLinkRow,
      'id' | 'workspace_id' | 'saved_report_id' | 'created_by_user_id' | 'token_hash' | 'include_costs' | 'expires_at'
    >,
  ): Promise<ReportCsvLinkRow> {
    return db.insertInto('report_csv_links').values(row).returning(csvLinkColumns).executeTakeFirstOrThrow();
  },

  /** Revokes the report's working CSV link, if any; answers the ids revoked. */
  async revokeCsvLinks(db: Db, workspaceId: string, savedReportId: string, at: Date): Promise<string[]> {
    const rows = await db
      .updateTable('report_csv_links')
      .set({ revoked_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('saved_report_id', '=', savedReportId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  },

  /**
   * A working CSV link by its token's hash alone (the public CSV knows no workspace). Unknown,
   * revoked and expired tokens are the same miss of the same indexed query, so they take the same time.
   */
  findWorkingCsvLink(db: Db, tokenHash: string, now: Date): Promise<ReportCsvLinkRow | undefined> {
    return db
      .selectFrom('report_csv_links')
      .select(csvLinkColumns)
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
  },

  async touchCsvLink(db: Db, workspaceId: string, id: string, at: Date): Promise<void> {
    await db
      .updateTable('report_csv_links')
      .set({ last_fetched_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },
};
