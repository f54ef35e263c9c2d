import type { ApiKeyRole, ApiKeyScopes } from '@sundial/core';
import { sql } from 'kysely';
import type { Db } from '../../db/connection.js';
import { prepared } from '../../db/prepared.js';
import type { ApiKeysTable } from '../../db/tables/api-keys.js';
import type { User } from '../../db/tables.js';

/** How often the last use of a key is written at most. */
export const LAST_USE_EVERY_MS = 60_000;

export type ApiKeyRow = Pick<
  ApiKeysTable,
  'id' | 'name' | 'prefix' | 'expires_at' | 'last_used_at' | 'last_used_ip' | 'revoked_at' | 'workspace_id' | 'acts_as'
> & { scopes: ApiKeyScopes; created_at: Date };

const KEY_COLUMNS = [
  'id',
  'name',
  'prefix',
  'scopes',
  'created_at',
  'expires_at',
  'last_used_at',
  'last_used_ip',
  'revoked_at',
  'workspace_id',
  'acts_as',
] as const;

/** A workspace key with who made it. */
export type WorkspaceKeyRow = ApiKeyRow & { creator_id: string; creator_name: string; creator_email: string };

/** The live key of a token's hash and its person: built and compiled once, as every key's request sends it. */
const liveKeyQuery = prepared(['tokenHash', 'now'], (db, v: { tokenHash: string; now: Date }) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .selectAll('u')
    // The key's columns as one value, beside the person's (whose names they share).
    .select(sql<ApiKeyRow>`to_jsonb(k) - 'token_hash' - 'user_id' - 'reminded_at'`.as('key'))
    .where('k.token_hash', '=', v.tokenHash)
    .where('k.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', v.now)])),
);

/** A key read as JSON has its times as text: as Date, like every other read. */
const withDates = (key: ApiKeyRow): ApiKeyRow => ({
  ...key,
  created_at: new Date(key.created_at),
  expires_at: key.expires_at && new Date(key.expires_at),
  last_used_at: key.last_used_at && new Date(key.last_used_at),
  revoked_at: key.revoked_at && new Date(key.revoked_at),
});

/** SQL of API keys: a person's own keys, found by the token's hash. */
export const apiKeysRepository = {
  async insert(
    db: Db,
    key: {
      id: string;
      userId: string;
      name: string;
      tokenHash: string;
      prefix: string;
      scopes: ApiKeyScopes;
      expiresAt: Date | null;
      /** A workspace key's workspace and role; none for a personal key. */
      workspace?: { id: string; actsAs: ApiKeyRole };
    },
  ): Promise<ApiKeyRow> {
    return db
      .insertInto('api_keys')
      .values({
        id: key.id,
        user_id: key.userId,
        name: key.name,
        token_hash: key.tokenHash,
        prefix: key.prefix,
        scopes: JSON.stringify(key.scopes),
        expires_at: key.expiresAt,
        workspace_id: key.workspace?.id ?? null,
        acts_as: key.workspace?.actsAs ?? null,
      })
      .returning(KEY_COLUMNS)
      .executeTakeFirstOrThrow();
  },

  /** The person's own keys not revoked, newest first (expired ones too, marked so by the service). */
  list(db: Db, userId: string): Promise<ApiKeyRow[]> {
    return db
      .selectFrom('api_keys')
      .select(KEY_COLUMNS)
      .where('user_id', '=', userId)
      .where('workspace_id', 'is', null)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  /** The workspace's keys not revoked, newest first, with who made each. */
  listOfWorkspace(db: Db, workspaceId: string): Promise<WorkspaceKeyRow[]> {
    return db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .select(KEY_COLUMNS.map((column) => `k.${column}` as const))
      .select(['u.id as creator_id', 'u.name as creator_name', 'u.email as creator_email'])
      .where('k.workspace_id', '=', workspaceId)
      .where('k.revoked_at', 'is', null)
      .orderBy('k.created_at', 'desc')
      .orderBy('k.id', 'desc')
      .execute();
  },

  /** Revokes one of the person's own keys; its name when there was one to revoke. */
  async revoke(db: Db, userId: string, id: string, now: Date): Promise<string | undefined> {
    const row = await db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('workspace_id', 'is', null)
      .where('revoked_at', 'is', null)
      .returning('name')
      .executeTakeFirst();
    return row?.name;
  },

  /** Revokes one of the workspace's keys, whoever made it; its name when there was one to revoke. */
  async revokeOfWorkspace(db: Db, workspaceId: string, id: string, now: Date): Promise<string | undefined> {
    const row = await db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .returning('name')
      .executeTakeFirst();
    return row?.name;
  },

  /** The live key of a token's hash with its person, in one query; undefined when none is live. */
  async findLive(db: Db, tokenHash: string, now: Date): Promise<{ key: ApiKeyRow; user: User } | undefined> {
    const [row] = await liveKeyQuery(db, { tokenHash, now });
    if (!row) return undefined;
    const { key, ...user } = row;
    return { key: withDates(key), user };
  },

  /** Writes the last use, unless another request wrote one within the minute. */
  async touch(db: Db, id: string, now: Date, ip: string): Promise<void> {
    await db
      .updateTable('api_keys')
      .set({ last_used_at: now, last_used_ip: ip })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(now.getTime() - LAST_USE_EVERY_MS))]),
      )
      .execute();
  },

  /** Live keys that expire before `before` (and after `now`) whose owner has not been reminded. */
  async expiringUnreminded(
    db: Db,
    before: Date,
    now: Date,
  ): Promise<{ id: string; name: string; prefix: string; expires_at: Date; user: User }[]> {
    const rows = await db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .selectAll('u')
      .select(['k.id as key_id', 'k.name as key_name', 'k.prefix as key_prefix', 'k.expires_at as key_expires_at'])
      .where('k.revoked_at', 'is', null)
      .where('k.reminded_at', 'is', null)
      .where('k.expires_at', '>', now)
      .where('k.expires_at', '<=', before)
      .orderBy('k.expires_at')
      .limit(1000)
      .execute();
    return rows.map(({ key_id, key_name, key_prefix, key_expires_at, ...user }) => ({
      id: key_id,
      name: key_name,
      prefix: key_prefix,
      expires_at: key_expires_at as Date,
      user,
    }));
  },

  /** Marks a key reminded; false when another process did first. */
  async claimReminder(db: Db, id: string, now: Date): Promise<boolean> {
    const row = await db
      .updateTable('api_keys')
      .set({ reminded_at: now })
      .where('id', '=', id)
      .where('reminded_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  },
};
