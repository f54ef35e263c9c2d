import type { AuditLogQuery } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import type { ChainRecord } from './audit-log.chain.js';

/** A record with what the chain hashes, its place and its link. */
export interface SealedRecord extends ChainRecord {
  seq: number;
  hash: string;
}

export interface AuditRow {
  id: string;
  action: string;
  actor_user_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  subject_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
  /** created_at to the microsecond, for the cursor. */
  created_exact: string;
  seq: string | null;
}

/** The audit log with the columns the chain hashes, as exact text. */
function chainQuery(db: Db) {
  return db
    .selectFrom('audit_log as a')
    .select([
      'a.id',
      sql<string>`a.workspace_id::text`.as('workspace_id'),
      'a.actor_user_id',
      'a.action',
      'a.subject_id',
      sql<string>`a.detail::text`.as('detail_text'),
      sql<string>`(extract(epoch from a.created_at) * 1000000)::int8::text`.as('created_micros'),
    ]);
}

type ChainRow = {
  id: string;
  workspace_id: string;
  actor_user_id: string | null;
  action: string;
  subject_id: string | null;
  detail_text: string;
  created_micros: string;
};
const toRecord = (row: ChainRow): ChainRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  actorUserId: row.actor_user_id,
  action: row.action,
  subjectId: row.subject_id,
  detailText: row.detail_text,
  createdMicros: row.created_micros,
});

/** SQL of the audit log's reading and its hash chain; every query is scoped to a workspace. */
export const auditLogRepository = {
  /** Workspaces with records not sealed yet. */
  async unsealedWorkspaces(db: Db, limit: number): Promise<string[]> {
    const rows = await db
      .selectFrom('audit_log')
      .select('workspace_id')
      .distinct()
      .where('seq', 'is', null)
      .where('workspace_id', 'is not', null)
      .limit(limit)
      .execute();
    return rows.flatMap((row) => (row.workspace_id ? [row.workspace_id] : []));
  },

  /** One sealer at a time per workspace, until the transaction ends. */
  async lockChain(tx: Db, workspaceId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`audit-chain:${workspaceId}`}, 0))`.execute(tx);
  },

  async head(db: Db, workspaceId: string): Promise<{ seq: number; hash: string } | undefined> {
    const row = await db
      .selectFrom('audit_chain_heads')
      .select([sql<string>`seq::text`.as('seq'), 'hash'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row && { seq: Number(row.seq), hash: row.hash };
  },

  /** The workspace's oldest records not sealed yet, in the order they are sealed. */
  async unsealed(db: Db, workspaceId: string, limit: number): Promise<ChainRecord[]> {
    const rows = await chainQuery(db)
      .where('a.workspace_id', '=', workspaceId)
      .where('a.seq', 'is', null)
      .orderBy('a.created_at')
      .orderBy('a.id')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  },

  /** Gives records their places and links, and moves the head to the last. */
  async seal(db: Db, workspaceId: string, sealed: readonly { id: string; seq: number; hash: string }[]): Promise<void> {
    const last = sealed.at(-1);
    if (!last) return;
    const values = sealed.map((r) => sql`(${r.id}::uuid, ${r.seq}::int8, ${r.hash}::text)`);
    await sql`
      update audit_log as a set seq = v.seq, hash = v.hash
      from (values ${sql.join(values)}) as v (id, seq, hash)
      where a.id = v.id and a.workspace_id = ${workspaceId}::uuid
    `.execute(db);
    await db
      .insertInto('audit_chain_heads')
      .values({ workspace_id: workspaceId, seq: last.seq, hash: last.hash })
      .onConflict((oc) =>
        oc.column('workspace_id').doUpdateSet({ seq: last.seq, hash: last.hash, sealed_at: sql`now()` }),
      )
      .execute();
  },

  /** Sealed records after `afterSeq`, in chain order. */
  async sealedAfter(db: Db, workspaceId: string, afterSeq: number, limit: number): Promise<SealedRecord[]> {
    const rows = await chainQuery(db)
      .select([sql<string>`a.seq::text`.as('seq_text'), 'a.hash'])
      .where('a.workspace_id', '=', workspaceId)
      .where('a.seq', '>', String(afterSeq))
      .orderBy('a.seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...toRecord(row), seq: Number(row.seq_text), hash: row.hash ?? '' }));
  },

  /** A page of the workspace's records, newest first, with who did each. */
  list(
    db: Db,
    workspaceId: string,
    filter: Omit<AuditLogQuery, 'limit' | 'cursor'> & { limit: number; before?: { exact: string; id: string } },
  ): Promise<AuditRow[]> {
    let query = db
      .selectFrom('audit_log as a')
      .leftJoin('users as u', 'u.id', 'a.actor_user_id')
      .select([
        'a.id',
        'a.action',
        'a.actor_user_id',
        'u.name as actor_name',
        'u.email as actor_email',
        'a.subject_id',
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
};
