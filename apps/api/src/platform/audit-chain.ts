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
  /** The request's address and API key, when the record has them. */
  ip: string | null;
  apiKeyId: string | null;
}

/** The hash before a workspace's first record. */
export const GENESIS = '';

/** The record's link: sha-256 of the previous link and the record at its place, so neither can change unseen. */
export function chainHash(previous: string, seq: number, record: ChainRecord): string {
  const fields: unknown[] = [
    seq,
    record.id,
    record.workspaceId,
    record.actorUserId,
    record.action,
    record.subjectId,
    record.detailText,
    record.createdMicros,
  ];
  // Records written before addresses were kept hash as they were sealed; an address or key, once
  // there, is part of the seal (blanking one shows as an alteration).
  if (record.ip !== null || record.apiKeyId !== null) fields.push(record.ip, record.apiKeyId);
  const content = JSON.stringify(fields);
  return createHash('sha256').update(`${previous}\n${content}`).digest('hex');
}

/** The chain's last link, and the last pruned one (where a walk of what is kept starts). */
export interface ChainHead {
  seq: number;
  hash: string;
  prunedSeq: number;
  prunedHash: string;
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
      'a.ip',
      sql<string | null>`a.api_key_id::text`.as('api_key_id'),
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
  ip: string | null;
  api_key_id: string | null;
};
const toRecord = (row: ChainRow): ChainRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  actorUserId: row.actor_user_id,
  action: row.action,
  subjectId: row.subject_id,
  detailText: row.detail_text,
  createdMicros: row.created_micros,
  ip: row.ip,
  apiKeyId: row.api_key_id,
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

  /** The chain's last link, and where its kept part begins (0 and GENESIS until pruned). */
  async head(db: Db, workspaceId: string): Promise<ChainHead | undefined> {
    const row = await db
      .selectFrom('audit_chain_heads')
      .select([sql<string>`seq::text`.as('seq'), 'hash', sql<string>`pruned_seq::text`.as('pruned_seq'), 'pruned_hash'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return (
      row && { seq: Number(row.seq), hash: row.hash, prunedSeq: Number(row.pruned_seq), prunedHash: row.pruned_hash }
    );
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
      const head = await auditChain.head(tx, workspaceId);
      let seq = head?.seq ?? 0;
      let hash = head?.hash ?? GENESIS;
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

/**
 * Removes the workspace's records written before `cutoff` from the start of its chain (a retention
 * setting), after sealing what is new: only a run of sealed records from the chain's start goes,
 * so what is kept still verifies from the last removed link, which the head keeps. Answers how
 * many records were removed.
 */
export async function pruneAuditChain(db: Db, workspaceId: string, cutoff: Date): Promise<number> {
  await sealAuditChain(db, workspaceId);
  return db.transaction().execute(async (tx) => {
    await auditChain.lockChain(tx, workspaceId);
    const head = await auditChain.head(tx, workspaceId);
    if (!head) return 0;
    // The chain's prefix written before the cutoff: up to the first record kept, or its head.
    const firstKept = await tx
      .selectFrom('audit_log')
      .select(sql<string | null>`min(seq)::text`.as('seq'))
      .where('workspace_id', '=', workspaceId)
      .where('seq', '>', String(head.prunedSeq))
      .where('created_at', '>=', cutoff)
      .executeTakeFirst();
    const through = firstKept?.seq ? Number(firstKept.seq) - 1 : head.seq;
    if (through <= head.prunedSeq) return 0;
    const last = await tx
      .selectFrom('audit_log')
      .select('hash')
      .where('workspace_id', '=', workspaceId)
      .where('seq', '=', String(through))
      .executeTakeFirst();
    // A link already missing is for verification to report, not for pruning to paper over.
    if (!last?.hash) return 0;
    const removed = await tx
      .deleteFrom('audit_log')
      .where('workspace_id', '=', workspaceId)
      .where('seq', '>', String(head.prunedSeq))
      .where('seq', '<=', String(through))
      .executeTakeFirst();
    await tx
      .updateTable('audit_chain_heads')
      .set({ pruned_seq: through, pruned_hash: last.hash })
      .where('workspace_id', '=', workspaceId)
      .execute();
    return Number(removed.numDeletedRows);
  });
}
