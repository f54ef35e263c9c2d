import type { AttendanceSettingsView, WorkContractView } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';

/** SQL of attendance: the workspace's settings and people's contracts. */
export const attendanceRepository = {
  async settings(db: Db, workspaceId: string): Promise<AttendanceSettingsView | undefined> {
    const row = await db
      .selectFrom('attendance_settings')
      .select(['country', 'region', 'rules', 'add_legal_breaks'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row && { country: row.country, region: row.region, rules: row.rules, addLegalBreaks: row.add_legal_breaks };
  },

  async saveSettings(db: Db, workspaceId: string, settings: AttendanceSettingsView): Promise<void> {
    const values = {
      country: settings.country,
      region: settings.region,
      rules: settings.rules,
      add_legal_breaks: settings.addLegalBreaks,
    };
    await db
      .insertInto('attendance_settings')
      .values({ workspace_id: workspaceId, ...values })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ ...values, updated_at: sql`now()` }))
      .execute();
  },

  /** A person's contracts, earliest first. */
  async contracts(db: Db, workspaceId: string, userId: string): Promise<WorkContractView[]> {
    const rows = await db
      .selectFrom('work_contracts')
      .select(['id', 'user_id', sql<string>`starts_on::text`.as('starts_on'), 'weekday_minutes'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .orderBy('starts_on')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      startsOn: r.starts_on,
      weekdayMinutes: r.weekday_minutes as WorkContractView['weekdayMinutes'],
    }));
  },

  async insertContract(db: Db, workspaceId: string, contract: WorkContractView): Promise<void> {
    await db
      .insertInto('work_contracts')
      .values({
        id: contract.id,
        workspace_id: workspaceId,
        user_id: contract.userId,
        starts_on: contract.startsOn,
        weekday_minutes: [...contract.weekdayMinutes],
      })
      .execute();
  },

  /** Deletes a contract of the workspace; answers it as it was, or undefined. */
  async deleteContract(db: Db, workspaceId: string, id: string) {
    return db
      .deleteFrom('work_contracts')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returning(['user_id', sql<string>`starts_on::text`.as('starts_on')])
      .executeTakeFirst();
  },

  async member(db: Db, workspaceId: string, userId: string) {
    return db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'u.time_zone'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.user_id', '=', userId)
      .executeTakeFirst();
  },
};
