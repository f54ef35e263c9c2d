import type { Db } from '../../db/connection.js';
import { type AuditAction, audit } from '../../platform/audit.js';
import { AppError, type ConstraintTable, mapConstraints } from '../../platform/errors.js';
import { SCHEMA, ScimError } from './scim.protocol.js';

/** The workspace a SCIM request acts in, as its bearer token named it. */
export interface ScimCaller {
  workspaceId: string;
  workspaceName: string;
  tokenId: string;
}

/** A 409 from the database's unique constraints, as SCIM's uniqueness error. */
export async function unique<T>(table: ConstraintTable, run: () => Promise<T>): Promise<T> {
  try {
    return await mapConstraints(table, run);
  } catch (error) {
    if (error instanceof AppError && error.status === 409) throw new ScimError(409, error.message, 'uniqueness');
    throw error;
  }
}

/** An audit entry of a SCIM change: by no user, through the caller's token. */
export const recordScim = (tx: Db, caller: ScimCaller, action: AuditAction, subjectId: string, detail: object = {}) =>
  audit(tx, {
    action,
    actorUserId: null,
    workspaceId: caller.workspaceId,
    subjectId,
    detail: { via: 'scim', tokenId: caller.tokenId, ...detail },
  });

/** A SCIM ListResponse. */
export function list(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [SCHEMA.list],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
