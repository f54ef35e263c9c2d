import type { Db } from '../db/connection.js';
import { newId } from './ids.js';

export interface AuditEntry {
  action: string;
  actorUserId?: string | null;
  workspaceId?: string | null;
  subjectId?: string | null;
  detail?: Record<string, unknown>;
}

/** Appends to the audit log, inside the caller's transaction when one is passed. */
export async function audit(db: Db, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: newId(),
      action: entry.action,
      actor_user_id: entry.actorUserId ?? null,
      workspace_id: entry.workspaceId ?? null,
      subject_id: entry.subjectId ?? null,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}
