import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { RateRow, RateSettingsRow } from '../../db/tables/rates.js';

/** Rates and the workspace's rate settings. Every query takes the workspace id. */

export type RateValues = Omit<RateRow, 'created_at'>;

const RATE_COLUMNS = [
  'id',
  'workspace_id',
  'level',
  'user_id',
  'project_id',
  'task_id',
  'billable_cents',
  'cost_cents',
  'created_by_user_id',
  'created_at',
] as const;

function selectRates(db: Db, workspaceId: string) {
  return db
    .selectFrom('rates')
    .select(RATE_COLUMNS)
    .select(sql<string>`to_char(effective_from, 'YYYY-MM-DD')`.as('effective_from'))
    .where('workspace_id', '=', workspaceId);
}

export const ratesRepository = {
  async findSettings(db: Db, workspaceId: string): Promise<RateSettingsRow | undefined> {
    return db.selectFrom('rate_settings').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
  },

  async upsertSettings(
    tx: Db,
    workspaceId: string,
    values: Partial<Omit<RateSettingsRow, 'workspace_id' | 'updated_at'>>,
  ): Promise<void> {
    const row = { ...values, updated_at: new Date() };
    await tx
      .insertInto('rate_settings')
      .values({ workspace_id: workspaceId, ...row })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet(row))
      .execute();
  },

  /** The history of one level's target, newest first. */
  async list(
    db: Db,
    workspaceId: string,
    t: Pick<RateRow, 'level' | 'user_id' | 'project_id' | 'task_id'>,
  ): Promise<RateRow[]> {
    return selectRates(db, workspaceId)
      .where('level', '=', t.level)
      .where('user_id', t.user_id === null ? 'is' : '=', t.user_id)
      .where('project_id', t.project_id === null ? 'is' : '=', t.project_id)
      .where('task_id', t.task_id === null ? 'is' : '=', t.task_id)
      .orderBy('effective_from', 'desc')
      .execute();
  },

  async find(db: Db, workspaceId: string, id: string): Promise<RateRow | undefined> {
    return selectRates(db, workspaceId).where('id', '=', id).executeTakeFirst();
  },

  async insert(tx: Db, values: RateValues): Promise<void> {
    await tx.insertInto('rates').values(values).execute();
  },

  async delete(tx: Db, workspaceId: string, id: string): Promise<void> {
    await tx.deleteFrom('rates').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  },

  /** The project of a task of the workspace (a task rate is kept with it). */
  async findTaskProject(db: Db, workspaceId: string, taskId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('tasks')
      .select('project_id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', taskId)
      .executeTakeFirst();
    return row?.project_id;
  },
};
