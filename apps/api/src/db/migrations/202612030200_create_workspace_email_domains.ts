import type { Kysely } from 'kysely';
import { runSql } from './run-sql.js';

/**
 * A workspace's allowed e-mail domains (DECISIONS.md): when it lists any, only addresses at one of
 * them may join by invite, SSO or SCIM. Lower-case, as the API stores them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runSql(
    db,
    `
    create table workspace_email_domains (
      workspace_id uuid not null references workspaces(id) on delete cascade,
      domain text not null check (domain = lower(domain)),
      created_at timestamptz not null default now(),
      primary key (workspace_id, domain)
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runSql(db, 'drop table workspace_email_domains;');
}
