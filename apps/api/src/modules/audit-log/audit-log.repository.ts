import type { AuditLogQuery } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';

export interface AuditRow {
  id: string;
  action: string;
  actor_user_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  subject_id: string | null;
  ip: string | null;
  api_key_id: string | null;
  api_key_name: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
  /** created_at to the microsecond, for the cursor. */
  created_exact: string;
  seq: string | null;
}

/** SQL of the audit log's reading (the chain's own SQL is platform/audit-chain.ts); scoped to a workspace. */
export const auditLogRepository = {
  /** A page of the workspace's records, newest first, with who did each. */
  list(
    db: Db,
    workspaceId: string,
    filter: Omit<AuditLogQuery, 'limit' | 'cursor'> & { limit: number; before?: { exact: string; id: string } },
  ): Promise<AuditRow[]> {
    let query = db
      .selectFrom('audit_log as a')
      .leftJoin('users as u', 'u.id', 'a.actor_user_id')
      .leftJoin('api_keys as k', 'k.id', 'a.api_key_id')
      .select([
        'a.id',
        'a.action',
        'a.actor_user_id',
        'u.name as actor_name',
        'u.email as actor_email',
        'a.subject_id',
        'a.ip',
        'a.api_key_id',
        'k.name as api_key_name',
        'a.detail',
        'a.created_at',
        sql<string>`to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('created_exact'),
        sql<string | null>`a.seq::text`.as('seq'),
      ])
      .where('a.workspace_id', '=', workspaceId);
    if (filter.actorUserId) query = query.where('a.actor_user_id', '=', filter.actorUserId);
    if (filter.subjectId) query = query.where('a.subject_id', '=', filter.subjectId);
    if (filter.action) {
      query = filter.action.endsWith('.')
        ? query.where('a.action', 'like', `${filter.action.replace(/_/g, '\\_')}%`)
        : query.where('a.action', '=', filter.action);
    }
    if (filter.from) query = query.where('a.created_at', '>=', new Date(filter.from));
    if (filter.to) query = query.where('a.created_at', '<', new Date(filter.to));
    const before = filter.before;
    if (before) {
      query = query.where(sql<boolean>`(a.created_at, a.id) < (${before.exact}::timestamptz, ${before.id}::uuid)`);
    }
    return query.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(filter.limit).execute();
  },

  /** Days the workspace keeps its records; null: forever (the default). */
  async retention(db: Db, workspaceId: string): Promise<number | null> {
    const row = await db
      .selectFrom('audit_settings')
      .select('retention_days')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row?.retention_days ?? null;
  },

  async setRetention(db: Db, workspaceId: string, days: number | null): Promise<void> {
    await db
      .insertInto('audit_settings')
      .values({ workspace_id: workspaceId, retention_days: days })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ retention_days: days, updated_at: sql`now()` }))
      .execute();
  },

  /** Workspaces that keep their records a limited time, with how long. */
  withRetention(db: Db): Promise<{ workspace_id: string; retention_days: number | null }[]> {
    return db
      .selectFrom('audit_settings')
      .select(['workspace_id', 'retention_days'])
      .where('retention_days', 'is not', null)
      .execute();
  },
};
