import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/connection.js';
import { AppError, validationError } from './errors.js';
import { hashSecret } from './ids.js';

/** What a write answered: replayed as is to a retry with the same key. */
export interface WriteResult<T> {
  status: number;
  body: T;
}

export interface IdempotentRequest {
  /** The client's Idempotency-Key header; without one the work simply runs. */
  key: string | undefined;
  workspaceId: string;
  userId: string;
  /** A stable name of the write, e.g. 'timer.start', 'projects.create': a key stands for one operation. */
  operation: string;
  /** The parsed body (and any query that changes the write): a key stands for one body. */
  body: unknown;
}

const MAX_KEY_LENGTH = 200;
/** How long a key is remembered; retries come within seconds, not days. */
export const IDEMPOTENCY_KEY_TTL_MS = 86_400_000;

/** The Idempotency-Key header of a request, trimmed; undefined when absent or blank. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Runs `work` once per Idempotency-Key, inside the caller's transaction `tx`: a retry with the same
 * key and the same body gets the first answer again without doing the work twice; the same key
 * with another body or on another operation is a client bug, not a retry, and gets 422
 * idempotency_key_reused. Keys are scoped per workspace and user.
 *
 * Claiming the key is an insert in `tx`: a concurrent retry waits on it, then reads the stored
 * answer once the first commits; when the work fails the transaction (and the claim) rolls back,
 * so the retry runs the work afresh.
 */
export async function idempotent<T>(
  tx: Db,
  request: IdempotentRequest,
  work: () => Promise<WriteResult<T>>,
): Promise<WriteResult<T>> {
  const { key, workspaceId, userId } = request;
  if (!key) return work();
  if (key.length > MAX_KEY_LENGTH) {
    throw validationError({ 'idempotency-key': `The Idempotency-Key is too long (at most ${MAX_KEY_LENGTH}).` });
  }
  const operation = `${request.operation} ${hashSecret(JSON.stringify(request.body ?? null))}`;
  const inserted = await tx
    .insertInto('idempotency_keys')
    .values({ workspace_id: workspaceId, user_id: userId, key, operation })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!inserted) {
    const stored = await tx
      .selectFrom('idempotency_keys')
      .select(['operation', 'status', 'body'])
      .where('workspace_id', '=', workspaceId)
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (stored.operation !== operation) {
      const sameOperation = stored.operation.split(' ')[0] === request.operation;
      throw new AppError(
        'idempotency_key_reused',
        sameOperation
          ? 'This Idempotency-Key was already used with a different request body. Send a new key for a new request.'
          : 'This Idempotency-Key was already used for another request. Send a new key for a new request.',
        { status: 422 },
      );
    }
    return { status: stored.status ?? 200, body: stored.body as T };
  }
  const result = await work();
  await tx
    .updateTable('idempotency_keys')
    .set({ status: result.status, body: JSON.stringify(result.body) })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
  return result;
}

/** Forgets keys claimed before `olderThan` (a day ago by default). Scheduling is the caller's. */
export async function purgeIdempotencyKeys(
  db: Db,
  olderThan = new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS),
): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', olderThan).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
