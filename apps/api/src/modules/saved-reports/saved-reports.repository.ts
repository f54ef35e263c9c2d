import type { Db } from '../../db/connection.js';
import type { ReportLinkRow, SavedReportRow } from '../../db/tables/saved-reports.js';

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
};
