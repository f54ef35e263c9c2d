import { createHash } from 'node:crypto';

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
