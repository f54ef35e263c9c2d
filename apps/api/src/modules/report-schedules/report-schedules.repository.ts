import { sql, type Updateable } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { ReportScheduleRow, ReportSchedulesTable } from '../../db/tables/report-schedules.js';

const columns = [
  'id',
  'workspace_id',
  'saved_report_id',
  'owner_user_id',
  'frequency',
  'weekday',
  'month_day',
  'hour',
  'time_zone',
  'format',
  'recipient_user_ids',
  'recipient_emails',
  'state',
  'next_run_at',
  'last_sent_at',
  'last_sent_slot',
  'last_error',
  'failed_attempts',
  'created_at',
  'updated_at',
] as const;

export interface ScheduleFields {
  frequency: ReportScheduleRow['frequency'];
  weekday: number | null;
  month_day: number | null;
  hour: number;
  time_zone: string;
  format: ReportScheduleRow['format'];
  recipient_user_ids: string[];
  recipient_emails: string[];
  next_run_at: Date;
}

/** What the service changes on a schedule besides its timing and recipients (those go through upsert). */
type Change = Omit<Updateable<ReportSchedulesTable>, 'recipient_user_ids' | 'recipient_emails'>;

export const reportSchedulesRepository = {
  findByReport(db: Db, workspaceId: string, savedReportId: string): Promise<ReportScheduleRow | undefined> {
    return db
      .selectFrom('report_schedules')
      .select(columns)
      .where('workspace_id', '=', workspaceId)
      .where('saved_report_id', '=', savedReportId)
      .executeTakeFirst();
  },

  find(db: Db, workspaceId: string, id: string): Promise<ReportScheduleRow | undefined> {
    return db
      .selectFrom('report_schedules')
      .select(columns)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** Inserts the report's schedule, or replaces its timing and recipients. */
  async upsert(
    db: Db,
    row: ScheduleFields & { id: string; workspace_id: string; saved_report_id: string; owner_user_id: string },
  ): Promise<void> {
    const fields = {
      frequency: row.frequency,
      weekday: row.weekday,
      month_day: row.month_day,
      hour: row.hour,
      time_zone: row.time_zone,
      format: row.format,
      recipient_user_ids: JSON.stringify(row.recipient_user_ids),
      recipient_emails: JSON.stringify(row.recipient_emails),
      next_run_at: row.next_run_at,
    };
    await db
      .insertInto('report_schedules')
      .values({
        ...fields,
        id: row.id,
        workspace_id: row.workspace_id,
        saved_report_id: row.saved_report_id,
        owner_user_id: row.owner_user_id,
      })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'saved_report_id']).doUpdateSet({
          ...fields,
          // Editing makes a failed schedule active again; a paused one stays paused.
          state: sql`case when report_schedules.state = 'paused' then 'paused' else 'active' end`,
          last_error: null,
          failed_attempts: 0,
          updated_at: new Date(),
        }),
      )
      .execute();
  },

  async update(db: Db, workspaceId: string, id: string, change: Change): Promise<void> {
    await db
      .updateTable('report_schedules')
      .set({ ...change, updated_at: new Date() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  },

  async remove(db: Db, workspaceId: string, id: string): Promise<void> {
    await db.deleteFrom('report_schedules').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Active schedules whose send is due, oldest first (across workspaces: the tick's read). */
  due(db: Db, now: Date, limit: number): Promise<ReportScheduleRow[]> {
    return db
      .selectFrom('report_schedules')
      .select(columns)
      .where('state', '=', 'active')
      .where('next_run_at', '<=', now)
      .orderBy('next_run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  /**
   * Moves a due schedule's next send forward if it still is at `slot` and active (compare-and-set):
   * true for the one caller that moved it, which then owns that slot's send.
   */
  async claimSlot(
    db: Db,
    row: Pick<ReportScheduleRow, 'workspace_id' | 'id'>,
    slot: Date,
    next: Date,
  ): Promise<boolean> {
    const moved = await db
      .updateTable('report_schedules')
      .set({ next_run_at: next })
      .where('workspace_id', '=', row.workspace_id)
      .where('id', '=', row.id)
      .where('state', '=', 'active')
      .where('next_run_at', '=', slot)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1;
  },
};
