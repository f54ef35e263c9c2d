import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * SCIM provisioning (Pro, with SSO): one bearer token per workspace for an identity provider
 * (Okta, Microsoft Entra), kept only as its sha-256 (shown once when made); a new one replaces it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table scim_tokens (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      token_hash text not null unique,
      created_by_user_id uuid references users(id) on delete set null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    );
    create unique index scim_tokens_one_live on scim_tokens (workspace_id) where revoked_at is null;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table scim_tokens;');
}
