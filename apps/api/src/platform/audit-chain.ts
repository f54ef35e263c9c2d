import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';

/**
 * The audit log's hash chain per workspace (issue 34), beside the writes of platform/audit.ts that
 * it seals: each new record of a workspace gets the next `seq` and `hash` = sha-256 of the previous
 * hash and the record's content, and the chain's head is kept apart, so an edited, a removed or a
 * cut-off record shows when the chain is walked (modules/audit-log reads and walks it).
 */

/** A record as the chain reads it: every column that says what happened, exactly as stored. */
export interface ChainRecord {
  id: string;
  workspaceId: string;
  actorUserId: string | null;
  action: string;
  subjectId: string | null;
  /** The detail as the database writes its jsonb out (a stable text). */
  detailText: string;
  /** The time in microseconds since 1970 (the column's whole precision). */
  createdMicros: string;
}

/** The hash before a workspace's first record. */
export const GENESIS = '';

/** The record's link: sha-256 of the previous link and the record at its place, so neither can change unseen. */
export function chainHash(previous: string, seq: number, record: ChainRecord): string {
  const content = JSON.stringify([
    seq,
    record.id,
    record.workspaceId,
    record.actorUserId,
    record.action,
    record.subjectId,
    record.detailText,
    record.createdMicros,
  ]);
  return createHash('sha256').update(`${previous}\n${content}`).digest('hex');
}

/** A record with what the chain hashes, its place and its link. */
export interface SealedRecord extends ChainRecord {
  seq: number;
  hash: string;
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

/** SQL of the chain: every query is scoped to a workspace. */
export const auditChain = {
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
};

/** Records sealed per transaction. */
const SEAL_BATCH = 2_000;

/** Seals the workspace's records not sealed yet, one sealer at a time; answers how many. */
export async function sealAuditChain(db: Db, workspaceId: string): Promise<number> {
  let sealed = 0;
  for (;;) {
    const count = await db.transaction().execute(async (tx) => {
      await auditChain.lockChain(tx, workspaceId);
      const records = await auditChain.unsealed(tx, workspaceId, SEAL_BATCH);
      let { seq, hash } = (await auditChain.head(tx, workspaceId)) ?? { seq: 0, hash: GENESIS };
      const links = records.map((record) => {
        seq += 1;
        hash = chainHash(hash, seq, record);
        return { id: record.id, seq, hash };
      });
      await auditChain.seal(tx, workspaceId, links);
      return links.length;
    });
    sealed += count;
    if (count < SEAL_BATCH) return sealed;
  }
}
