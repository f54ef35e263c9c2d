import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * Personal API keys (issue 34): a person's bearer tokens for scripts and integrations, kept only
 * as their sha-256 (shown once when made), each with its areas of access, an expiry (12 months
 * unless chosen), the last use (written at most once a minute) and the expiry reminder sent.
 * Revoked keys stay (revoked_at) so the audit log's subjects keep their names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table api_keys (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      name text not null,
      token_hash text not null unique,
      prefix text not null,
      scopes jsonb not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz,
      last_used_at timestamptz,
      last_used_ip text,
      reminded_at timestamptz,
      revoked_at timestamptz
    );
    create index api_keys_user on api_keys (user_id) where revoked_at is null;
    create index api_keys_expiring on api_keys (expires_at) where revoked_at is null and reminded_at is null;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table api_keys;');
}
